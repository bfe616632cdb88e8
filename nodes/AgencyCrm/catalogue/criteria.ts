import { DateTime } from 'luxon';
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { entriesOf, idValue, ok, parseJson } from './convert';
import { evidence, guard, guess, isAbsent, rule } from './rules';
import type { Converter, FieldSpec, Problem, Rule, RuleSource } from './types';

/**
 * Criteria, as each site defines them (docs/assumptions.md "Production evidence"): a property's price,
 * type, surface, rooms, status and town are criteria of the site, named by its XML key (`TypeBien`,
 * `NbPieces` on one site and `NbPiece` on another) or numeric id; a list criterion's value is its
 * `model` code (`Appartement`, never `1`); searches add an operator. One factory makes the rows of
 * every endpoint that writes or filters by criteria, and the pure functions below turn what the user
 * gave into the wire, given the site's referential (read by actions/criteria.ts).
 */

/** How one endpoint's criteria travel. */
export interface CriteriaSpec {
	/** Which referential names them: `GET /criterias/product/all` or `GET /criterias/search-requests`. */
	referential: 'product' | 'searchRequest';
	/** Where the rows go in the body (dotted), after those Extra Body Fields give there: never replacing them. */
	key: string;
	/** Each row has an operator (product search, search requests): `{id, operator, value}`. */
	operators: boolean;
	/** Values travel as text (`"value": "<text>"`), as production's search and search requests take them. */
	textValues: boolean;
	/** The rows are one more search request (`{criteria}`) of the list at `key` (buyer leads). */
	asSearchRequest?: boolean;
	/** A new listing: told when its status criterion will keep it out of the CRM. */
	newListing?: boolean;
}

export const PRODUCT_CRITERIA: CriteriaSpec = {
	referential: 'product',
	key: 'criteria',
	operators: false,
	textValues: false,
};
export const NEW_LISTING_CRITERIA: CriteriaSpec = { ...PRODUCT_CRITERIA, newListing: true };
/** Product search spells its filter `criterias` (docs/assumptions.md "Production evidence"). */
export const PRODUCT_SEARCH_CRITERIA: CriteriaSpec = {
	referential: 'product',
	key: 'criterias',
	operators: true,
	textValues: true,
};
export const SEARCH_REQUEST_CRITERIA: CriteriaSpec = {
	referential: 'searchRequest',
	key: 'criteria',
	operators: true,
	textValues: true,
};
export const BUYER_LEAD_CRITERIA: CriteriaSpec = {
	...SEARCH_REQUEST_CRITERIA,
	key: 'search_requests',
	asSearchRequest: true,
};
export const SELLER_LEAD_CRITERIA: CriteriaSpec = { ...NEW_LISTING_CRITERIA, key: 'product.criteria' };

/** Production's criteria model: blocks where the node could not form what production reads. */
export const CRITERIA_MODEL = evidence(
	'criteria: the site’s XML keys or numeric ids, list values by their model code, search operators EGAL, CONTIENT, INFERIEUR and SUPERIEUR',
);
/** What the referential does not list may still be known to the site: sent as given, with a hint. */
const NOT_LISTED = guess('a criterion or value the site’s referential does not list is sent as given');
/** Value formats production does not show for numbers, yes/no and dates. */
const VALUE_FORMATS = guess(
	'criterion values: numbers as numbers (text on searches), yes/no as true/false (1/0 on searches), dates as YYYY-MM-DD',
);
/** Criteria the referential cannot be read for: sent as typed, with a hint (actions/criteria.ts). */
export const UNREADABLE_REFERENTIAL = guess('criteria are sent as given when the site’s referential cannot be read');
/** What resolving criteria against the referential judges besides the rows' rules: docs/assumptions.md lists them. */
export const RESOLUTION_SOURCES: readonly RuleSource[] = [NOT_LISTED, VALUE_FORMATS, UNREADABLE_REFERENTIAL];
const ROW_NAMES_CRITERION = guard('a criterion row names its criterion');
const ROW_HAS_ONE_VALUE = guard('a criterion row takes one value');

/** A listing shows in the CRM only when this criterion has this code (docs/assumptions.md "Production evidence"). */
const LISTING_SHOWN = { xml: 'Statut', code: 'EnCours' };

