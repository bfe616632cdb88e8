import type { IDataObject } from 'n8n-workflow';

import { propertyReplayEvent } from '../../../nodes/AgencyCrmTrigger/replay/missedChanges';
import type { ScriptedAnswer } from '../../support/fakeN8n';
import { errorAnswer, ok } from '../../support/fakeN8n';
import {
	EVENTS,
	NODE_NAME,
	PRODUCTION_URL,
	SECRET,
	SECRET_HEADER,
	TriggerWorld,
	record,
} from '../../support/triggerWorld';
import { waitFor } from '../../support/waitFor';

/**
 * After an activation (activation.ts, catchUp.ts): the suspension said, and the changes Agency CRM
 * could not deliver replayed through the trigger's own webhook, once, the window kept until each of
 * its parts was replayed in full.
 */
let world: TriggerWorld;
beforeEach(() => {
	world = new TriggerWorld();
});

const hookWith = (hookStatus: string) => ({
	id: 7,
	url: PRODUCTION_URL,
	origines: EVENTS,
	headers: { [SECRET_HEADER]: SECRET },
	status: hookStatus,
});
const catchUpOn = { dropRepeatedDeliveries: true, catchUp: true };
const LAST = Date.parse('2026-05-01T10:30:00Z');
const progress = () => world.nodeData().progress as IDataObject;
/** A workflow that took deliveries until LAST, its last contact 10. */
const followedUntil = (deliveredAt = LAST) =>
	world.activatedBefore(PRODUCTION_URL, { progress: { deliveredAt, lastContactId: 10 } });

/** An activation that finds the hook `hookStatus`, then the catch-up's searches answered by `searches`. */
const activate = (hookStatus: string, searches: ScriptedAnswer[], parameters: IDataObject, activationMode?: string) => {
	world.selfParameters = { ...catchUpOn, ...parameters };
	const hook = hookWith(hookStatus);
	return world.activate(
		[ok({ data: [hook] }), ok({ data: { ...hook, status: 'active' } }), ...searches],
		'trigger',
		PRODUCTION_URL,
		{ ...catchUpOn, ...parameters },
		activationMode,
	);
};
const catchUpLog = async (fake: Awaited<ReturnType<typeof activate>>) =>
	await waitFor(
		'the catch-up said',
		() => fake.logs.find((log) => log.message.includes('catch-up of workflow')),
		15_000,
		50,
	);
const properties = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false } });
const contacts = (ids: number[]) => ok({ data: ids.map((id) => ({ customers_id: id })), meta: { has_more: true } });

test('a hook found suspended is reactivated and the log says so; with the catch-up off, the log says nothing is replayed', async () => {
	followedUntil(Date.now() - 60_000);
	const fake = await world.activate([ok({ data: [hookWith('suspended')] }), ok({ data: hookWith('active') })]);
	expect(fake.requests()[1]).toMatchObject({ method: 'PUT', url: '/hooks/7', body: { url: PRODUCTION_URL } });
	expect(fake.logs).toEqual([
		{
			level: 'warn',
			message:
				'Agency CRM Trigger: webhook 7 of workflow "Test workflow" was suspended by Agency CRM (its deliveries had failed); this activation reactivated it.',
		},
		{
			level: 'warn',
			message:
				'Agency CRM Trigger: the changes made while workflow "Test workflow" could not take deliveries were not delivered, and are not replayed ("Catch Up on Missed Changes" is off).',
		},
	]);
});

