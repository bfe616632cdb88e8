import type { IDataObject } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { takeJournal } from '../../../nodes/AgencyCrmTrigger/memory';
import { JOURNAL_KEY, PROCESS_STARTED_AT } from '../../../nodes/AgencyCrmTrigger/memory/scope';
import { MARGIN_MS, propertyReplayEvent } from '../../../nodes/AgencyCrmTrigger/replay/missedChanges';
import type { ScriptedAnswer } from '../../support/fakeN8n';
import { errorAnswer, ok, status } from '../../support/fakeN8n';
import {
	EVENTS,
	PRODUCTION_URL,
	SECRET,
	SECRET_HEADER,
	TriggerWorld,
	customerUpdate as customerUpdateOf,
	record,
	triggerOfAnotherProcess,
} from '../../support/triggerWorld';
import { waitFor } from '../../support/waitFor';

/**
 * After an activation (activation.ts, replay/): the hook updated whatever it is (production's hook
 * record says nothing of a suspension), and what changed since the watermark replayed through the
 * trigger's own webhook, once, the watermark kept until every change in the window was answered.
 */
let world: TriggerWorld;
beforeEach(() => {
	world = new TriggerWorld();
});

/** Production's hook record: `id, url, headers, authId, format, origines`, nothing more. */
const hook = {
	id: 7,
	url: PRODUCTION_URL,
	origines: EVENTS,
	headers: { [SECRET_HEADER]: SECRET },
	authId: null,
	format: null,
};
const replayOn = { dropRepeatedDeliveries: true, catchUp: true };
const WATERMARK = Date.parse('2026-05-01T10:30:00Z');
/** The searches look from the watermark less the margin: 10:15. */
const SINCE_TEXT = '2026-05-01T10:15:00+00:00';
const progress = () => world.nodeData().progress as IDataObject;
const followedUntil = (watermark = WATERMARK, owed: IDataObject[] = []) =>
	world.activatedBefore(PRODUCTION_URL, { progress: { watermark, owed } });

/** An activation that finds the hook (or none), then the replay's searches answered by `searches`. */
const activate = (
	searches: ScriptedAnswer[],
	parameters: IDataObject,
	found: IDataObject[] = [hook],
	activationMode?: string,
) => {
	world.selfParameters = { ...replayOn, ...parameters };
	const answers = found.length ? [ok({ data: found }), ok({ data: hook })] : [ok({ data: [] }), ok({ data: hook })];
	return world.activate(
		[...answers, ...searches],
		'trigger',
		PRODUCTION_URL,
		{ ...replayOn, ...parameters },
		activationMode,
	);
};
const replayLog = async (fake: { logs: Array<{ level: string; message: string }> }) =>
	await waitFor(
		'the replay said',
		() => fake.logs.find((log) => log.message.includes('replay of workflow')),
		15_000,
		50,
	);
const properties = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false } });
/** The contact search, newest first, each with its creation time. */
const contacts = (created: Array<[number, string]>) =>
	ok({ data: created.map(([id, at]) => ({ customers_id: id, created_at: at })), meta: { has_more: true } });

