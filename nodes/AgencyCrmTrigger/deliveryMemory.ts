import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between deliveries, for "Drop Repeated Deliveries" and "Skip
 * Unchanged Records". It lives in the node's static data, which n8n loads from the database for
 * each delivery and saves after webhook() returns (not when it throws), in whichever process took
 * the delivery: the main process or a queue-mode webhook processor. Nothing is kept in process
 * memory.
 *
 * Every doubt starts the workflow: a duplicate execution is better than a lost event. Unreadable
 * memory counts as empty, and two deliveries handled at the same time may each save their own
 * copy (n8n writes static data whole), so one may forget what the other learnt: a later repeat then
 * starts the workflow again. The one way to lose an event: a record changed and changed back while
 * two of its deliveries are handled at once (README "A trigger that does not loop").
 */

/**
 * Bounds, oldest forgotten first. A repeated delivery comes soon after the first one, and a
 * workflow's own write comes back within seconds, so the last 1,000 of each cover both, while n8n
 * rewrites the whole static data on each delivery (about 84 KB at most with these bounds).
 */
const REMEMBERED_DELIVERIES = 1000;
const REMEMBERED_RECORDS = 1000;

/** Delivery ids, oldest first. */
const DELIVERIES_KEY = 'seenDeliveries';
/** `[type:id, fingerprint]` pairs, least recently seen first (an array: JSON keeps its order everywhere). */
const RECORDS_KEY = 'seenRecords';

type RecordEntry = [string, string];

function deliveriesOf(memory: IDataObject): string[] {
	const stored = memory[DELIVERIES_KEY];
	return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
}

function recordsOf(memory: IDataObject): RecordEntry[] {
	const stored = memory[RECORDS_KEY];
	if (!Array.isArray(stored)) return [];
	return stored.filter(
		(entry): entry is RecordEntry =>
			Array.isArray(entry) && entry.length === 2 && entry.every((part) => typeof part === 'string'),
	);
}

/**
 * Whether this delivery id was seen before. A new one becomes the most recent: assigning a new array
 * marks the static data as changed, so n8n saves it. A repeated one changes nothing, so that n8n
 * writes nothing (the whole static data, up to about 84 KB, would be rewritten for each delivery).
 */
export function isRepeatedDelivery(memory: IDataObject, deliveryId: string): boolean {
	const seen = deliveriesOf(memory);
	if (seen.includes(deliveryId)) return true;
	memory[DELIVERIES_KEY] = [...seen, deliveryId].slice(-REMEMBERED_DELIVERIES);
	return false;
}

/**
 * Whether the record is the same as the last one seen under `key` (`customer:12`), by fingerprint.
 * A changed or new record's fingerprint becomes the most recent one. An unchanged record changes
 * nothing, so that n8n writes nothing, unless it is in the older half of the memory: it then moves to
 * the recent end (a write at most once per 500 changes of other records), so that a record seen
 * often is never the one forgotten.
 */
export function isUnchangedRecord(memory: IDataObject, key: string, fingerprint: string): boolean {
	const seen = recordsOf(memory);
	const index = seen.findIndex(([seenKey]) => seenKey === key);
	const unchanged = index !== -1 && seen[index][1] === fingerprint;
	if (unchanged && index >= seen.length - REMEMBERED_RECORDS / 2) return true;
	const updated: RecordEntry[] = [...seen.filter(([seenKey]) => seenKey !== key), [key, fingerprint]];
	memory[RECORDS_KEY] = updated.slice(-REMEMBERED_RECORDS);
	return unchanged;
}

/**
 * An option turned off drops what it remembered: workflows ran meanwhile on records it did not
 * see, so an old fingerprint could hide a real change once the option is on again.
 */
export function forgetDeliveries(memory: IDataObject): void {
	if (DELIVERIES_KEY in memory) delete memory[DELIVERIES_KEY];
}

export function forgetRecords(memory: IDataObject): void {
	if (RECORDS_KEY in memory) delete memory[RECORDS_KEY];
}

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
 * would hide a change, is out of reach), so the memory stays small whatever the record's size.
 */
export function recordFingerprint(record: unknown, ignoredFields: string[]): string {
	const text = JSON.stringify(comparable(record, new Set(ignoredFields))) ?? 'undefined';
	return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
