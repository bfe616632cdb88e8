import type { IDataObject } from 'n8n-workflow';

import { keyOf, labelOf } from './fields';
import { itemOptionsOf, JSON_FIELD, PAGING } from './nodeOptions';
import { blocks, eachOneOf, guard, isEmpty, oneOf, pathSegmentProblem, rule } from './rules';
import type { Converted, Endpoint, FieldSpec, PreparedRequest, Problem, Rule, RuleSource } from './types';

/**
 * Validation, in one pure call: why an item's input is refused or doubted, and on whose authority.
 * Every rule lives in the catalogue as data (a field's `required`, `rules` and `values`, its parts',
 * an endpoint's `checks`, the node options of catalogue/nodeOptions.ts); the node's own guards are
 * the few below. Problems from the spec and the guards block the request; guesses become hints.
 */

/** Every input of one item as converted, by the field it was read for: what validation judges. */
export type Inputs = ReadonlyMap<FieldSpec, Converted>;

const PATH_SEGMENT = guard('an empty path value, "/", "\\", "." or ".." would address another endpoint');
const UPDATE_CHANGES = guard('an update that names no field would change nothing');

/** Whether an input has a value to send. */
const given = (converted: Converted | undefined) =>
	converted !== undefined && 'value' in converted && !isEmpty(converted.value);

/** Problems of one value against the rules of a field, labelled with the field. */
function valueProblems(field: string, rules: readonly Rule[], value: unknown): Problem[] {
	return rules.flatMap((candidate) => {
		const message = candidate.test(value);
		return message === undefined ? [] : [{ field, message, source: candidate.source }];
	});
}

/** The option values of an `options` or `multiOptions` property, as the rule over them needs. */
function optionValues(field: FieldSpec): string[] {
	return (field.property.options ?? []).flatMap((option) => ('value' in option ? [String(option.value)] : []));
}

/** The field's own rules, plus the one over its option values and, on a path value, the segment guard. */
function rulesOf(field: FieldSpec): Rule[] {
	const rules = [...(field.rules ?? [])];
	if (field.values) {
		const values = optionValues(field);
		const test = field.property.type === 'multiOptions' ? eachOneOf(values) : oneOf(values);
		rules.push(rule(field.values, test));
	}
	if (field.in === 'path') {
		rules.push(rule(PATH_SEGMENT, pathSegmentProblem));
	}
	return rules;
}

/** Why a field must have a value: its own reason; a path value always (the URL needs it). */
function requiredSource(field: FieldSpec): RuleSource | undefined {
	return field.in === 'path' ? PATH_SEGMENT : field.required;
}

function absent(field: FieldSpec, label: string): Problem[] {
	const required = requiredSource(field);
	if (!required) return [];
	const message = blocks(required) ? 'is required' : 'is empty, though the API probably needs it';
	return [{ field: label, message, source: required }];
}

/** A value as the user typed it into a field: its requirement, its rules, and those of its parts. */
function inputProblems(field: FieldSpec, converted: Converted, label: string): Problem[] {
	if ('problem' in converted)
		return [{ field: label, message: converted.problem, source: converted.source ?? JSON_FIELD }];
	const notes = (converted.notes ?? []).map((note) => ({ field: label, ...note }));
	if (isEmpty(converted.value)) return [...notes, ...absent(field, label)];
	const parts = [...(converted.parts ?? [])].flatMap(([part, result]) =>
		inputProblems(part, result, labelOf(part, field)),
	);
	return [...notes, ...valueProblems(label, rulesOf(field), converted.value), ...parts];
}

/** A value given in the extra JSON under a field's key: the field's rules, and its parts' when it is an object. */
function extraValueProblems(
	field: FieldSpec,
	value: unknown,
	key: string,
	labelAt: (key: string) => string,
): Problem[] {
	const own = valueProblems(labelAt(key), rulesOf(field), value);
	if (!field.parts || typeof value !== 'object' || value === null || Array.isArray(value)) return own;
	const parts = field.parts.flatMap((part) => {
		const partKey = `${key}.${keyOf(part)}`;
		const partValue = (value as IDataObject)[keyOf(part)];
		return isEmpty(partValue)
			? absent(part, labelAt(partKey))
			: valueProblems(labelAt(partKey), rulesOf(part), partValue);
	});
	return [...own, ...parts];
}