test.each([
	['a hook found (suspended or not: production does not say)', [hook], 'updated'],
	['no hook (deleted by a deactivation)', [], 'registered'],
])(
	'%s: the activation replays the properties changed and the contacts created since the watermark, once; the watermark moves',
	async (_case, found, said) => {
		followedUntil();
		const before = Date.now();
		const fake = await activate(
			[
				properties([{ product_id: 8, created_at: '2026-04-01T00:00:00Z' }]),
				contacts([
					[12, '2026-05-01T11:00:00Z'],
					[11, '2026-05-01T10:20:00Z'],
					[10, '2026-05-01T10:00:00Z'],
				]),
			],
			{ events: ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'] },
			found,
		);
		expect(fake.logs[0]).toEqual({
			level: 'info',
			message: expect.stringMatching(new RegExp(`^Agency CRM Trigger: ${said} webhook 7 of workflow "Test workflow"`)),
		});
		expect(progress()).toMatchObject({ watermark: WATERMARK, replaying: { until: expect.any(Number), attempts: 1 } });
		const log = await replayLog(fake);
		expect(fake.requests().slice(2)).toEqual([
			{ method: 'POST', url: '/products/search', qs: undefined, body: { last_modified: SINCE_TEXT, count: 100 } },
			{ method: 'POST', url: '/customers/search', qs: { include: 'origin,groups' }, body: { per_page: 200 } },
		]);
		expect(world.replayed.map((item) => [item.event_type, item.resource_id, item.caught_up])).toEqual([
			['PRODUCT_UPDATE', 8, true],
			['CUSTOMER_CREATE', 12, true],
			['CUSTOMER_CREATE', 11, true],
		]);
		expect(world.replayed[0].caught_up_window).toEqual({
			since: new Date(WATERMARK).toISOString(),
			until: expect.any(String),
		});
		expect(log).toEqual({
			level: 'info',
			message: `Agency CRM Trigger: replay of workflow "Test workflow" (the workflow was activated): properties changed since ${SINCE_TEXT}: 1; contacts created since ${SINCE_TEXT}: 2; replayed 3 (PRODUCT_UPDATE 8, CUSTOMER_CREATE 12, CUSTOMER_CREATE 11). What the workflow had already taken started nothing. Contact updates and deleted properties made meanwhile cannot be found again.`,
		});
		expect(progress().replaying).toBeUndefined();
		expect(progress().watermark as number).toBeGreaterThanOrEqual(before);
	},
);

test('a replay whose property search is refused (a missing right) keeps the watermark, says so, and the next activation replays it', async () => {
	followedUntil();
	const events = { events: ['PRODUCT_UPDATE'] };
	const forbidden = errorAnswer(403, 'FORBIDDEN', 'Missing right RS:PRODUCT_SEARCH');
	const failed = await activate([forbidden], events);
	const said = await replayLog(failed);
	expect(said.level).toBe('error');
	expect(said.message).toMatch(
		/^Agency CRM Trigger: replay of workflow "Test workflow" \(the workflow was activated\): properties changed: could not look \(.*403.*\); replayed 0\. .* What was not replayed stays owed: the next activation/,
	);
	expect(progress()).toMatchObject({ watermark: WATERMARK, replaying: { attempts: 1 } });

	// The right given, the next activation: the same window, a second attempt.
	const retried = await activate([properties([{ product_id: 8, created_at: '2026-04-01T00:00:00Z' }])], events);
	await replayLog(retried);
	expect(world.replayed.map((item) => item.resource_id)).toEqual([8]);
	expect(progress().replaying).toBeUndefined();
	expect(progress().watermark as number).toBeGreaterThan(WATERMARK);
});

test('a replay n8n did not take keeps the watermark; the next activation replays it again, and what was taken starts nothing', async () => {
	followedUntil();
	const events = { events: ['CUSTOMER_CREATE'] };
	const created: Array<[number, string]> = [
		[12, '2026-05-01T11:00:00Z'],
		[10, '2026-05-01T10:00:00Z'],
	];
	world.selfRefusal = 400;
	const refused = await activate([contacts(created)], events);
	expect((await replayLog(refused)).message).toMatch(/could not replay CUSTOMER_CREATE 12 \(n8n answered 400\)/);
	expect(progress()).toMatchObject({ watermark: WATERMARK });
	world.selfRefusal = undefined;
	await replayLog(await activate([contacts(created)], events));
	expect(world.replayed.map((item) => item.resource_id)).toEqual([12]);
	expect(progress().replaying).toBeUndefined();
});

test('with the replay off, an activation follows from now: nothing replayed, the deliveries owed dropped and said', async () => {
	followedUntil(WATERMARK, [{ event: 'CUSTOMER_UPDATE', id: 5, at: WATERMARK, failed: true }]);
	const before = Date.now();
	const fake = await activate([], { catchUp: false });
	expect(fake.logs.map((log) => log.message)).toContainEqual(
		'Agency CRM Trigger: 1 change(s) of workflow "Test workflow" whose record could not be read are not replayed ("Catch Up on Missed Changes" is off).',
	);
	expect(progress().owed).toEqual([]);
	expect(progress().watermark as number).toBeGreaterThanOrEqual(before);
	await new Promise((resolve) => setTimeout(resolve, 2500));
	expect(world.selfDeliveries).toEqual([]);
});

test('the first activation ever follows from now and replays nothing', async () => {
	world.stored.data = {};
	const before = Date.now();
	await activate([], {}, []);
	expect(progress()).toEqual({ watermark: expect.any(Number), followedFrom: progress().watermark, owed: [] });
	expect(progress().watermark as number).toBeGreaterThanOrEqual(before);
	await new Promise((resolve) => setTimeout(resolve, 2500));
	expect(world.selfDeliveries).toEqual([]);
});

test('a delivery whose record could not be read is replayed alone, by its event and id (a contact update no search finds)', async () => {
	followedUntil(Date.now(), [{ event: 'CUSTOMER_UPDATE', id: 5, at: Date.now() - 60_000, failed: true }]);
	world.recordAnswer = (notification) => record({ customers_id: notification.resource_id, firstname: 'Ana' });
	const fake = await activate([], { events: ['CUSTOMER_UPDATE'] });
	expect((await replayLog(fake)).message).toMatch(/deliveries owed .*: 1; replayed 1 \(CUSTOMER_UPDATE 5\)/);
	expect(world.replayed).toEqual([
		expect.objectContaining({ event_type: 'CUSTOMER_UPDATE', resource_id: 5, caught_up: true }),
	]);
	expect(world.replayed[0]).not.toHaveProperty('caught_up_window');
	expect(progress().owed).toEqual([]);
});

test('a journal carrying a delivery whose read failed writes it owed, and plans its replay a minute later in the process that takes it', () => {
	world.activatedBefore(PRODUCTION_URL, { progress: { watermark: Date.now(), owed: [] } });
	world.scope().lookedBeforeStart = true;
	const failed = { event: 'CUSTOMER_UPDATE', id: 5, at: Date.now() };
	const journal = { [JOURNAL_KEY]: { failed: [failed], takenUpTo: Date.now() } };
	const { webhook, savedStaticData } = world.deliveryContext(journal, { parameters: replayOn });
	const plan = takeJournal(webhook, journal, { url: PRODUCTION_URL, secret: SECRET });
	expect(plan).toEqual({
		owed: [failed],
		why: 'their record could not be read',
		delayMs: 60_000,
		write: expect.any(Function),
	});
	expect(savedStaticData()?.[`node:Agency CRM Trigger`]).toMatchObject({
		progress: { owed: [{ ...failed, failed: true }] },
	});
	expect(takeJournal(webhook, customerUpdateOf(5), { url: PRODUCTION_URL, secret: SECRET })).toBeUndefined();
});

test("n8n's start (2.x calls no trigger): the first journal a process takes replays what changed before it, and the deliveries n8n stopped reading", async () => {
	const stoppedWhileReading = { event: 'CUSTOMER_UPDATE', id: 5, at: PROCESS_STARTED_AT - 120_000 };
	world.activatedBefore(PRODUCTION_URL, { progress: { watermark: WATERMARK, owed: [stoppedWhileReading] } });
	const parameters = { ...replayOn, events: ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'] };
	world.selfParameters = parameters;
	world.recordAnswer = (notification) => record({ id: notification.resource_id, v: 2 });
	world.journalAnswers = [properties([{ product_id: 9 }])];
	// Any delivery after the start: its journal is the first this process takes.
	const first = await world.deliver(
		{ event_type: 'PRODUCT_UPDATE', resource_id: 20 },
		{ parameters, answers: [record({ id: 20 })] },
		triggerOfAnotherProcess(),
	);
	expect(first.items).toHaveLength(1);
	await waitFor('the replay', () => (world.replayed.length >= 2 ? true : undefined), 15_000, 50);
	expect(world.replayed.map((item) => [item.event_type, item.resource_id])).toEqual([
		['CUSTOMER_UPDATE', 5],
		['PRODUCT_UPDATE', 9],
	]);
	await waitFor('the window closed', () =>
		progress().replaying === undefined && progress().watermark !== WATERMARK ? true : undefined,
	);
	expect(progress().owed).toEqual([]);
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
	// After a replay, the same state under any event is a repeat (within the horizon).
	const update6 = { event_type: 'CUSTOMER_UPDATE', resource_id: 6 };
	expect((await world.deliver(update6, { parameters, answers: [record({ customers_id: 6 })] })).items).toEqual([]);
});

test('deliveries move the watermark through their journals; a delivery under way holds it back', async () => {
	world.activatedBefore(PRODUCTION_URL, { progress: { watermark: WATERMARK, owed: [] } });
	world.scope().lookedBeforeStart = true;
	const parameters = { ...replayOn, events: ['CUSTOMER_UPDATE'] };
	const before = Date.now();
	await world.deliver(
		{ event_type: 'CUSTOMER_UPDATE', resource_id: 21 },
		{ parameters, answers: [record({ customers_id: 21 })] },
	);
	await world.written();
	expect(progress().watermark as number).toBeGreaterThanOrEqual(before);
	// A read that never ends: the delivery stays under way, owed, and the watermark waits for it.
	const hanging = world.deliveryContext({ event_type: 'CUSTOMER_UPDATE', resource_id: 22 }, { parameters });
	Object.assign(hanging.webhook.helpers, { httpRequestWithAuthentication: () => new Promise(() => {}) });
	void new AgencyCrmTrigger().webhook.call(hanging.webhook);
	await new Promise((resolve) => setTimeout(resolve, 50));
	// The hanging delivery's arrival is stamped inside the node, a tick after any time read here before the call:
	// the bound is the next delivery's arrival, which the watermark reaches only if it does not wait.
	const nextArrives = Date.now();
	await world.deliver(
		{ event_type: 'CUSTOMER_UPDATE', resource_id: 23 },
		{ parameters, answers: [record({ customers_id: 23 })] },
	);
	await world.written();
	expect(progress().watermark as number).toBeLessThan(nextArrives);
	expect(progress().owed).toEqual([expect.objectContaining({ event: 'CUSTOMER_UPDATE', id: 22 })]);
	expect(status(200).statusCode).toBe(200);
});

describe('the event a property is replayed as', () => {
	const since = WATERMARK;
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

test('the margin: 15 minutes, more than a read can take and than the clocks of the CRM and n8n differ', () => {
	expect(MARGIN_MS).toBe(15 * 60_000);
});
