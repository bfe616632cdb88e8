import type { IDataObject } from 'n8n-workflow';

/** Deprecated keys and their replacements (spec sections 2 and 9). */
export const DEPRECATED_KEYS: Readonly<Record<string, string>> = {
	manufacturer_id: 'agency_id',
	followed_nego: 'assigned_user',
	fees_nego: 'fees_user',
	fees_manufacturer: 'fees_agency',
	fees_nego_manufacturer: 'fees_user_agency',
	fees_customer_manufacturer: 'fees_customer_agency',
	short_name: 'short_label',
	is_enabled: 'is_activated',
};

export function snakeCase(key: string): string {
	return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Current name of a key: snake_case, then the deprecated alias replaced. */
export function currentKey(key: string): string {
	const snake = snakeCase(key);
	return DEPRECATED_KEYS[snake] ?? snake;
}

/**
 * Renames camelCase and deprecated keys at every depth, so that the node never sends an alias.
 * When both forms are present, the one already current wins (as the API does).
 */
export function normaliseKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(normaliseKeys);
	if (typeof value !== 'object' || value === null) return value;
	const result: IDataObject = {};
	const entries = Object.entries(value as IDataObject);
	for (const [key, entry] of entries) {
		const target = currentKey(key);
		if (target !== key && target in (value as IDataObject)) continue;
		// Header names are the user's own, not API keys.
		result[target] = target === 'headers' ? entry : (normaliseKeys(entry) as IDataObject);
	}
	return result;
}