/** Production's operators, by name as n8n lists options. */
const OPERATORS: INodePropertyOptions[] = [
	{ name: 'Contains', value: 'CONTIENT' },
	{ name: 'Equals', value: 'EGAL' },
	{ name: 'Less Than', value: 'INFERIEUR', description: 'At most (production: INFERIEUR)' },
	{ name: 'More Than', value: 'SUPERIEUR', description: 'At least (production: SUPERIEUR)' },
];
const OPERATOR_VALUES = OPERATORS.map((option) => String(option.value));

/** A field sent as one criterion of the site (version 1's Price, Rooms, Status…). */
export interface CriterionShortcut {
	/** The XML keys it may have on a site, tried in order (`NbPieces`, `NbPiece`). */
	keys: string[];
	/** On a search: how the value compares (`SUPERIEUR` for a minimum). */
	operator?: string;
	/** Option values and the codes or labels they may have on a site (`apartment` → `Appartement`). */
	codes?: Readonly<Record<string, string[]>>;
}

/** One criterion as the user gave it, not yet resolved against the site's referential. */
export interface CriterionRow {
	/** What problems and notices call it: `"Criteria" row 2`, `"Price"`. */
	label: string;
	/** The criterion as given: an XML key, a numeric id, a label. */
	id: unknown;
	/** For a field sent as a criterion: the keys it may have on a site. */
	candidates?: string[];
	operator?: string;
	value: unknown;
	/** For a field's option value: the codes or labels it stands for. */
	codes?: string[];
	/** Both Value and Value From List were given (refused). */
	twoValues?: boolean;
}

/** The descriptor of the rows: Criterion by label, Operator on searches, Value, and Value From List. */
function rowsProperty(spec: CriteriaSpec, description: string): INodeProperties {
	const product = spec.referential === 'product';
	const operator: INodeProperties[] = spec.operators
		? [
				{
					displayName: 'Operator',
					name: 'operator',
					type: 'options',
					options: OPERATORS,
					default: 'EGAL',
				},
			]
		: [];
	return {
		displayName: 'Criteria',
		name: 'criteria',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Criterion',
		description,
		options: [
			{
				displayName: 'Criterion',
				name: 'criterion',
				values: [
					{
						displayName: 'Criterion Name or ID',
						name: 'id',
						type: 'options',
						typeOptions: { loadOptionsMethod: product ? 'getProductCriteria' : 'getSearchRequestCriteria' },
						default: '',
						description:
							'The site’s criteria by label; the XML key (e.g. TypeBien) is sent. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					...operator,
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'A number, a date, true or false, or text; for a list criterion, a value’s code or label (or choose it below)',
					},
					{
						displayName: 'Value From List Name or ID',
						name: 'listValue',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getCriterionValues',
							loadOptionsDependsOn: ['&id'],
						},
						default: '',
						description:
							'For a list criterion (type, status…): its values by label; the code is sent. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
				],
			},
		],
	};
}

/** Rows of the form (or an expression's `[{id, value, operator?}]`) → criterion rows. */
function rowsConverter(spec: CriteriaSpec): Converter {
	return (value) => {
		if (isAbsent(value)) return ok(undefined);
		const entries = Array.isArray(value) ? value : entriesOf(value, 'criterion');
		const rows = entries.map((entry, index): CriterionRow => {
			const given = (typeof entry === 'object' && entry !== null ? entry : { id: entry }) as IDataObject;
			const fromList = isAbsent(given.listValue) ? undefined : given.listValue;
			return {
				label: `"Criteria" row ${index + 1}`,
				id: idValue(given.id),
				...(spec.operators ? { operator: isAbsent(given.operator) ? 'EGAL' : String(given.operator) } : {}),
				value: fromList ?? given.value,
				...(fromList !== undefined && !isAbsent(given.value) ? { twoValues: true } : {}),
			};
		});
		return ok(rows.length ? rows : undefined);
	};
}

/** A rule over the rows: each row that breaks it, named, in one message. */
function eachRow(source: RuleSource, problem: (row: CriterionRow) => string | undefined): Rule {
	return rule(source, (value) => {
		const found = (value as CriterionRow[]).flatMap((row) => {
			const message = problem(row);
			return message ? [`${row.label} ${message}`] : [];
		});
		return found.length ? `has ${found.join('; ')}` : undefined;
	});
}

