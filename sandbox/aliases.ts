/**
 * Deprecated names the API still accepts (spec section 9, "Deprecated aliases remain available"),
 * applied to every request here, before any handler reads it. When both names are sent, the
 * current name wins.
 * - `manufacturer_id` for `agency_id`: in every body (at any depth) and query.
 * - camelCase keys for snake_case keys (`isActive` for `is_active`): on the customer endpoints
 *   (section 2 "Customer"; changelog 1.1.0 "snake_case keys on customer endpoints; camelCase
 *   deprecated"), that is every path under `/customers` and the leads, whose bodies carry a
 *   customer and search requests. In bodies at any depth, and in query parameter names.
 */
import { isObject, JsonObject } from './validation';

/** Renames deprecated keys to their current name; the current key wins when both are sent. */
export function applyAliases(source: JsonObject, aliases: Readonly<Record<string, string>>): JsonObject {
	for (const [alias, canonical] of Object.entries(aliases)) {
		if (!(alias in source)) continue;
		if (!(canonical in source)) source[canonical] = source[alias];
		delete source[alias];
	}
	return source;
}

const AGENCY_ALIAS = { manufacturer_id: 'agency_id' };
/** The customer endpoints: path patterns below these prefixes accept camelCase keys. */
const CUSTOMER_ENDPOINT_PREFIXES = ['/customers', '/leads/'];
/** camelCase keys whose current name is not their plain snake_case form. */
const CAMEL_CASE_EXCEPTIONS: Readonly<Record<string, string>> = { firstName: 'firstname', lastName: 'lastname' };
const CAMEL_CASE_KEY = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;

export function acceptsCamelCaseKeys(routePattern: string): boolean {
	return CUSTOMER_ENDPOINT_PREFIXES.some((prefix) => routePattern.startsWith(prefix));
}

/** `isActive` → `is_active`, `contentBase64` → `content_base64`; undefined for keys that are not camelCase. */
export function snakeCaseOf(key: string): string | undefined {
	if (!CAMEL_CASE_KEY.test(key)) return undefined;
	return CAMEL_CASE_EXCEPTIONS[key] ?? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function camelCaseAliasesOf(keys: Iterable<string>): Record<string, string> {
	const aliases: Record<string, string> = {};
	for (const key of keys) {
		const snake = snakeCaseOf(key);
		if (snake) aliases[key] = snake;
	}
	return aliases;
}

/** Applies the aliases to a parsed JSON body in place, at every depth. */
export function applyBodyAliases(value: unknown, camelCase: boolean): void {
	if (Array.isArray(value)) {
		for (const item of value) applyBodyAliases(item, camelCase);
	} else if (isObject(value)) {
		if (camelCase) applyAliases(value, camelCaseAliasesOf(Object.keys(value)));
		applyAliases(value, AGENCY_ALIAS);
		for (const nested of Object.values(value)) applyBodyAliases(nested, camelCase);
	}
}

/** The query with the aliases applied to its parameter names. */
export function queryWithAliases(query: URLSearchParams, camelCase: boolean): URLSearchParams {
	const renames = { ...(camelCase ? camelCaseAliasesOf(query.keys()) : {}), ...AGENCY_ALIAS };
	const result = new URLSearchParams(query);
	for (const [alias, canonical] of Object.entries(renames)) {
		if (!result.has(alias)) continue;
		if (!result.has(canonical)) for (const value of result.getAll(alias)) result.append(canonical, value);
		result.delete(alias);
	}
	return result;
}
