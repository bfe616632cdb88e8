import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import { listEntries } from '../../shared/values';
import type { CriterionRow } from '../catalogue/criteria/field';
import { criterionRowsOf } from '../catalogue/criteria/resolve';
import type { SiteCriteria } from '../catalogue/criteria/site';
import { NOTHING_READ } from '../catalogue/criteria/site';
import { criteriaOnTheWire } from '../catalogue/criteria/wire';
import { keyOf, maxPageSizeOf, pageSizeKeyOf } from '../catalogue/fields';
import { convertField } from '../catalogue/parts';
import { formOf, versionOf } from '../catalogue/form';
import { itemOptionsOf } from '../catalogue/nodeOptions';
import { fillPath } from '../catalogue/requests';
import { InputError, blocks, guard, isEmpty } from '../catalogue/rules';
import type {
	Converted,
	ConvertEnv,
	Endpoint,
	FieldSpec,
	FileValue,
	OutputChoice,
	PreparedRequest,
} from '../catalogue/types';
import type { Inputs } from '../catalogue/validate';
import { problemsOf } from '../catalogue/validate';
import { parameterReaderOf } from './parameters';

/**
 * Turns one item's parameters into the exact request of an endpoint, in one phase: read each input,
 * convert it, place the typed values over the extra JSON, derive the values that follow from others,
 * resolve and place the criteria against the site's that the run read before its first item
 * (actions/siteCriteria.ts), and validate once (catalogue/validate.ts). Problems whose source blocks
 * (the spec, or a request the node could not form) throw an InputError naming every field and rule,
 * before any request; guesses become hints. No I/O happens here but reading the item's binary data.
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

/** The file or files an upload names by their binary fields (several, comma-separated, where `manyFiles`). */
async function readFiles(context: IExecuteFunctions, itemIndex: number, field: FieldSpec, value: unknown) {
	const names = field.manyFiles ? listEntries(value) : isEmpty(value) ? [] : [value];
	if (!names.length) return { value: undefined };
	const files: FileValue[] = [];
	for (const name of names) {
		const read = await readFile(context, itemIndex, name);
		if ('problem' in read) return read;
		files.push(read.value as FileValue);
	}
	return { value: field.manyFiles ? files : files[0] };
}

/**
 * 1-2. Every input of the item in the form of its node version, read and converted: the endpoint's
 * fields and the node options (Limit only without Return All; Concurrency is the run's, read once).
 */
export async function readInputs(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	env: ConvertEnv,
): Promise<Map<FieldSpec, Converted>> {
	const version = versionOf(context.getNode().typeVersion);
	const read = parameterReaderOf(context, endpoint, version, itemIndex);
	const options = itemOptionsOf(endpoint);
	const returnAll = options.returnAll && read(options.returnAll);
	const inputs = new Map<FieldSpec, Converted>();
	for (const { field } of formOf(endpoint, version)) {
		if (field === options.concurrency || (field === options.limit && returnAll)) continue;
		const value = read(field);
		if (field.in !== 'file') inputs.set(field, convertField(field, value, env));
		else inputs.set(field, await readFiles(context, itemIndex, field, value));
	}
	return inputs;
}

/**
 * What the Output option asks: Simplified, Raw or the Selected Fields. A workflow saved under 0.1.0
 * with Simplify off (version 1's hidden switch, catalogue/nodeOptions.ts) gets whole records, as then.
 */
function outputChoice(endpoint: Endpoint, inputs: Inputs): OutputChoice | undefined {
	const { output, legacySimplify, selectedFields } = itemOptionsOf(endpoint);
	if (!output) return undefined;
	const asked = valueOf(inputs, output) ?? output.property.default;
	if (asked === 'simple' && legacySimplify && valueOf(inputs, legacySimplify) === false) return { mode: 'raw' };
	if (asked === 'fields') return { mode: 'fields', fields: (valueOf(inputs, selectedFields) as string[]) ?? [] };
	return { mode: asked === 'raw' ? 'raw' : 'simple' };
}

/** The converted value of an input, when it has one. */
function valueOf(inputs: Inputs, field: FieldSpec | undefined): unknown {
	const converted = field && inputs.get(field);
	return converted && 'value' in converted && !isEmpty(converted.value) ? converted.value : undefined;
}

/**
 * A page size (`per_page`, or the list's own key) given in the extra query or body of a list: the
 * page size asked, moved out of the extras because the node sends it itself on every page, where the
 * list takes it. One that contradicts Page Size is refused before sending (catalogue/validate.ts),
 * never replaced.
 */