/** Value at a dotted key (`customer.email`), as the request nests it. */
function getDeep(source: IDataObject, dottedKey: string): unknown {
	return dottedKey
		.split('.')
		.reduce<unknown>(
			(node, key) =>
				typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as IDataObject)[key] : undefined,
			source,
		);
}

/** A value for a typed key given only in the extra body obeys that field's rules. */
function extraBodyProblems(endpoint: Endpoint, inputs: Inputs): Problem[] {
	const option = itemOptionsOf(endpoint).extraBody;
	const extra = option && inputs.get(option);
	if (!extra || !('value' in extra) || typeof extra.value !== 'object' || extra.value === null) return [];
	// Only the fields of the item's form: a field of another node version has no input here.
	return endpoint.fields
		.filter((field) => field.in === 'body' && inputs.has(field))
		.flatMap((field) => {
			if (given(inputs.get(field))) return [];
			const key = keyOf(field);
			const value = getDeep(extra.value as IDataObject, key);
			const labelAt = (at: string) => `"${option.property.displayName}" (${at})`;
			return isEmpty(value) ? [] : extraValueProblems(field, value, key, labelAt);
		});
}

/**
 * A `per_page` in the extra query or body of a list is the page size asked (actions/prepareRequest.ts
 * honours it): it obeys the Page Size rules, and may not contradict a Page Size also chosen.
 */
function extraPageSizeProblems(endpoint: Endpoint, inputs: Inputs): Problem[] {
	const { pageSize, extraQuery, extraBody } = itemOptionsOf(endpoint);
	if (!pageSize) return [];
	const chosen = inputs.get(pageSize);
	const key = keyOf(pageSize);
	return [extraQuery, extraBody].flatMap((option) => {
		const extra = option && inputs.get(option);
		const value = extra && 'value' in extra ? (extra.value as IDataObject | undefined)?.[key] : undefined;
		if (!option || isEmpty(value)) return [];
		const label = `"${option.property.displayName}" (${key})`;
		if (given(chosen) && String((chosen as { value: unknown }).value) !== String(value)) {
			const message = `sets ${key} to ${JSON.stringify(value)} while "${pageSize.property.displayName}" sets ${JSON.stringify((chosen as { value: unknown }).value)}: keep one`;
			return [{ field: label, message, source: PAGING }];
		}
		return valueProblems(label, rulesOf(pageSize), value);
	});
}

/** Whether the user typed something the node could not read: its own problem says so, and nothing else should. */
const unreadable = (converted: Converted | undefined) => converted !== undefined && 'problem' in converted;

/**
 * Whether the user gave a value to send in the body: a typed body field, or a key of the extra body
 * (what derive adds is not a change). A value typed but unreadable counts: it has its own problem.
 */
function namesAChange(endpoint: Endpoint, inputs: Inputs): boolean {
	const extra = itemOptionsOf(endpoint).extraBody;
	const extraBody = extra && inputs.get(extra);
	const extraKeys = given(extraBody) && Object.keys((extraBody as { value: object }).value).length > 0;
	const typed = (converted: Converted | undefined) => given(converted) || unreadable(converted);
	return (
		extraKeys ||
		unreadable(extraBody) ||
		endpoint.fields.some((field) => (field.in === 'body' || field.in === 'criteria') && typed(inputs.get(field)))
	);
}

/**
 * Every problem of one item: each input (an endpoint's fields and the node options read with them),
 * then, given the request as placed and derived, the typed keys given in the extra body, an update
 * that changes nothing, the endpoint's rules across fields, and what resolving its criteria against
 * the site's found. Without a request (options read once per run, the trigger's), only the inputs.
 */
export function problemsOf(endpoint: Endpoint, request: PreparedRequest | undefined, inputs: Inputs): Problem[] {
	const problems = [...inputs].flatMap(([field, converted]) => inputProblems(field, converted, labelOf(field)));
	if (!request) return problems;
	problems.push(...extraBodyProblems(endpoint, inputs), ...extraPageSizeProblems(endpoint, inputs));
	if ((endpoint.method === 'PATCH' || endpoint.method === 'PUT') && !namesAChange(endpoint, inputs)) {
		problems.push({
			field: '"Additional Fields"',
			message: 'names nothing to change: set at least one field',
			source: UPDATE_CHANGES,
		});
	}
	for (const candidate of endpoint.checks ?? []) {
		problems.push(...candidate.test(request).map((found) => ({ ...found, source: candidate.source })));
	}
	return [...problems, ...(request.criteriaProblems ?? [])];
}
