import type { IDataObject } from 'n8n-workflow';
import * as fc from 'fast-check';

import type { Seen } from '../../../../nodes/AgencyCrmTrigger/memory/store';
import {
	ANY_EVENT,
	REMEMBERED_RECORDS,
	forgetSeen,
	recordKey,
	seenLine,
	storedEntries,
	storedSeen,
	storedText,
	writeSeen,
} from '../../../../nodes/AgencyCrmTrigger/memory/store';

/**
 * memory/store.ts: the memory as one text in the static data. Generated records (ids as any JSON
 * notification may carry them) and entries: each written entry reads back as written, a record is
 * never read as another, later entries win, and the bound holds.
 */
const EVENTS = ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE', 'PRODUCT_UPDATE', 'PRODUCT_DELETE', ANY_EVENT];
/** Ids as a notification's JSON may carry them: numbers, or any text, UTF-16 units alone included. */
const idArbitrary = fc.oneof(
	fc.integer({ min: 0 }),
	fc.string({ unit: 'grapheme' }),
	fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
);
const keyArbitrary = fc
	.tuple(fc.constantFrom('customer', 'product'), idArbitrary)
	.map(([type, id]) => recordKey(type, id));
const seenArbitrary: fc.Arbitrary<Seen> = fc.record({
	state: fc.stringMatching(/^[A-Za-z0-9_-]{22}$/),
	compared: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), { nil: undefined }),
	events: fc.subarray(EVENTS, { minLength: 1 }),
	at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
});

test('every entry written reads back as written, by its key alone, whatever the ids', () => {
	fc.assert(
		fc.property(
			fc.uniqueArray(fc.tuple(keyArbitrary, seenArbitrary), { selector: ([key]) => key, maxLength: 30 }),
			(entries) => {
				const staticData = {};
				writeSeen(staticData, new Map(entries), true);
				const text = storedText(staticData);
				for (const [key, seen] of entries) {
					expect(storedSeen(text, key)).toEqual(seen);
					expect(storedEntries(text).get(key)).toEqual(seen);
				}
			},
		),
		{ numRuns: 500 },
	);
});

test('a record is never read as another whose key starts alike', () => {
	const text = [seenLine('customer:12', { state: 's12', events: ['CUSTOMER_UPDATE'], at: 1 })].join('\n');
	expect(storedSeen(text, 'customer:1')).toBeUndefined();
	expect(
		storedSeen(`${text}\n${seenLine('customer:1', { state: 's1', events: ['CUSTOMER_UPDATE'], at: 2 })}`, 'customer:1'),
	).toEqual({
		state: 's1',
		compared: undefined,
		events: ['CUSTOMER_UPDATE'],
		at: 2,
	});
});

test('of two copies of an entry the later wins, and the least recently taken go beyond the bound', () => {
	fc.assert(
		fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1500 }), seenArbitrary), { maxLength: 60 }), (writes) => {
			const staticData = {};
			const latest = new Map<string, Seen>();
			for (const [id, seen] of writes) {
				const key = recordKey('customer', id);
				writeSeen(staticData, new Map([[key, seen]]), true);
				if ((latest.get(key)?.at ?? -1) <= seen.at) latest.set(key, seen);
			}
			const stored = storedEntries(storedText(staticData));
			expect(stored.size).toBeLessThanOrEqual(REMEMBERED_RECORDS);
			for (const [key, seen] of stored) expect(seen).toEqual(latest.get(key));
		}),
		{ numRuns: 300 },
	);
});

test(`the bound: ${REMEMBERED_RECORDS} records, the oldest forgotten first`, () => {
	const staticData = {};
	const entries = Array.from({ length: REMEMBERED_RECORDS + 5 }, (_, index): [string, Seen] => [
		recordKey('product', index),
		{ state: `s${index}`, events: ['PRODUCT_UPDATE'], at: index },
	]);
	writeSeen(staticData, new Map(entries), true);
	const stored = storedEntries(storedText(staticData));
	expect(stored.size).toBe(REMEMBERED_RECORDS);
	expect(stored.has(recordKey('product', 4))).toBe(false);
	expect(stored.has(recordKey('product', 5))).toBe(true);
});

test('Skip Unchanged turned off drops every compared fingerprint; forgetting removes the memory and what versions before kept', () => {
	const staticData: IDataObject = { seenDeliveries: ['d-1'] };
	writeSeen(
		staticData,
		new Map([['customer:5', { state: 'a', compared: 'b', events: ['CUSTOMER_UPDATE'], at: 1 }]]),
		true,
	);
	expect(staticData).not.toHaveProperty('seenDeliveries');
	expect(writeSeen(staticData, new Map(), false)).toBe(true);
	expect(storedSeen(storedText(staticData), 'customer:5')).toEqual({
		state: 'a',
		compared: undefined,
		events: ['CUSTOMER_UPDATE'],
		at: 1,
	});
	expect(writeSeen(staticData, new Map(), false)).toBe(false);
	expect(forgetSeen(staticData)).toBe(true);
	expect(staticData).toEqual({});
});