test.each([
	['a hook found suspended', 'suspended', undefined, 'its webhook was suspended'],
	["n8n's start", 'active', 'init', 'n8n started'],
])(
	'%s: the properties changed since the last delivery and the contacts above the last one seen are replayed once, and the window closes',
	async (_case, hookStatus, activationMode, said) => {
		followedUntil();
		const fake = await activate(
			hookStatus,
			[properties([{ product_id: 8, created_at: '2026-04-01T00:00:00Z' }]), contacts([12, 11, 10])],
			{ events: ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'] },
			activationMode,
		);
		expect(progress().pending).toMatchObject({ propertiesSince: LAST - 15 * 60_000, contactsAbove: 10, attempts: 1 });
		const log = await catchUpLog(fake);
		expect(fake.requests().slice(2)).toEqual([
			{
				method: 'POST',
				url: '/products/search',
				qs: undefined,
				body: { last_modified: '2026-05-01T10:15:00+00:00', count: 100 },
			},
			{ method: 'POST', url: '/customers/search', qs: { include: 'origin,groups' }, body: { per_page: 200 } },
		]);
		expect(world.replayed.map((item) => [item.event_type, item.resource_id, item.caught_up])).toEqual([
			['PRODUCT_UPDATE', 8, true],
			['CUSTOMER_CREATE', 12, true],
			['CUSTOMER_CREATE', 11, true],
		]);
		expect(log).toEqual({
			level: 'info',
			message: `Agency CRM Trigger: catch-up of workflow "Test workflow" (${said}, attempt 1): properties changed since 2026-05-01T10:15:00+00:00: replayed 1 (PRODUCT_UPDATE 8); contacts created above 10: replayed 2 (CUSTOMER_CREATE 12, CUSTOMER_CREATE 11). What the workflow already took started nothing.`,
		});
		expect(progress()).toEqual({ deliveredAt: expect.any(Number), lastContactId: 12 });
		expect(progress().deliveredAt).toBeGreaterThan(LAST);
	},
);

test('a catch-up whose property search is refused (a missing right) keeps that part, says so, and the next activation replays it once', async () => {
	followedUntil();
	const events = { events: ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'] };
	const forbidden = errorAnswer(403, 'FORBIDDEN', 'Missing right RS:PRODUCT_SEARCH');
	const failed = await activate('suspended', [forbidden, contacts([11, 10])], events);
	const said = await catchUpLog(failed);
	expect(said.level).toBe('error');
	expect(said.message).toMatch(
		/^Agency CRM Trigger: catch-up of workflow "Test workflow" \(its webhook was suspended, attempt 1\): properties changed since 2026-05-01T10:15:00\+00:00: could not look \(.*403.*\), nothing replayed; contacts created above 10: replayed 1 \(CUSTOMER_CREATE 11\)\. What the workflow already took started nothing\. What was not replayed stays owed: the next activation or n8n start looks for it again/,
	);
	expect(progress().pending).toEqual({
		openedAt: expect.any(Number),
		reason: 'suspended',
		propertiesSince: LAST - 15 * 60_000,
		attempts: 1,
	});

	// The right given, an ordinary activation: only the properties are looked for again.
	const retried = await activate(
		'active',
		[properties([{ product_id: 8, created_at: '2026-04-01T00:00:00Z' }])],
		events,
	);
	expect((await catchUpLog(retried)).message).toBe(
		'Agency CRM Trigger: catch-up of workflow "Test workflow" (its webhook was suspended, attempt 2): properties changed since 2026-05-01T10:15:00+00:00: replayed 1 (PRODUCT_UPDATE 8). What the workflow already took started nothing.',
	);
	expect(world.replayed.map((item) => item.resource_id)).toEqual([11, 8]);
	expect(progress().pending).toBeUndefined();
	// Closed: a third activation replays nothing.
	const third = await activate('active', [], events);
	await new Promise((resolve) => setTimeout(resolve, 2500));
	expect(third.calls).toHaveLength(2);
});

test("a replay n8n did not take keeps the window; n8n's next start replays it, once", async () => {
	followedUntil();
	const events = { events: ['CUSTOMER_CREATE'] };
	world.selfRefusal = 400;
	const refused = await activate('suspended', [contacts([12, 11, 10])], events);
	expect((await catchUpLog(refused)).message).toMatch(
		/could not replay CUSTOMER_CREATE 12 \(n8n answered 400\), CUSTOMER_CREATE 11/,
	);
	expect(progress().pending).toMatchObject({ contactsAbove: 10 });
	world.selfRefusal = undefined;
	const again = await activate('active', [contacts([12, 11, 10])], events, 'init');
	await catchUpLog(again);
	expect(world.replayed.map((item) => item.resource_id)).toEqual([12, 11]);
	expect(progress().pending).toBeUndefined();
	const third = await activate('suspended', [contacts([12, 11, 10])], events);
	await catchUpLog(third);
	// Window from contact 12 on: nothing new to replay.
	expect(world.replayed).toHaveLength(2);
});

test.each([
	['Property Updated and Property Deleted', 'PRODUCT_UPDATE', ['PRODUCT_DELETE', 'PRODUCT_UPDATE']],
	['Property Created and Property Deleted', 'PRODUCT_CREATE', ['PRODUCT_CREATE', 'PRODUCT_DELETE']],
])(
	'with %s chosen, a property created during the suspension is replayed (as %s)',
	async (_case, replayedAs, events) => {
		followedUntil();
		const created = { product_id: 9, created_at: '2026-05-01T11:00:00Z' };
		const fake = await activate('suspended', [properties([created])], { events });
		await catchUpLog(fake);
		expect(world.replayed).toEqual([
			expect.objectContaining({ event_type: replayedAs, resource_id: 9, caught_up: true }),
		]);
	},
);

describe('the event a property is replayed as', () => {
	const since = LAST;
	test.each([
		['created since, creations chosen', '2026-05-01T11:00:00Z', ['PRODUCT_CREATE', 'PRODUCT_UPDATE'], 'PRODUCT_CREATE'],
		['changed since, updates chosen', '2026-04-01T00:00:00Z', ['PRODUCT_CREATE', 'PRODUCT_UPDATE'], 'PRODUCT_UPDATE'],
		[
			'created since, only updates and deletions chosen',
			'2026-05-01T11:00:00Z',
			['PRODUCT_DELETE', 'PRODUCT_UPDATE'],
			'PRODUCT_UPDATE',
		],
		[
			'changed since, only creations and deletions chosen',
			'2026-04-01T00:00:00Z',
			['PRODUCT_CREATE', 'PRODUCT_DELETE'],
			'PRODUCT_CREATE',
		],
		['no creation date', undefined, ['PRODUCT_UPDATE'], 'PRODUCT_UPDATE'],
		['only deletions chosen', '2026-05-01T11:00:00Z', ['CUSTOMER_CREATE', 'PRODUCT_DELETE'], undefined],
	])('%s', (_case, createdAt, events, expected) => {
		expect(propertyReplayEvent(createdAt, since, events)).toBe(expected);
	});
});

test("a window owed since before n8n's start (n8n 2.x calls no trigger at its start) is resumed at the first delivery, once", async () => {
	const owed = { openedAt: Date.now() - 3_600_000, reason: 'restarted', contactsAbove: 10, attempts: 1 };
	world.activatedBefore(PRODUCTION_URL, { progress: { deliveredAt: LAST, lastContactId: 10, pending: owed } });
	const parameters = { ...catchUpOn, events: ['CUSTOMER_CREATE'] };
	world.selfParameters = parameters;
	world.recordAnswer = (notification) => record({ customers_id: notification.resource_id });
	const first = await world.deliver(
		{ event_type: 'CUSTOMER_CREATE', resource_id: 13 },
		{ parameters, answers: [record({ customers_id: 13 }), contacts([13, 12, 10])] },
	);
	expect(first.items).toHaveLength(1);
	const said = await waitFor(
		'the resumed catch-up',
		() => first.fake.logs.find((log) => log.message.includes('catch-up')),
		15_000,
		50,
	);
	expect(said.message).toMatch(
		/\(n8n started, resumed at a delivery after n8n's start, attempt 1\): contacts created above 10: replayed 2/,
	);
	// 13, taken by its own delivery, replays as a repeat: only 12 starts.
	expect(world.replayed.map((item) => item.resource_id)).toEqual([12]);
	expect(progress().pending).toBeUndefined();
	const second = await world.deliver(
		{ event_type: 'CUSTOMER_CREATE', resource_id: 14 },
		{ parameters, answers: [record({ customers_id: 14 })] },
	);
	await new Promise((resolve) => setTimeout(resolve, 2500));
	expect(second.fake.logs.filter((log) => log.message.includes('catch-up'))).toEqual([]);
});

test('a replay of a state the workflow already took starts nothing, whatever its event; a new one starts, marked caught_up', async () => {
	world.activatedBefore();
	const parameters = { dropRepeatedDeliveries: true, events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'] };
	const contact5 = record({ customers_id: 5, firstname: 'Ana' });
	await world.deliver({ event_type: 'CUSTOMER_UPDATE', resource_id: 5 }, { parameters, answers: [contact5] });
	const replay = (id: number) => ({ event_type: 'CUSTOMER_CREATE', resource_id: id, catch_up: true });
	expect((await world.deliver(replay(5), { parameters, answers: [contact5] })).items).toEqual([]);
	const fresh = await world.deliver(replay(6), { parameters, answers: [record({ customers_id: 6 })] });
	expect(fresh.items).toEqual([expect.objectContaining({ resource_id: 6, caught_up: true })]);
	// After a replay, the same state under any event is a repeat.
	const update6 = { event_type: 'CUSTOMER_UPDATE', resource_id: 6 };
	expect((await world.deliver(update6, { parameters, answers: [record({ customers_id: 6 })] })).items).toEqual([]);
});

test('an ordinary activation of a live hook replays nothing; a hook registered afresh follows from now and the newest contact', async () => {
	followedUntil(Date.now() - 3_600_000);
	const live = await activate('active', [], {});
	await new Promise((resolve) => setTimeout(resolve, 2500));
	expect(live.calls).toHaveLength(2);
	expect(world.selfDeliveries).toEqual([]);

	world.stored.data = {};
	const before = Date.now();
	const fresh = await world.activate(
		[ok({ data: [] }), ok({ data: { id: 8, url: PRODUCTION_URL } }), ok({ data: [{ customers_id: 40 }] })],
		'trigger',
		PRODUCTION_URL,
		{ ...catchUpOn, events: ['CUSTOMER_CREATE'] },
	);
	expect(fresh.requests()[2]).toMatchObject({ method: 'POST', url: '/customers/search', body: { per_page: 1 } });
	expect(progress()).toEqual({ deliveredAt: expect.any(Number), lastContactId: 40 });
	expect(progress().deliveredAt as number).toBeGreaterThanOrEqual(before);
});

test('deliveries move the progress on through the journal, at most once a minute, and the highest contact created', async () => {
	followedUntil(Date.now() - 3_600_000);
	const parameters = { ...catchUpOn, events: ['CUSTOMER_CREATE'] };
	await world.deliver(
		{ event_type: 'CUSTOMER_CREATE', resource_id: 21 },
		{ parameters, answers: [record({ customers_id: 21 })] },
	);
	await world.deliver(
		{ event_type: 'CUSTOMER_CREATE', resource_id: 20 },
		{ parameters, answers: [record({ customers_id: 20 })] },
	);
	await world.written();
	expect(progress()).toEqual({ deliveredAt: expect.any(Number), lastContactId: 21 });
	expect(Date.now() - (progress().deliveredAt as number)).toBeLessThan(10_000);
	expect(world.nodeData()).toHaveProperty(`production`);
	expect(NODE_NAME).toBe('Agency CRM Trigger');
});