const ROW_RULES: Rule[] = [
	eachRow(ROW_NAMES_CRITERION, (row) => (isAbsent(row.id) ? 'with no criterion' : undefined)),
	eachRow(ROW_HAS_ONE_VALUE, (row) =>
		row.twoValues ? 'with both a Value and a Value From List: keep one' : undefined,
	),
	eachRow(CRITERIA_MODEL, (row) =>
		row.operator === undefined || OPERATOR_VALUES.includes(row.operator)
			? undefined
			: `with the operator ${JSON.stringify(row.operator)}, not one of ${OPERATOR_VALUES.join(', ')}`,
	),
];

/**
 * The rows of one endpoint's criteria (the one factory for product create, update and search,
 * search requests and leads): Criterion chosen by label from the spec's referential, Operator where
 * the spec has one, and Value or Value From List.
 */
export function criteriaField(
	spec: CriteriaSpec,
	given: { placement?: FieldSpec['placement']; required?: RuleSource; description?: string } = {},
): FieldSpec {
	const description =
		given.description ??
		(spec.operators
			? 'Criteria of the site to match, e.g. type, price or rooms, each with how it compares'
			: 'Criteria of the site, e.g. type, price, rooms or status: chosen by label, list values by code');
	return {
		in: 'criteria',
		placement: given.placement ?? (given.required ? 'top' : 'collection'),
		required: given.required,
		convert: rowsConverter(spec),
		rules: ROW_RULES,
		property: rowsProperty(spec, description),
	};
}

/** A version 1 field that production keeps as a criterion of the site: sent as one. */
export function sentAsCriterion(field: FieldSpec, shortcut: CriterionShortcut): FieldSpec {
	return { ...field, in: 'criteria', key: `criteria.${shortcut.keys[0]}`, criterion: shortcut };
}

/** The rows one input gives: those of a Criteria field, or one for a field sent as a criterion. */
export function criterionRowsOf(field: FieldSpec, value: unknown): CriterionRow[] {
	const shortcut = field.criterion;
	if (!shortcut) return value as CriterionRow[];
	return [
		{
			label: `"${field.property.displayName}"`,
			id: shortcut.keys[0],
			candidates: shortcut.keys,
			...(shortcut.operator ? { operator: shortcut.operator } : {}),
			value,
			...(shortcut.codes?.[String(value)] ? { codes: shortcut.codes[String(value)] } : {}),
		},
	];
}

// ---- Resolving rows against the site's referential (pure; the reads are actions/criteria.ts's) ----

/** A criterion as the referential lists it; production's keys, read loosely. */
export type SiteCriterion = IDataObject;
/** A list criterion's value as `GET /criterias/product/{id}/values` lists it: `model` is its code. */
export type SiteValue = IDataObject;

/** Letters and digits only, lower case, accents dropped: `Nb Pièces` and `nbpieces` compare equal. */
function folded(value: unknown): string {
	return String(value ?? '')
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9]/g, '')
		.toLowerCase();
}

const xmlOf = (criterion: SiteCriterion) => (isAbsent(criterion.xml) ? undefined : String(criterion.xml));
/** A list value's code: production's `model`, else the value or its id. */
export const codeOf = (value: SiteValue) => String(value.model ?? value.value ?? value.id);

/** What is sent for a criterion: its XML key when it has one, else its id. */
export const wireIdOf = (criterion: SiteCriterion) => xmlOf(criterion) ?? (criterion.id as string | number);

/** Whether the criterion's values are a list of codes. */
export const isListCriterion = (criterion: SiteCriterion) => ['UNIQUE', 'MULTIPLE'].includes(typeOf(criterion));

const typeOf = (criterion: SiteCriterion | undefined) => String(criterion?.type ?? '').toUpperCase();

/** The criterion a row names, and how it was recognised when not by its key or id. */
export function findCriterion(
	criteria: readonly SiteCriterion[],
	row: CriterionRow,
): { criterion?: SiteCriterion; notice?: string } {
	for (const key of row.candidates ?? []) {
		const criterion = criteria.find((candidate) => folded(xmlOf(candidate)) === folded(key));
		if (criterion) return { criterion };
	}
	const given = String(row.id ?? '').trim();
	const exact = criteria.find((candidate) => xmlOf(candidate) === given || String(candidate.id) === given);
	if (exact) return { criterion: exact };
	const byKey = criteria.find((candidate) => folded(xmlOf(candidate)) === folded(given));
	if (byKey) return { criterion: byKey };
	const byLabel = criteria.find((candidate) => folded(candidate.label) === folded(given) && folded(given) !== '');
	if (byLabel)
		return {
			criterion: byLabel,
			notice: `${row.label}: "${given}" is the label of the criterion ${wireIdOf(byLabel)}`,
		};
	return {};
}

