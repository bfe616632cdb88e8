import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { parseJson } from '../convert';
import { guess } from '../rules';
import type { CriteriaSpec, FieldSpec, Problem, RuleSource } from '../types';
import type { CriterionRow } from './field';
import type { SiteCriterion, SiteValue } from './site';
import { codeOf, folded, isListCriterion, typeOf, wireIdOf } from './site';

/**
 * Rows resolved against the site's referential (pure; the run reads it, actions/siteCriteria.ts): the XML
 * key of the criterion a row names, a list value's code, numbers, yes/no and dates in their criterion's
 * format; what the site does not list is sent as given, with a hint.
 */

/** What the referential does not list may still be known to the site: sent as given, with a hint. */
const NOT_LISTED = guess('a criterion or value the site’s referential does not list is sent as given');
/** Value formats production does not show for numbers, yes/no and dates. */
const VALUE_FORMATS = guess(
	'criterion values: numbers as numbers (text on searches), yes/no as true/false (1/0 on searches), dates as YYYY-MM-DD',
);
/** Criteria the referential cannot be read for: sent as typed, with a hint. */
const UNREADABLE_REFERENTIAL = guess('criteria are sent as given when the site’s referential cannot be read');
/** What resolving criteria against the referential judges besides the rows' rules: docs/assumptions.md lists them. */
export const RESOLUTION_SOURCES: readonly RuleSource[] = [NOT_LISTED, VALUE_FORMATS, UNREADABLE_REFERENTIAL];

/** Why a write's or a search's criteria went as typed: the referential they are resolved against could not be read. */
export function unreadableReferential(reason: string): Problem {
	return {
		field: '"Criteria"',
		message: `could not be checked against the site's criteria, which could not be read (${reason})`,
		source: UNREADABLE_REFERENTIAL,
	};
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
