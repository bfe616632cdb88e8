import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import { MAX_PER_PAGE } from '../../shared/transport';
import { normaliseKeys, snakeCase } from '../catalogue/aliases';
import { optionalGroupOf } from '../catalogue/describe';
import { RuleViolation, integer, oneOf, required } from '../catalogue/rules';
import type { Endpoint, FieldSpec, FileValue, Violation, WireRequest } from '../catalogue/types';
import { findInvalid, json } from '../catalogue/wire';

export function wireKeyOf(field: FieldSpec): string {
	return field.key ?? snakeCase(field.property.name);
}

function label(field: FieldSpec): string {
	return `"${field.property.displayName}" (${wireKeyOf(field)})`;
}

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

/** The extra JSON with the typed fields laid over it, nested objects merged (lead `customer`). */
function overlay(extra: IDataObject, typed: IDataObject): IDataObject {
	const result = { ...extra };
	for (const [key, value] of Object.entries(typed)) {
		const base = result[key];
		result[key] = isPlainObject(base) && isPlainObject(value) ? overlay(base, value) : value;
	}
	return result;
}

function isAbsent(value: unknown) {
	return value === undefined || value === null || value === '';
}

async function readFile(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: unknown,
): Promise<FileValue | undefined> {
	if (isAbsent(propertyName)) return undefined;
	const name = String(propertyName);
	const binary = context.helpers.assertBinaryData(itemIndex, name);
	return {
		fileName: binary.fileName ?? name,
		mimeType: binary.mimeType,
		data: await context.helpers.getBinaryDataBuffer(itemIndex, name),
	};
}

/** Fills `{placeholders}` with URL-encoded values. */
export function fillPath(path: string, params: IDataObject): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/**
 * Reads the item's parameters for one endpoint and produces the exact request, or throws a
 * RuleViolation naming every field and rule broken. No I/O happens here except reading the item's
 * binary data for uploads, so nothing is sent for bad input.
 */
export async function buildWireRequest(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	itemIndex: number,
): Promise<WireRequest> {
	const group = optionalGroupOf(endpoint);
	const optionalValues =
		endpoint.fields.some((field) => !field.property.required) || endpoint.extraBodyJson || endpoint.pagination
			? (context.getNodeParameter(group, itemIndex, {}) as IDataObject)
			: {};
	const wire: WireRequest = {
		method: endpoint.method,
		path: endpoint.path,
		pathParams: {},
		qs: {},
		body: {},
		files: [],
	};
	const violations: Violation[] = [];

	for (const field of endpoint.fields) {
		const name = field.property.name;
		const raw = field.property.required
			? context.getNodeParameter(name, itemIndex, undefined, { extractValue: true })
			: optionalValues[name];
		const value = field.in === 'file' ? await readFile(context, itemIndex, raw) : field.wire ? field.wire(raw) : raw;
		const invalid = findInvalid(value);
		if (invalid) {
			violations.push({ field: label(field), message: invalid.message });
			continue;
		}
		const checks =
			field.property.required && field.property.type !== 'boolean'
				? [required, ...(field.rules ?? [])]
				: (field.rules ?? []);
		const broken = checks.map((rule) => rule(value)).filter((message): message is string => message !== undefined);
		violations.push(...broken.map((message) => ({ field: label(field), message })));
		if (broken.length || isAbsent(value)) continue;

		const key = wireKeyOf(field);
		if (field.in === 'path') wire.pathParams[field.property.name] = value as string;
		else if (field.in === 'query') wire.qs[key] = value as string;
		else if (field.in === 'file') wire.files.push({ part: key, file: value as FileValue });
		else setDeep(wire.body, key, value);
	}

	if (endpoint.extraBodyJson && !isAbsent(optionalValues.extraBodyJson)) {
		const extra = json(optionalValues.extraBodyJson);
		const invalid =
			findInvalid(extra) ??
			(typeof extra !== 'object' || extra === null || Array.isArray(extra)
				? { message: 'must be a JSON object' }
				: undefined);
		if (invalid) violations.push({ field: '"Extra Body Fields (JSON)"', message: invalid.message });
		else wire.body = overlay(normaliseKeys(extra) as IDataObject, wire.body);
	}

	if (endpoint.pagination && !isAbsent(optionalValues.perPage)) {
		const broken = integer({ min: 1, max: MAX_PER_PAGE })(optionalValues.perPage);
		if (broken) violations.push({ field: '"Page Size" (per_page)', message: broken });
		else wire.pageSize = Number(optionalValues.perPage);
	}
	if (endpoint.paginationModes && !isAbsent(optionalValues.paginationMode)) {
		const broken = oneOf(endpoint.paginationModes)(optionalValues.paginationMode);
		if (broken) violations.push({ field: '"Pagination Mode"', message: broken });
		else wire.pagination = optionalValues.paginationMode as PaginationMode;
	}

	for (const check of endpoint.checks ?? []) violations.push(...check(wire));
	if (violations.length) throw new RuleViolation(violations);
	wire.path = fillPath(endpoint.path, wire.pathParams);
	return wire;
}