/** A resolved row: what is sent, and what the user is told of it. */
export interface ResolvedRow {
	wire: IDataObject;
	notices: string[];
	hints: Problem[];
}

/** The entries of a MULTIPLE value: an array, JSON text of one, or comma-separated codes. */
function entriesOfValue(value: unknown, multiple: boolean): unknown[] {
	if (Array.isArray(value)) return value;
	if (!multiple || typeof value !== 'string') return [value];
	const parsed = value.trim().startsWith('[') ? parseJson(value) : undefined;
	if (parsed && 'value' in parsed && Array.isArray(parsed.value)) return parsed.value;
	return value.split(',').map((entry) => entry.trim());
}

/** One value of a list criterion → its code: a code as is; a label or a value id mapped, with a notice. */
function codeFor(
	row: CriterionRow,
	criterion: SiteCriterion,
	values: readonly SiteValue[],
	given: unknown,
): { code: unknown; notice?: string; unknown?: string } {
	const text = String(given ?? '').trim();
	const exact = values.find((value) => codeOf(value) === text);
	if (exact) return { code: codeOf(exact) };
	const key = wireIdOf(criterion);
	for (const candidate of [...(row.codes ?? []), text]) {
		const match =
			values.find((value) => folded(codeOf(value)) === folded(candidate)) ??
			values.find((value) => folded(value.label) === folded(candidate));
		if (match && folded(candidate) !== '')
			return { code: codeOf(match), notice: `${row.label}: "${text}" is sent as ${key}'s code ${codeOf(match)}` };
	}
	const byId = /^\d+$/.test(text) ? values.find((value) => String(value.id) === text) : undefined;
	if (byId)
		return {
			code: codeOf(byId),
			notice: `${row.label}: ${text} is the id of ${key}'s value ${codeOf(byId)}; production takes the code, so it is sent`,
		};
	const codes = values.map(codeOf).join(', ');
	return { code: given, unknown: `"${text}" is not a value the site lists for ${key} (${codes})` };
}

const TRUE = ['true', '1', 'yes', 'oui', 'y', 'o'];
const FALSE = ['false', '0', 'no', 'non', 'n'];

/** A number, yes/no or date value in the format of its criterion's type; anything else as given. */
function typedValue(type: string, given: unknown, textValues: boolean): { value: unknown; problem?: string } {
	const text = String(given ?? '').trim();
	if (type === 'NUMBER') {
		const number = Number(text.replace(/\s/g, '').replace(',', '.'));
		if (text === '' || !Number.isFinite(number)) return { value: given, problem: 'is not a number' };
		return { value: textValues ? String(number) : number };
	}
	if (type === 'FLAG') {
		const yes = TRUE.includes(text.toLowerCase());
		if (!yes && !FALSE.includes(text.toLowerCase())) return { value: given, problem: 'is not true or false' };
		return { value: textValues ? (yes ? '1' : '0') : yes };
	}
	if (type === 'DATE') {
		const date = given instanceof Date ? DateTime.fromJSDate(given) : DateTime.fromISO(text, { setZone: true });
		return date.isValid ? { value: date.toFormat('yyyy-MM-dd') } : { value: given, problem: 'is not a date' };
	}
	return { value: textValues || typeof given !== 'string' ? String(given ?? '') : given };
}

/** A value written with no referential to go by: JSON where it parses (`250000`, `true`, `[2, 3]`), else text. */
function valueAsTyped(given: unknown, textValues: boolean): unknown {
	if (typeof given !== 'string') return textValues ? String(given ?? '') : given;
	if (textValues) return given;
	const parsed = parseJson(given);
	return 'value' in parsed ? parsed.value : given;
}

function hint(row: CriterionRow, message: string, source: RuleSource = NOT_LISTED): Problem {
	return { field: row.label, message, source };
}

/**
 * One row as production takes it, given the criterion it names (none: not in the referential) and,
 * for a list criterion, its values: the XML key, the operator, the value in the criterion's format.
 */
