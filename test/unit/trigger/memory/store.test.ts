import type { IDataObject } from 'n8n-workflow';
import * as fc from 'fast-check';

import type { OwedDelivery, Seen } from '../../../../nodes/AgencyCrmTrigger/memory/store';
import {
	ANY_EVENT,
	OWED_DELIVERIES,
	REMEMBERED_RECORDS,
	activated,
	forgetSeen,
	laterOf,
	owe,
	owedDue,
	owedOf,
	progressOf,
	recordKey,
	restarted,
	settle,
	windowReplayed,
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

/**
 * The memory's forms and edges, one case each: found by mutation testing (docs/testing.md), where a
 * mistake in store.ts passed every other test.
 */
describe('the stored forms', () => {
	test('a key writes %, white space, control characters and lone UTF-16 halves as %xxxx, and nothing else', () => {
		expect(recordKey('customer', 5)).toBe('customer:5');
		expect(recordKey('product', 'a b%\nc-é')).toBe('product:a%0020b%0025%000ac-é');
		expect(recordKey('customer', '\ud800x')).toBe('customer:%d800x');
	});

	test('a line that cannot be read is left out, whatever part of it is missing or extra', () => {
		const valid = 'customer:1 state1 - CUSTOMER_CREATE 1';
		const text = [
			valid,
			'customer:2 state2 - CUSTOMER_CREATE 1 extra',
			' state3 - CUSTOMER_CREATE 1',
			'customer:4  - CUSTOMER_CREATE 1',
			'customer:5 state5  CUSTOMER_CREATE 1',
			'customer:6 state6 -',
			'customer:7 state7 - CUSTOMER_CREATE',
			'customer:8 state8 - CUSTOMER_CREATE !',
		].join('\n');
		expect([...storedEntries(text).keys()]).toEqual(['customer:1']);
		expect(storedSeen(text, 'customer:7')).toBeUndefined();
		expect(storedSeen('customer:9 broken', 'customer:9')).toBeUndefined();
	});

	test('an empty event in a line is no event', () => {
		expect(storedSeen('customer:1 s - CUSTOMER_UPDATE, 1', 'customer:1')).toEqual({
			state: 's',
			compared: undefined,
			events: ['CUSTOMER_UPDATE'],
			at: 1,
		});
	});

	test('of two copies in the same state, the events of both are kept', () => {
		const earlier: Seen = { state: 's', events: ['CUSTOMER_CREATE'], at: 1 };
		const later: Seen = { state: 's', events: ['CUSTOMER_UPDATE'], at: 2 };
		expect(laterOf(later, earlier).events).toEqual(['CUSTOMER_UPDATE', 'CUSTOMER_CREATE']);
		expect(laterOf(earlier, { ...later, state: 't' }).events).toEqual(['CUSTOMER_UPDATE']);
	});

	test('beyond the bound the least recently taken is forgotten, whatever order they were written in', () => {
		const staticData: IDataObject = {};
		const newestFirst = new Map(
			Array.from({ length: REMEMBERED_RECORDS + 1 }, (_, index): [string, Seen] => [
				`customer:${index}`,
				{ state: 's', events: ['CUSTOMER_CREATE'], at: REMEMBERED_RECORDS + 1 - index },
			]),
		);
		writeSeen(staticData, newestFirst, true);
		const kept = storedEntries(storedText(staticData));
		expect(kept.size).toBe(REMEMBERED_RECORDS);
		expect(kept.has(`customer:${REMEMBERED_RECORDS}`)).toBe(false);
		expect(kept.has('customer:0')).toBe(true);
	});

	test('the memory is kept under "memory"; what versions before kept is removed; forgetting nothing says so', () => {
		const staticData: IDataObject = { seenDeliveries: {}, seenRecords: {}, seen: [] };
		writeSeen(staticData, new Map([['customer:1', { state: 's', events: ['CUSTOMER_CREATE'], at: 1 }]]), true);
		expect(Object.keys(staticData)).toEqual(['memory']);
		expect(forgetSeen({ other: 1 })).toBe(false);
		expect(forgetSeen({ seen: [] })).toBe(true);
	});
});

describe('the progress at its edges', () => {
	const delivery = (id: string | number, at: number, event = 'PRODUCT_UPDATE'): OwedDelivery => ({ event, id, at });

	test('owed deliveries that cannot be read are left out; `failed` only when true', () => {
		const stored = [
			{ event: 'PRODUCT_UPDATE', id: 5, at: 1 },
			{ event: 'PRODUCT_UPDATE', id: 'x', at: 2, failed: true },
			{ event: 'PRODUCT_UPDATE', id: 6, at: 3, failed: 'yes' },
			{ event: 5, id: 1, at: 1 },
			{ event: 'PRODUCT_UPDATE', id: {}, at: 1 },
			{ event: 'PRODUCT_UPDATE', id: 1, at: 'later' },
			null,
		];
		expect(owedOf(stored)).toEqual([
			{ event: 'PRODUCT_UPDATE', id: 5, at: 1 },
			{ event: 'PRODUCT_UPDATE', id: 'x', at: 2, failed: true },
			{ event: 'PRODUCT_UPDATE', id: 6, at: 3 },
		]);
	});

	test('a replay stored with its attempts keeps them', () => {
		expect(progressOf({ progress: { watermark: 1, replaying: { until: 5, attempts: 3 } } }).replaying).toEqual({
			until: 5,
			attempts: 3,
		});
	});

	test('a window replayed with no watermark yet sets it to its end; an activation that replays drops nothing', () => {
		expect(windowReplayed({ owed: [] }, 5).watermark).toBe(5);
		const owed = [delivery(1, 2)];
		expect(activated({ watermark: 1, owed }, { now: 10, enabled: true }).dropped).toEqual([]);
	});

	test('a start at the watermark, or one a replay already reaches, opens no window', () => {
		expect(restarted({ watermark: 10, owed: [] }, 10).window).toBeUndefined();
		expect(restarted({ watermark: 5, replaying: { until: 10, attempts: 1 }, owed: [] }, 10).window).toBeUndefined();
		expect(restarted({ watermark: 5, owed: [] }, 10).window).toMatchObject({ since: 5, until: 10 });
	});

	test('a delivery that came as the process started is still under way', () => {
		const progress = { watermark: 1, owed: [delivery(1, 100), delivery(2, 99)] };
		expect(owedDue(progress, 100, 200)).toEqual([delivery(2, 99)]);
	});

	test('deliveries are told apart by event, record and time; each is owed once, 200 at most', () => {
		const progress = { watermark: 1, owed: [delivery(1, 1), delivery(2, 2)] };
		expect(owe(progress, [delivery(1, 1), delivery(3, 3)]).owed).toEqual([
			delivery(2, 2),
			delivery(1, 1),
			delivery(3, 3),
		]);
		expect(settle(progress, [delivery('1', 1), delivery(9, 9)]).owed).toEqual([delivery(2, 2)]);
		expect(settle(progress, [delivery(1, 5), delivery(2, 2, 'PRODUCT_CREATE')]).owed).toEqual(progress.owed);
		const many = Array.from({ length: OWED_DELIVERIES + 1 }, (_, index) => delivery(index, index));
		const owedNow = owe({ owed: [] }, many).owed;
		expect(owedNow).toHaveLength(OWED_DELIVERIES);
		expect(owedNow[0]).toEqual(delivery(1, 1));
	});
});
