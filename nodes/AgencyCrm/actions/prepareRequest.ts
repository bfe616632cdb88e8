import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import { criterionRowsOf } from '../catalogue/criteria';
import { convertField, keyOf } from '../catalogue/fields';
import { itemOptionsOf } from '../catalogue/nodeOptions';
import { fillPath } from '../catalogue/requests';
import { InputError, blocks, guard, isEmpty } from '../catalogue/rules';
import type {
	Converted,
	ConvertEnv,
	Endpoint,
	FieldSpec,
	FileValue,
	Inputs,
	PreparedRequest,
} from '../catalogue/types';
import { problemsOf } from '../catalogue/validate';
import { parameterReader } from './parameters';

/**
 * Turns one item's parameters into the exact request of an endpoint: read each input, convert it,
 * place the typed values over the extra JSON, derive the values that follow from others, and
 * validate once (catalogue/validate.ts). Problems whose source blocks (the spec, or a request the
 * node could not form) throw an InputError naming every field and rule, before any request; guesses
 * become hints. No I/O happens here except reading the item's binary data for uploads.
 */

const UPLOAD_NEEDS_FILE = guard('an upload needs the file');

/** Sets `a.b` keys as nested objects (lead bodies nest the customer and the product). */
function setDeep(target: IDataObject, dottedKey: string, value: unknown) {
	const keys = dottedKey.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as IDataObject;
	node[keys[keys.length - 1]] = value as IDataObject;
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

async function readFile(context: IExecuteFunctions, itemIndex: number, propertyName: unknown): Promise<Converted> {
	const name = String(propertyName);
	try {
		const binary = context.helpers.assertBinaryData(itemIndex, name);
		const file: FileValue = {
			fileName: binary.fileName ?? name,
			mimeType: binary.mimeType,
			data: await context.helpers.getBinaryDataBuffer(itemIndex, name),
		};
		return { value: file };
	} catch {
		return { problem: `names the binary field "${name}", which this item does not have`, source: UPLOAD_NEEDS_FILE };
	}
}

/** 1-2. Every input of the item, read and converted: the endpoint's fields, then the node options read with them. */
async function readInputs(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	env: ConvertEnv,
): Promise<Map<FieldSpec, Converted>> {
	const read = parameterReader(context, endpoint, itemIndex);
	const inputs = new Map<FieldSpec, Converted>();
	for (const field of endpoint.fields) {
		const value = read(field);
		if (field.in !== 'file') inputs.set(field, convertField(field, value, env));
		else inputs.set(field, isEmpty(value) ? { value: undefined } : await readFile(context, itemIndex, value));
	}
	const options = itemOptionsOf(endpoint);
	const returnAll = options.returnAll && read(options.returnAll);
	for (const option of [options.extraQuery, options.extraBody, options.pageSize, options.paginationMode]) {
		if (option) inputs.set(option, convertField(option, read(option), env));
	}
	if (options.limit && !returnAll) inputs.set(options.limit, convertField(options.limit, read(options.limit), env));
	return inputs;
}

/** The converted value of an input, when it has one. */
function valueOf(inputs: Inputs, field: FieldSpec | undefined): unknown {
	const converted = field && inputs.get(field);
	return converted && 'value' in converted && !isEmpty(converted.value) ? converted.value : undefined;
}

/**
 * A `per_page` given in the extra query or body of a list: the page size asked, moved out of the
 * extras because the node sends `per_page` itself on every page, where the list takes it. One that
 * contradicts Page Size is refused before sending (catalogue/validate.ts), never replaced.
 */
function takeExtraPageSize(request: PreparedRequest): unknown {
	const given = request.qs.per_page ?? request.body.per_page;
	delete request.qs.per_page;
	delete request.body.per_page;
	return isEmpty(given) ? undefined : given;
}

/**
 * The extra body with the values under the keys of fields that convert them there too
 * (`FieldSpec.convertsExtraBody`: spec integers given as text go as numbers, typed or not).
 */
function convertedExtraBody(endpoint: Endpoint, extraBody: IDataObject, env: ConvertEnv): IDataObject {
	const converted = { ...extraBody };
	for (const field of endpoint.fields) {
		const key = keyOf(field);
		if (!field.convertsExtraBody || !field.convert || isEmpty(converted[key])) continue;
		const result = field.convert(converted[key], env);
		if ('value' in result) converted[key] = result.value as IDataObject[string];
	}
	return converted;
}

/** 3. The typed values in their places, over the extra JSON; the paging the user chose. */
function place(endpoint: Endpoint, inputs: Inputs, env: ConvertEnv): PreparedRequest {
	const request: PreparedRequest = {
		method: endpoint.method,
		path: endpoint.path,
		pathParams: {},
		qs: {},
		body: {},
		files: [],
		hints: [],
	};
	for (const field of endpoint.fields) {
		const value = valueOf(inputs, field);
		if (value === undefined) continue;
		const key = keyOf(field);
		if (field.in === 'path') request.pathParams[field.property.name] = value as IDataObject[string];
		else if (field.in === 'query') request.qs[key] = value as IDataObject[string];
		else if (field.in === 'file') request.files.push({ part: key, file: value as FileValue });
		else if (field.in === 'criteria')
			request.criteria = [...(request.criteria ?? []), ...criterionRowsOf(field, value)];
		else setDeep(request.body, key, value);
	}
	const options = itemOptionsOf(endpoint);
	const extraQuery = valueOf(inputs, options.extraQuery);
	if (isPlainObject(extraQuery)) request.qs = { ...extraQuery, ...request.qs };
	const extraBody = valueOf(inputs, options.extraBody);
	if (isPlainObject(extraBody)) request.body = overlay(convertedExtraBody(endpoint, extraBody, env), request.body);
	const limit = valueOf(inputs, options.limit);
	const pageSize = valueOf(inputs, options.pageSize) ?? (options.pageSize && takeExtraPageSize(request));
	const mode = valueOf(inputs, options.paginationMode);
	if (limit !== undefined) request.limit = Number(limit);
	if (pageSize !== undefined) request.pageSize = Number(pageSize);
	if (mode !== undefined) request.pagination = mode as PaginationMode;
	return request;
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
	const inputs = await readInputs(context, endpoint, itemIndex, env);
	const placed = place(endpoint, inputs, env);
	// 4. Values that follow from others; 5. validation, once.
	const request = endpoint.derive ? endpoint.derive(placed) : placed;
	const problems = problemsOf(endpoint, request, inputs);
	const blocking = problems.filter((problem) => blocks(problem.source));
	if (blocking.length) throw new InputError(blocking);
	return {
		...request,
		path: fillPath(endpoint.path, request.pathParams),
		hints: problems.filter((problem) => !blocks(problem.source)),
	};
}