export function resolveRow(
	spec: CriteriaSpec,
	row: CriterionRow,
	found: { criterion?: SiteCriterion; notice?: string },
	values?: readonly SiteValue[],
): ResolvedRow {
	const notices = found.notice ? [found.notice] : [];
	const hints: Problem[] = [];
	const { criterion } = found;
	const operator = row.operator === undefined ? {} : { operator: row.operator };
	if (!criterion) {
		const shown = String(row.candidates?.length ? row.candidates.join(' or ') : row.id);
		hints.push(hint(row, `names ${shown}, which is not a criterion the site lists`));
		const value = valueAsTyped(row.value, spec.textValues) as IDataObject[string];
		return { wire: { id: row.id as string, ...operator, value }, notices, hints };
	}
	const id = wireIdOf(criterion);
	if (criterion.is_activated === false) hints.push(hint(row, `names ${id}, which is not active on this site`));
	const type = typeOf(criterion);
	let value: unknown;
	if (isListCriterion(criterion) && values?.length && row.operator !== 'CONTIENT') {
		const multiple = type === 'MULTIPLE';
		const codes = entriesOfValue(row.value, multiple).map((entry) => codeFor(row, criterion, values, entry));
		for (const code of codes) {
			if (code.notice) notices.push(code.notice);
			if (code.unknown) hints.push(hint(row, code.unknown));
		}
		const wire = codes.map((code) => code.code);
		value = multiple && !spec.textValues ? wire : wire.map((code) => String(code)).join(',');
	} else if (['NUMBER', 'FLAG', 'DATE'].includes(type) && row.operator !== 'CONTIENT') {
		const typed = typedValue(type, row.value, spec.textValues);
		if (typed.problem)
			hints.push(
				hint(row, `${JSON.stringify(row.value)} ${typed.problem}, which ${id} (${type}) takes`, VALUE_FORMATS),
			);
		value = typed.value;
	} else {
		value = type ? typedValue(type, row.value, spec.textValues).value : valueAsTyped(row.value, spec.textValues);
	}
	return { wire: { id, ...operator, value: value as IDataObject[string] }, notices, hints };
}

/**
 * A write names each criterion once: where two inputs give the same one (version 1's Property Type and
 * a TypeBien row), the later is sent, with a notice, and what the other would have said is dropped.
 * Searches keep every row (a price at least and at most).
 */
export function oncePerCriterion(
	spec: CriteriaSpec,
	rows: readonly CriterionRow[],
	resolved: readonly ResolvedRow[],
): { kept: ResolvedRow[]; notices: string[] } {
	if (spec.operators) return { kept: [...resolved], notices: [] };
	const lastOf = new Map(resolved.map((row, index) => [folded(row.wire.id), index]));
	const notices = resolved.flatMap((row, index) => {
		const last = lastOf.get(folded(row.wire.id))!;
		return last === index
			? []
			: [
					`${rows[index].label} and ${rows[last].label} both give ${String(row.wire.id)}: ${rows[last].label}'s value is sent`,
				];
	});
	return { kept: resolved.filter((row, index) => lastOf.get(folded(row.wire.id)) === index), notices };
}

/**
 * Where the rows go: after the list Extra Body Fields give at the spec's key (never replacing it),
 * or, for buyer leads, as one more search request of that list.
 */
export function placeCriteria(spec: CriteriaSpec, body: IDataObject, rows: IDataObject[]): IDataObject {
	const result: IDataObject = { ...body };
	const keys = spec.key.split('.');
	let parent = result;
	for (const key of keys.slice(0, -1)) {
		const nested = parent[key];
		parent[key] = typeof nested === 'object' && nested !== null && !Array.isArray(nested) ? { ...nested } : {};
		parent = parent[key] as IDataObject;
	}
	const last = keys[keys.length - 1];
	const existing = Array.isArray(parent[last]) ? (parent[last] as IDataObject[]) : [];
	parent[last] = spec.asSearchRequest ? [...existing, { criteria: rows }] : [...existing, ...rows];
	return result;
}

/** A new listing's status: a notice unless it is the one under which listings show in the CRM. */
export function listingShownNotice(spec: CriteriaSpec, rows: IDataObject[]): string | undefined {
	if (!spec.newListing) return undefined;
	const status = rows.find((row) => folded(row.id) === folded(LISTING_SHOWN.xml));
	if (status && String(status.value) === LISTING_SHOWN.code) return undefined;
	const now = status
		? `its ${LISTING_SHOWN.xml} is ${String(status.value)}`
		: `no ${LISTING_SHOWN.xml} criterion was given`;
	return `The new listing will not show in the CRM: a listing shows there only when its ${LISTING_SHOWN.xml} criterion is ${LISTING_SHOWN.code}, and ${now}`;
}
