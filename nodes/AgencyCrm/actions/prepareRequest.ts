import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import { parseJson } from '../catalogue/convert';
import { EXTRA_BODY, EXTRA_QUERY, extrasGroupOf, optionalGroupOf, takesBody } from '../catalogue/describe';
import { keyOf, maxPageSizeOf } from '../catalogue/fields';
import {
	InputError,
	blocks,
	guard,
	integer,
	isEmpty,
	isObject,
	oneOf,
	eachOneOf,
	problemsOf,
	problemsOfCheck,
	rule,
} from '../catalogue/rules';
import type { Endpoint, FieldSpec, FileValue, PreparedRequest, Problem, Rule, RuleSource } from '../catalogue/types';

/**
 * Turns one item's parameters into the exact request of an endpoint, in four pure steps: read and
 * convert each field, lay the typed fields over the extra JSON, derive the values that follow from
 * others, and check. Problems whose source blocks (the spec, or a request the node could not form)
 * throw an InputError naming every field and rule, before any request; guesses become hints. No I/O
 * happens here except reading the item's binary data for uploads.
 */

const PATH_SEGMENT = guard('an empty path value, "." or ".." would address another endpoint');
const JSON_FIELD = guard('the request carries JSON');
const UPDATE_CHANGES = guard('an update that names no field would change nothing');
const PAGING = guard('the node pages the results itself');

function label(field: FieldSpec): string {
	return `"${field.property.displayName}" (${keyOf(field)})`;
}

/** The option values of an `options` or `multiOptions` property, as the rule over them needs. */
function optionValues(field: FieldSpec): string[] {
	return (field.property.options ?? []).flatMap((option) => ('value' in option ? [String(option.value)] : []));
}

/** The field's own rules, plus the one over its option values when the field declares their authority. */
function rulesOf(field: FieldSpec): Rule[] {
	const rules = [...(field.rules ?? [])];
	if (field.values) {
		const values = optionValues(field);
		const test = field.property.type === 'multiOptions' ? eachOneOf(values) : oneOf(values);
		rules.push(rule(field.values, test));
	}
	if (field.in === 'path') {
		rules.push(
			rule(PATH_SEGMENT, (value) => (['.', '..'].includes(String(value).trim()) ? 'cannot be "." or ".."' : undefined)),
		);
	}
	return rules;
}

/** Why a field must have a value: its own reason; a path value always (the URL needs it). */
function requiredSource(field: FieldSpec): RuleSource | undefined {
	return field.in === 'path' ? PATH_SEGMENT : field.required;
}

/** Sets `a.b` keys as nested objects (lead bodies nest the customer and the product). */
function setDeep(target: IDataObject, dottedKey: string, value: unknown) {
	const keys = dottedKey.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as IDataObject;
	node[keys[keys.length - 1]] = value as IDataObject;
}

