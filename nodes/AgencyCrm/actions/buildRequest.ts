import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import { MAX_PER_PAGE } from '../../shared/transport';
import { normaliseKeys } from '../catalogue/aliases';
import { wireKeyOf } from '../catalogue/fields';
import { optionalGroupOf } from '../catalogue/describe';
import { RuleViolation, integer, isAbsent, oneOf, required } from '../catalogue/rules';
import type { Endpoint, FieldSpec, FileValue, Rule, Violation, WireEnv, WireRequest } from '../catalogue/types';
import { findInvalid, json } from '../catalogue/wire';

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

/** Value at a dotted key (`customer.email`), as placed by setDeep. */
function getDeep(source: IDataObject, dottedKey: string): unknown {
	return dottedKey.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), source);
}

function brokenRules(rules: Rule[], value: unknown): string[] {
	return rules.map((rule) => rule(value)).filter((message): message is string => message !== undefined);
}

/** Return All / Limit, Page Size and Pagination Mode of a paginated operation. */
function readPaging(context: IExecuteFunctions, endpoint: Endpoint, itemIndex: number, wire: WireRequest): Violation[] {
	const violations: Violation[] = [];
	const check = (field: string, rule: Rule, value: unknown, apply: () => void) => {
		const broken = rule(value);
		if (broken) violations.push({ field, message: broken });
		else if (!isAbsent(value)) apply();
	};
	if (!context.getNodeParameter('returnAll', itemIndex, false)) {
		const limit = context.getNodeParameter('limit', itemIndex, 50);
		check('"Limit"', integer({ min: 1 }), limit, () => (wire.limit = Number(limit)));
		if (isAbsent(limit)) violations.push({ field: '"Limit"', message: 'is required' });
	}
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	check('"Page Size" (per_page)', integer({ min: 1, max: MAX_PER_PAGE }), options.perPage, () => {
		wire.pageSize = Number(options.perPage);
	});
	if (endpoint.paginationModes) {
		check('"Pagination Mode"', oneOf(endpoint.paginationModes), options.paginationMode, () => {
			wire.pagination = options.paginationMode as PaginationMode;
		});
	}
	return violations;
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
	const env: WireEnv = { timezone: context.getTimezone() };
	const optionalValues =
		endpoint.fields.some((field) => !field.property.required) || endpoint.extraBodyJson
			? (context.getNodeParameter(optionalGroupOf(endpoint), itemIndex, {}) as IDataObject)
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
	const typedBodyKeys = new Set<string>();

	for (const field of endpoint.fields) {
		const name = field.property.name;
		const raw = field.property.required
			? context.getNodeParameter(name, itemIndex, undefined, { extractValue: true })
			: optionalValues[name];
		const value =
			field.in === 'file' ? await readFile(context, itemIndex, raw) : field.wire ? field.wire(raw, env) : raw;
		const invalid = field.in === 'file' ? undefined : findInvalid(value);
		if (invalid) {
			violations.push({ field: label(field), message: invalid.message });
			continue;
		}
		const rules =
			field.property.required && field.property.type !== 'boolean'
				? [required, ...(field.rules ?? [])]
				: (field.rules ?? []);
		const broken = brokenRules(rules, value);
		violations.push(...broken.map((message) => ({ field: label(field), message })));
		if (broken.length || isAbsent(value)) continue;

		const key = wireKeyOf(field);
		if (field.in === 'path') wire.pathParams[field.property.name] = value as string;
		else if (field.in === 'query') wire.qs[key] = value as string;
		else if (field.in === 'file') wire.files.push({ part: key, file: value as FileValue });
		else {
			setDeep(wire.body, key, value);
			typedBodyKeys.add(key);
		}
	}

	if (endpoint.extraBodyJson && !isAbsent(optionalValues.extraBodyJson)) {
		const extra = json(optionalValues.extraBodyJson);
		const invalid = findInvalid(extra) ?? (isPlainObject(extra) ? undefined : { message: 'must be a JSON object' });
		if (invalid) violations.push({ field: '"Extra Body Fields (JSON)"', message: invalid.message });
		else {
			wire.body = overlay(normaliseKeys(extra) as IDataObject, wire.body);
			// A key the node has an input for obeys that input's rules, wherever its value came from.
			for (const field of endpoint.fields) {
				const key = wireKeyOf(field);
				if (field.in !== 'body' || typedBodyKeys.has(key) || !field.rules) continue;
				const broken = brokenRules(field.rules, getDeep(wire.body, key));
				violations.push(...broken.map((message) => ({ field: `"Extra Body Fields (JSON)" (${key})`, message })));
			}
		}
	}

	if (endpoint.pagination) violations.push(...readPaging(context, endpoint, itemIndex, wire));
	for (const check of endpoint.checks ?? []) violations.push(...check(wire));
	if (violations.length) throw new RuleViolation(violations);
	wire.path = fillPath(endpoint.path, wire.pathParams);
	return wire;
}
