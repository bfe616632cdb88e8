import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { entriesOf, idValue, ok } from '../convert';
import { evidence, guard, isAbsent, rule } from '../rules';
import type { Converter, CriteriaSpec, CriterionShortcut, FieldSpec, Rule, RuleSource } from '../types';

/**
 * Declaring criteria, as each site defines them (docs/assumptions.md "Production evidence"): a
 * property's price, type, surface, rooms, status and town are criteria of the site, named by its XML
 * key (`TypeBien`, `NbPieces` on one site and `NbPiece` on another) or numeric id; a list criterion's
 * value is its `model` code (`Appartement`, never `1`); searches add an operator. How each endpoint's
 * criteria travel, and the one factory of the rows every endpoint that writes or filters by criteria
 * offers. Resolving them against the site's referential is resolve.ts's, placing them wire.ts's.
 */

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
const CRITERIA_MODEL = evidence(
	'criteria: the site’s XML keys or numeric ids, list values by their model code, search operators EGAL, CONTIENT, INFERIEUR and SUPERIEUR',
);
const ROW_NAMES_CRITERION = guard('a criterion row names its criterion');
const ROW_HAS_ONE_VALUE = guard('a criterion row takes one value');

/** Production's operators, by name as n8n lists options. */
const OPERATORS: INodePropertyOptions[] = [
	{ name: 'Contains', value: 'CONTIENT' },
	{ name: 'Equals', value: 'EGAL' },
	{ name: 'Less Than', value: 'INFERIEUR', description: 'At most (production: INFERIEUR)' },
	{ name: 'More Than', value: 'SUPERIEUR', description: 'At least (production: SUPERIEUR)' },
];
const OPERATOR_VALUES = OPERATORS.map((option) => String(option.value));

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

/** A search row's operator: Equals unless chosen. */
const OPERATOR: INodeProperties = {
	displayName: 'Operator',
	name: 'operator',
	type: 'options',
	options: OPERATORS,
	default: 'EGAL',
};

/** The descriptor of the rows: Criterion by label, Operator on searches, Value, and Value From List. */
function rowsProperty(spec: CriteriaSpec, description: string): INodeProperties {
	const product = spec.referential === 'product';
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
					...(spec.operators ? [OPERATOR] : []),
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