/** Value at a dotted key (`customer.email`), as placed by setDeep. */
function getDeep(source: IDataObject, dottedKey: string): unknown {
	return dottedKey.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), source);
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The extra JSON with the typed values laid over it, nested objects merged (a lead's `customer`). */
function overlay(extra: IDataObject, typed: IDataObject): IDataObject {
	const result = { ...extra };
	for (const [key, value] of Object.entries(typed)) {
		const base = result[key];
		result[key] = isPlainObject(base) && isPlainObject(value) ? overlay(base, value) : value;
	}
	return result;
}

/** Fills `{placeholders}` with URL-encoded values. */
function fillPath(path: string, params: IDataObject): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

async function readFile(context: IExecuteFunctions, itemIndex: number, propertyName: unknown): Promise<FileValue> {
	const name = String(propertyName);
	const binary = context.helpers.assertBinaryData(itemIndex, name);
	return {
		fileName: binary.fileName ?? name,
		mimeType: binary.mimeType,
		data: await context.helpers.getBinaryDataBuffer(itemIndex, name),
	};
}

/** The parsed JSON object of an escape hatch; a problem when it is not one. */
function extraJson(collection: IDataObject, name: string, field: string, problems: Problem[]): IDataObject {
	const text = collection[name];
	if (isEmpty(text)) return {};
	const parsed = typeof text === 'string' ? parseJson(text) : { value: text };
	const message = 'problem' in parsed ? parsed.problem : isObject(parsed.value);
	if (message) {
		problems.push({ field, message, source: JSON_FIELD });
		return {};
	}
	return (parsed as { value: IDataObject }).value;
}

/** Return All / Limit, Page Size and Pagination Mode of a paginated operation. */
function readPaging(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	options: IDataObject,
	request: PreparedRequest,
	problems: Problem[],
) {
	const report = (field: string, source: RuleSource, message: string | undefined) => {
		if (message) problems.push({ field, message, source });
	};
	if (!context.getNodeParameter('returnAll', itemIndex, false)) {
		const limit = context.getNodeParameter('limit', itemIndex, 50);
		report('"Limit"', PAGING, isEmpty(limit) ? 'is required' : integer({ min: 1 })(limit));
		request.limit = Number(limit);
	}
	if (!isEmpty(options.perPage)) {
		const largest = maxPageSizeOf(endpoint);
		const notASize = integer({ min: 1 })(options.perPage);
		report('"Page Size" (per_page)', PAGING, notASize);
		// Only a size is compared with the largest page: text would be reported twice as "not a whole number".
		if (notASize === undefined) {
			report('"Page Size" (per_page)', largest.source, integer({ max: largest.size })(options.perPage));
		}
		request.pageSize = Number(options.perPage);
	}
	if (endpoint.paginationModes && !isEmpty(options.paginationMode)) {
		report('"Pagination Mode"', PAGING, oneOf(endpoint.paginationModes)(options.paginationMode));
		request.pagination = options.paginationMode as PaginationMode;
	}
}

/**
 * Reads the item's parameters for one endpoint and produces the exact request, or throws an
 * InputError naming every field and rule that blocks it.
 */
export async function prepareRequest(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
): Promise<PreparedRequest> {
	const env = { timezone: context.getTimezone() };
	const collection = (name: string) => context.getNodeParameter(name, itemIndex, {}) as IDataObject;
	const optional = collection(optionalGroupOf(endpoint));
	const extras = extrasGroupOf(endpoint) === optionalGroupOf(endpoint) ? optional : collection(extrasGroupOf(endpoint));
	const request: PreparedRequest = {
		method: endpoint.method,
		path: endpoint.path,
		pathParams: {},
		qs: {},
		body: {},
		files: [],
		hints: [],
	};
	const problems: Problem[] = [];

	// 1. Each field: read, convert, check, place.
	for (const field of endpoint.fields) {
		const name = field.property.name;
		const raw =
			field.placement === 'top'
				? context.getNodeParameter(name, itemIndex, field.property.default, { extractValue: true })
				: optional[name];
		let value: unknown;
		if (field.in === 'file') {
			if (isEmpty(raw)) value = undefined;
			else {
				try {
					value = await readFile(context, itemIndex, raw);
				} catch {
					problems.push({
						field: label(field),
						message: `names the binary field "${String(raw)}", which this item does not have`,
						source: guard('an upload needs the file'),
					});
					continue;
				}
			}
		} else {
			const converted = field.convert ? field.convert(raw, env) : { value: raw };
			if ('problem' in converted) {
				problems.push({ field: converted.field ?? label(field), message: converted.problem, source: JSON_FIELD });
				continue;
			}
			value = converted.value;
		}
		if (isEmpty(value)) {
			const required = requiredSource(field);
			if (required) {
				const message = blocks(required) ? 'is required' : 'is empty, though the API probably needs it';
				problems.push({ field: label(field), message, source: required });
			}
			continue;
		}
		problems.push(...problemsOf(label(field), rulesOf(field), value));
		const key = keyOf(field);
		if (field.in === 'path') request.pathParams[name] = value as IDataObject[string];
		else if (field.in === 'query') request.qs[key] = value as IDataObject[string];
		else if (field.in === 'file') request.files.push({ part: key, file: value as FileValue });
		else setDeep(request.body, key, value);
	}

	// 2. The escape hatches, under the typed values; a value for a typed key obeys that field's rules.
	request.qs = { ...extraJson(extras, EXTRA_QUERY, '"Extra Query Parameters (JSON)"', problems), ...request.qs };
	if (takesBody(endpoint)) {
		const extraBody = extraJson(extras, EXTRA_BODY, '"Extra Body Fields (JSON)"', problems);
		for (const field of endpoint.fields.filter((candidate) => candidate.in === 'body')) {
			const key = keyOf(field);
			const fromExtra = getDeep(extraBody, key);
			if (getDeep(request.body, key) === undefined && !isEmpty(fromExtra)) {
				problems.push(...problemsOf(`"Extra Body Fields (JSON)" (${key})`, rulesOf(field), fromExtra));
			}
		}
		request.body = overlay(extraBody, request.body);
	}
	if ((endpoint.method === 'PATCH' || endpoint.method === 'PUT') && !Object.keys(request.body).length) {
		problems.push({
			field: '"Additional Fields"',
			message: 'names nothing to change: set at least one field',
			source: UPDATE_CHANGES,
		});
	}
	if (endpoint.pagination) readPaging(context, endpoint, itemIndex, extras, request, problems);

	// 3. Values that follow from others; 4. rules across fields.
	const derived = endpoint.derive ? endpoint.derive(request) : request;
	for (const candidate of endpoint.checks ?? []) problems.push(...problemsOfCheck(candidate, derived));

	const blocking = problems.filter((problem) => blocks(problem.source));
	if (blocking.length) throw new InputError(blocking);
	return {
		...derived,
		path: fillPath(endpoint.path, derived.pathParams),
		hints: problems.filter((problem) => !blocks(problem.source)),
	};
}
