import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { decide, recordFingerprint, recordNeeded } from '../../../nodes/AgencyCrmTrigger/decision';
import { deliveryOf } from '../../../nodes/AgencyCrmTrigger/notification';
import type { TriggerSettings } from '../../../nodes/AgencyCrmTrigger/settings';

/**
 * decision.ts by example, beside its generated cases (decisionModel.test.ts): what the output item
 * says and what is read, one case each. Found by mutation testing (docs/testing.md): a mistake in
 * each of these passed every other test that runs without waiting in real time.
 */
const NOW = Date.parse('2026-11-29T10:00:00Z');

const settingsWith = (changes: Partial<TriggerSettings> = {}): TriggerSettings => ({
	events: ['PRODUCT_CREATE', 'PRODUCT_UPDATE', 'PRODUCT_DELETE'],
	unknownEvents: [],
	fetchFull: true,
	skipUnchanged: false,
	dropRepeats: true,
	catchUp: true,
	answeredByWorkflow: false,
	skipGone: false,
	relations: { customer: ['consent'], product: ['photos'] },
	ignored: [],
	...changes,
});

const deliveryWith = (body: IDataObject) => deliveryOf(body, NOW, false)!;
const update = (id = 8) => deliveryWith({ event_type: 'PRODUCT_UPDATE', resource_type: 'product', resource_id: id });
const found = (record: IDataObject) => ({ kind: 'found' as const, record });

describe('the item', () => {
	test('a replay says so, with the window it looked in when it came from one', () => {
		const window = { since: '2026-11-29T09:00:00.000Z', until: '2026-11-29T10:00:00.000Z' };
		const replayed = deliveryWith({ ...update().notification, catch_up: true, window });
		const decision = decide(settingsWith(), undefined, replayed, found({ id: 8 }), NOW);
		expect(decision).toMatchObject({ action: 'start', item: { caught_up: true, caught_up_window: window } });
		for (const alone of [null, 'last hour']) {
			const owed = deliveryWith({ ...update().notification, catch_up: true, window: alone });
			const item = (decide(settingsWith(), undefined, owed, found({ id: 8 }), NOW) as { item: IDataObject }).item;
			expect(item.caught_up).toBe(true);
			expect(item).not.toHaveProperty('caught_up_window');
		}
		const live = (decide(settingsWith(), undefined, update(), found({ id: 8 }), NOW) as { item: IDataObject }).item;
		expect(live).not.toHaveProperty('caught_up');
	});

	test('a notification naming no record says what was looked for', () => {
		const decision = decide(
			settingsWith(),
			undefined,
			deliveryWith({ event_type: 'PRODUCT_UPDATE' }),
			{ kind: 'notFetched' },
			NOW,
		);
		expect(decision).toEqual({
			action: 'start',
			item: expect.objectContaining({
				identified: false,
				warning:
					'The notification names no customer or product the trigger can recognise (looked for resource_type or ' +
					'event_type, and resource_id, customers_id, product_id or id), so no record was fetched. See "notification".',
			}),
		});
	});

	test('a property deleted and read as gone is deleted, not "gone after this change"', () => {
		const deleted = deliveryWith({ event_type: 'PRODUCT_DELETE', resource_type: 'product', resource_id: 8 });
		const item = (decide(settingsWith(), undefined, deleted, { kind: 'gone' }, NOW) as { item: IDataObject }).item;
		expect(item).toMatchObject({ deleted: true, record: null });
		expect(item).not.toHaveProperty('gone');
		expect(item).not.toHaveProperty('warning');
	});
});

describe('what is decided', () => {
	test('an event not chosen is ignored, and nothing is read for it', () => {
		const settings = settingsWith({ events: ['PRODUCT_CREATE'] });
		expect(decide(settings, undefined, update(), found({ id: 8 }), NOW)).toEqual({ action: 'ignore' });
		expect(recordNeeded(settings, update())).toBeUndefined();
	});

	test('without Fetch Full Record, the record is still read to tell a repeat, but not for a deletion', () => {
		const settings = settingsWith({ fetchFull: false });
		expect(recordNeeded(settings, update())).toEqual(['photos']);
		const deleted = deliveryWith({ event_type: 'PRODUCT_DELETE', resource_type: 'product', resource_id: 8 });
		expect(recordNeeded(settings, deleted)).toBeUndefined();
	});

	test('with nothing remembered (no record named, or neither option on), the workflow starts and nothing is taken', () => {
		const unnamed = deliveryWith({ event_type: 'PRODUCT_UPDATE' });
		expect(decide(settingsWith(), undefined, unnamed, { kind: 'notFetched' }, NOW)).not.toHaveProperty('take');
		const forgetful = settingsWith({ dropRepeats: false, skipUnchanged: false });
		const decision = decide(forgetful, undefined, update(), found({ id: 8 }), NOW);
		expect(decision).toMatchObject({ action: 'start' });
		expect(decision).not.toHaveProperty('take');
	});

	test('a record read as gone under an update is taken in the gone state', () => {
		const decision = decide(settingsWith(), undefined, update(), { kind: 'gone' }, NOW);
		expect(decision).toMatchObject({ action: 'start', take: { key: 'product:8', seen: { state: 'deleted' } } });
	});
});

describe('the fingerprint', () => {
	test('22 characters of the SHA-256 of the record as JSON, its keys sorted', () => {
		const expected = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
		expect(recordFingerprint({ b: 2, a: 1 }, [])).toBe(expected('{"a":1,"b":2}'));
		expect(recordFingerprint(undefined, [])).toBe(expected('undefined'));
	});

	test('lists are compared entry by entry, fields ignored inside them too; a list is no object', () => {
		const ignored = ['last_modified'];
		expect(recordFingerprint({ photos: [{ url: 'a', last_modified: 1 }] }, ignored)).toBe(
			recordFingerprint({ photos: [{ url: 'a', last_modified: 2 }] }, ignored),
		);
		expect(recordFingerprint({ photos: [{ url: 'a' }] }, ignored)).not.toBe(
			recordFingerprint({ photos: [{ url: 'b' }] }, ignored),
		);
		expect(recordFingerprint([1, 2], [])).not.toBe(recordFingerprint({ 0: 1, 1: 2 }, []));
	});
});