function takeExtraPageSize(request: PreparedRequest, key: string): unknown {
	const given = request.qs[key] ?? request.body[key];
	delete request.qs[key];
	delete request.body[key];
	return isEmpty(given) ? undefined : given;
}

/**
 * The page size asked: the one chosen, or the largest the list serves; a larger one is asked as the
 * largest, with a notice, rather than sent to be refused or cut short by the API.
 */
function pageSizeAsked(endpoint: Endpoint, chosen: unknown, request: PreparedRequest): number {
	const { size } = maxPageSizeOf(endpoint);
	if (chosen === undefined) return size;
	const asked = Number(chosen);
	if (asked <= size) return asked;
	request.notices.push(
		`"Page Size" ${asked} is more than the ${size} records a page of this list holds at most: pages of ${size} were asked for`,
	);
	return size;
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
		notices: [],
	};
	for (const field of endpoint.fields) {
		const value = valueOf(inputs, field);
		if (value === undefined) continue;
		const key = keyOf(field);
		if (field.in === 'path') request.pathParams[field.property.name] = value as IDataObject[string];
		else if (field.in === 'query') request.qs[key] = value as IDataObject[string];
		else if (field.in === 'file') {
			for (const file of [value].flat() as FileValue[]) request.files.push({ part: key, file });
		} else if (field.in === 'node') {
			request.settings = { ...request.settings, [field.property.name]: value as IDataObject[string] };
		} else if (field.in !== 'criteria') setDeep(request.body, key, value);
	}
	const options = itemOptionsOf(endpoint);
	const extraQuery = valueOf(inputs, options.extraQuery);
	if (isPlainObject(extraQuery)) request.qs = { ...extraQuery, ...request.qs };
	const extraBody = valueOf(inputs, options.extraBody);
	if (isPlainObject(extraBody)) request.body = overlay(convertedExtraBody(endpoint, extraBody, env), request.body);
	const limit = valueOf(inputs, options.limit);
	const mode = valueOf(inputs, options.paginationMode);
	if (limit !== undefined) request.limit = Number(limit);
	if (options.pageSize) {
		const chosen = valueOf(inputs, options.pageSize) ?? takeExtraPageSize(request, pageSizeKeyOf(endpoint));
		request.pageSize = pageSizeAsked(endpoint, chosen, request);
	}
	if (mode !== undefined) request.pagination = mode as PaginationMode;
	request.output = outputChoice(endpoint, inputs);
	return request;
}

/** The criteria the item gives, as rows: those of its Criteria fields and of its fields sent as criteria. */
export function criteriaRowsOf(endpoint: Endpoint, inputs: Inputs): CriterionRow[] {
	return endpoint.fields.flatMap((field) => {
		const value = field.in === 'criteria' ? valueOf(inputs, field) : undefined;
		return value === undefined ? [] : criterionRowsOf(field, value);
	});
}

/** 5. The criteria resolved against the site's and placed where the endpoint's spec says; none given: as it is. */
function withCriteria(endpoint: Endpoint, request: PreparedRequest, inputs: Inputs, site: SiteCriteria) {
	const rows = criteriaRowsOf(endpoint, inputs);
	if (!endpoint.criteria || !rows.length) return request;
	const { body, notices, problems } = criteriaOnTheWire(endpoint.criteria, rows, site, request.body);
	return { ...request, body, notices: [...request.notices, ...notices], criteriaProblems: problems };
}

/**
 * The item's plan from its inputs (read and converted), pure: the request with the criteria resolved
 * against the site's, judged once; or an InputError naming every field and rule that blocks it.
 */
export function planOf(endpoint: Endpoint, inputs: Inputs, env: ConvertEnv, site: SiteCriteria): PreparedRequest {
	const placed = place(endpoint, inputs, env);
	// 4. Values that follow from others; 5. the criteria; 6. validation, once.
	const derived = endpoint.derive ? endpoint.derive(placed) : placed;
	const request = withCriteria(endpoint, derived, inputs, site);
	const problems = problemsOf(endpoint, request, inputs);
	const blocking = problems.filter((problem) => blocks(problem.source));
	if (blocking.length) throw new InputError(blocking);
	return {
		...request,
		path: fillPath(endpoint.path, request.pathParams),
		hints: problems.filter((problem) => !blocks(problem.source)),
	};
}

/** The item's plan, from its parameters: `site` is what the run read of the site's criteria (actions/siteCriteria.ts). */
export async function prepareRequest(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
	site: SiteCriteria = NOTHING_READ,
): Promise<PreparedRequest> {
	const env = { timezone: context.getTimezone() };
	const inputs = await readInputs(context, endpoint, itemIndex, env);
	return planOf(endpoint, inputs, env, site);
}
