import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** The value with object keys sorted and the ignored field names removed at every depth. */
function comparable(value: unknown, ignored: Set<string>): unknown {
	if (Array.isArray(value)) return value.map((entry) => comparable(entry, ignored));
	if (typeof value !== 'object' || value === null) return value;
	const object = value as IDataObject;
	return Object.fromEntries(
		Object.keys(object)
			.filter((name) => !ignored.has(name))
			.sort()
			.map((name) => [name, comparable(object[name], ignored)]),
	);
}

/**
 * A short digest of the record without the ignored fields (132 bits of SHA-256: a collision, which
 * would hide a change, is out of reach), so the memory stays small whatever the record's size. Key
 * order is no change.
 */
export function recordFingerprint(record: unknown, ignoredFields: string[]): string {
	const text = JSON.stringify(comparable(record, new Set(ignoredFields))) ?? 'undefined';
	return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
