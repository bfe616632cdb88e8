import type { IDataObject } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { recordFingerprint } from '../../../nodes/AgencyCrmTrigger/decision';
import { REMEMBERED_RECORDS } from '../../../nodes/AgencyCrmTrigger/memory/store';
import type { ScriptedAnswer } from '../../support/fakeN8n';
import { fakeContext, ok, status } from '../../support/fakeN8n';
import {
	NODE_NAME,
	PRODUCTION_URL,
	SECRET,
	SECRET_HEADER,
	TriggerWorld,
	customerUpdate,
	record,
	started,
	triggerOfAnotherProcess,
} from '../../support/triggerWorld';

/**
 * Drop Repeated Deliveries and Skip Unchanged Records through the node (memory/index.ts, and the
 * journals that write it: memory/scope.ts): production sends no delivery id, so a repeat is the same
 * event on a record in the same state, and the memory must hold across n8n processes and restarts.
 */
let world: TriggerWorld;
beforeEach(() => {
	world = new TriggerWorld();
	world.activatedBefore();
});

/** Contact 5 as the API answers it, with these changes. */
const contact = (changes: IDataObject = {}) =>
	record({
		customers_id: 5,
		firstname: 'Ana',
		email: 'ana@example.com',
		updated_at: '2026-05-01T10:00:00Z',
		...changes,
	});

/** n8n's answer to a delivery the node left it to answer. */
function answerAsN8n(fake: ReturnType<typeof fakeContext>, statusCode: number) {
	fake.responseObject.status(statusCode);
	fake.responseObject.emit('finish');
}

describe('Drop Repeated Deliveries', () => {
	const drop = { dropRepeatedDeliveries: true };

	test('a delivery repeating one taken starts nothing: answered 200, counted and logged', async () => {
		const first = await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(first.items).toHaveLength(1);
		// Fetch Full Record is off: the record is fetched to compare, and not output.
		expect(first.fake.requests()).toEqual([
			{ method: 'GET', url: '/customers/5', qs: { include: 'origin,groups' }, body: undefined },
		]);
		expect(first.items[0]).not.toHaveProperty('record');
		const repeat = await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(repeat.items).toEqual([]);
		expect(repeat.fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(repeat.fake.logs).toEqual([
			{
				level: 'info',
				message:
					'Agency CRM Trigger: CUSTOMER_UPDATE customer 5 repeats a delivery already taken (the record is unchanged since): nothing started (1 repeat(s) dropped by this n8n process).',
			},
		]);
		const again = await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(again.fake.logs[0].message).toMatch(/\(2 repeat\(s\) dropped by this n8n process\)\.$/);
	});

	test.each([
		['a field', { firstname: 'Anna' }],
		['the timestamp alone', { updated_at: '2026-05-01T10:00:01Z' }],
		['related data', { consent: { status: 'revoked' } }],
	])('a change between two deliveries (%s) is never a repeat', async (_case, change) => {
		await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const changed = await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact(change)] });
		expect(changed.items).toHaveLength(1);
		expect((await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact(change)] })).items).toEqual(
			[],
		);
	});

	test('the same state under another event starts: a contact created, then updated before the first delivery was handled', async () => {
		const parameters = { ...drop, events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'] };
		const created = { event_type: 'CUSTOMER_CREATE', resource_id: 5 };
		expect((await world.deliver(created, { parameters, answers: [contact()] })).items).toHaveLength(1);
		expect((await world.deliver(customerUpdate(5), { parameters, answers: [contact()] })).items).toHaveLength(1);
		expect((await world.deliver(created, { parameters, answers: [contact()] })).items).toEqual([]);
		expect((await world.deliver(customerUpdate(5), { parameters, answers: [contact()] })).items).toEqual([]);
	});

	test('what a delivery taught is written soon after, by a journal to its own webhook, so that another process knows it', async () => {
		await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(world.rememberedKeys()).toEqual([]);
		await world.written();
		expect(world.rememberedKeys()).toEqual(['customer:5']);
		expect(world.journals()).toEqual([
			{ seen: expect.stringMatching(/^customer:5 \S{22} - CUSTOMER_UPDATE \w+$/), takenUpTo: expect.any(Number) },
		]);
		const elsewhere = await world.deliver(
			customerUpdate(5),
			{ parameters: drop, answers: [contact()] },
			triggerOfAnotherProcess(),
		);
		expect(elsewhere.items).toEqual([]);
	});

	test('the decisions of a burst go in one journal, not one write each', async () => {
		for (const id of [11, 12, 13, 14, 15]) {
			await world.deliver(customerUpdate(id), { parameters: drop, answers: [record({ customers_id: id })] });
		}
		await world.written();
		expect(world.journals()).toHaveLength(1);
		expect(world.rememberedKeys().sort()).toEqual([
			'customer:11',
			'customer:12',
			'customer:13',
			'customer:14',
			'customer:15',
		]);
	});

	test('a retry that comes while the first delivery is still reading its record waits for its decision: a repeat', async () => {
		const first = world.deliveryContext(customerUpdate(5), { parameters: drop });
		Object.assign(first.webhook.helpers, {
			httpRequestWithAuthentication: async () => {
				await new Promise((resolve) => setTimeout(resolve, 200));
				return contact();
			},
		});
		const firstRun = new AgencyCrmTrigger().webhook.call(first.webhook);
		await new Promise((resolve) => setTimeout(resolve, 20));
		const retry = world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(started(await firstRun)).toHaveLength(1);
		expect((await retry).items).toEqual([]);
	});

	/** A replay the trigger sent itself: answered by n8n once it has stored the execution. */
	const replayOf = (id: number) => ({ ...customerUpdate(id), catch_up: true });

	test('a replay n8n could not store (it answered 500) counts nothing: the next replay of it starts the workflow', async () => {
		const failed = await world.deliver(replayOf(5), { parameters: drop, answers: [contact()], startStatus: 500 });
		expect(failed.fake.response.statusCode).toBe(500);
		await world.written();
		expect(world.rememberedKeys()).toEqual([]);
		expect((await world.deliver(replayOf(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
	});

	test.each([
		[200, []],
		[500, [expect.objectContaining({ resource_id: 5 })]],
	])(
		'a delivery that comes while a replay of its state is still being stored waits for its answer (%i): a repeat only if it was stored',
		async (firstAnswer, retryStarts) => {
			const first = world.deliveryContext(replayOf(5), { parameters: drop, answers: [contact()] });
			expect(started(await new AgencyCrmTrigger().webhook.call(first.webhook))).toHaveLength(1);
			const retry = world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
			await new Promise((resolve) => setTimeout(resolve, 50));
			answerAsN8n(first, firstAnswer);
			expect((await retry).items).toEqual(retryStarts);
		},
	);

	test('a journal another process erased (whole writes) comes back with the next: every decision of the last minutes is rewritten', async () => {
		await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		await world.written();
		// Another process saves its copy, loaded before the journal: customer 5 is erased.
		world.stored.data = { [`node:${NODE_NAME}`]: { ...world.nodeData(), memory: '' } };
		await world.deliver(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] });
		await world.written();
		expect(world.rememberedKeys().sort()).toEqual(['customer:5', 'customer:6']);
	});

	test('a fetch that fails past its patience is remembered as owed, no state taken: its replay starts the workflow', async () => {
		const throttled = status(429, { 'retry-after': '3600' }, { error: { code: 'RATE_LIMITED', message: 'Slow down' } });
		expect((await world.deliver(customerUpdate(5), { parameters: drop, answers: [throttled] })).items).toEqual([]);
		await world.written();
		expect(world.rememberedKeys()).toEqual([]);
		expect(world.nodeData().progress).toMatchObject({ owed: [{ event: 'CUSTOMER_UPDATE', id: 5, failed: true }] });
		expect((await world.deliver(replayOf(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
	});

	test(`remembers the last ${REMEMBERED_RECORDS} records: the least recently taken is forgotten, and its repeat starts again (fail open)`, async () => {
		const lines = Array.from(
			{ length: REMEMBERED_RECORDS + 1 },
			(_, id) => `customer:${id} s${id} - CUSTOMER_UPDATE ${(id + 1).toString(36)}`,
		);
		await world.deliver({ trigger: 'none' });
		world.stored.data[`node:${NODE_NAME}`] = { ...world.nodeData(), memory: lines.slice(0, 1).join('\n') };
		// A journal with a thousand more: the oldest goes.
		const journal = { agency_crm_trigger_journal: { seen: lines.slice(1).join('\n') } };
		await world.deliver(journal);
		expect(world.rememberedKeys()).toHaveLength(REMEMBERED_RECORDS);
		expect(world.rememberedKeys()).not.toContain('customer:0');
		expect(world.rememberedKeys()).toContain(`customer:${REMEMBERED_RECORDS}`);
	});

	test('unreadable memory, and what versions before kept (delivery ids, fingerprints, entries as arrays), count as empty and are cleared', async () => {
		world.stored.data[`node:${NODE_NAME}`] = {
			...world.nodeData(),
			memory: 'customer:5 not a valid entry',
			seen: [['customer:6', recordFingerprint({ customers_id: 6 }, []), null, 'CUSTOMER_UPDATE', 1]],
			seenDeliveries: ['d-1'],
			seenRecords: [['customer:5', 'abc']],
		};
		expect((await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
		expect(
			(await world.deliver(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] })).items,
		).toHaveLength(1);
		await world.written();
		expect(world.nodeData()).not.toHaveProperty('seenDeliveries');
		expect(world.nodeData()).not.toHaveProperty('seenRecords');
		expect(world.nodeData()).not.toHaveProperty('seen');
		expect(world.rememberedKeys().sort()).toEqual(['customer:5', 'customer:6']);
	});

	test('n8n unable to reach its own webhook: the journal is sent again, then the log says so; this process still knows', async () => {
		world.selfReachable = false;
		const first = world.deliveryContext(customerUpdate(5), { parameters: drop, answers: [contact()] });
		await new AgencyCrmTrigger().webhook.call(first.webhook);
		answerAsN8n(first, 200);
		await world.written();
		expect(world.selfDeliveries).toHaveLength(3);
		expect(first.logs.map((log) => log.level)).toEqual(['error']);
		expect(first.logs[0].message).toMatch(/could not write what it remembers through the workflow's own webhook URL/);
		expect((await world.deliver(customerUpdate(5), { parameters: drop, answers: [contact()] })).items).toEqual([]);
	}, 20_000);
});

describe('Skip Unchanged Records', () => {
	const skip = { fetchFullRecord: true, skipUnchangedRecords: true };
	const ana = { customers_id: 5, firstname: 'Ana', email: 'ana@example.com', updated_at: '2026-05-01T10:00:00Z' };
	const deliver = (id: number, body: IDataObject, parameters: IDataObject = skip, answers?: ScriptedAnswer[]) =>
		world.deliver(customerUpdate(id), { parameters, answers: answers ?? [record(body)] });

	test('a write-back of the same values (only updated_at moved) starts nothing; a real change starts', async () => {
		expect((await deliver(5, ana)).items).toHaveLength(1);
		const echo = await deliver(5, { ...ana, updated_at: '2026-05-01T10:00:03Z' });
		expect(echo.items).toEqual([]);
		expect(echo.fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(echo.fake.logs.map((log) => log.message)).toEqual([
			'Agency CRM Trigger: CUSTOMER_UPDATE customer 5 is unchanged but for the fields to ignore (Skip Unchanged Records): nothing started (1 unchanged record(s) dropped by this n8n process).',
		]);
		const changed = await deliver(5, { ...ana, firstname: 'Anna', updated_at: '2026-05-01T10:05:00Z' });
		expect(changed.items).toEqual([
			expect.objectContaining({ record: expect.objectContaining({ firstname: 'Anna' }) }),
		]);
	});

	test('the echo reaching another process starts nothing either: the compared fingerprint is in the journal', async () => {
		expect((await deliver(5, ana)).items).toHaveLength(1);
		await world.written();
		const echo = await world.deliver(
			customerUpdate(5),
			{ parameters: skip, answers: [record({ ...ana, updated_at: 'later' })] },
			triggerOfAnotherProcess(),
		);
		expect(echo.items).toEqual([]);
	});

	test("the record compared is fetched with what a change can touch: a contact's address, consent and SMS opt-out, a property's criteria and photos (production's fetch values); each can be removed", async () => {
		const contactFetch = await deliver(5, ana, { ...skip, customerInclude: ['groups'] });
		expect(contactFetch.fake.requests()[0].qs).toEqual({ include: 'origin,groups,address,consent,stopSms' });
		const product = await world.deliver(
			{ event_type: 'PRODUCT_UPDATE', resource_id: 8 },
			{ parameters: skip, answers: [record({ product_id: 8 })] },
		);
		expect(product.fake.requests()[0].qs).toEqual({
			fetch: 'criteres_fulltext,criteres_flag,criteres_number,criteres_text,products_photos',
		});
		const removed = await deliver(6, {}, { ...skip, contactCompared: [] });
		expect(removed.fake.requests()[0].qs).toEqual({ include: 'origin,groups' });
		const unskipped = await deliver(7, {}, { fetchFullRecord: true });
		expect(unskipped.fake.requests()[0].qs).toEqual({ include: 'origin,groups' });
	});

	test.each([
		['a consent revoked', { consent: { status: 'revoked', revoked_at: '2026-05-02T09:00:00Z' } }],
		['an SMS opt-out', { stop_sms: true }],
		['a new address', { address: { city: 'Lyon' } }],
	])('%s is a change: the workflow starts', async (_case, change) => {
		const withRelations = { ...ana, consent: { status: 'collected' }, stop_sms: false, address: { city: 'Annecy' } };
		await deliver(5, withRelations);
		expect((await deliver(5, { ...withRelations, ...change, updated_at: '2026-05-02T09:00:00Z' })).items).toHaveLength(
			1,
		);
	});

	test('a price drop (a criterion) or a new photo starts the workflow by default', async () => {
		const productUpdate = { event_type: 'PRODUCT_UPDATE', resource_id: 8 };
		const listing = {
			id: 8,
			price: 320000,
			last_modified: 't0',
			criteres_number: [{ critere_id: 'Prix', critere_value: 320000 }],
			products_photos: [{ id: 1 }],
		};
		await world.deliver(productUpdate, { parameters: skip, answers: [record(listing)] });
		let current: IDataObject = listing;
		for (const change of [
			{ criteres_number: [{ critere_id: 'Prix', critere_value: 299000 }] },
			{ products_photos: [{ id: 1 }, { id: 2 }] },
		]) {
			current = { ...current, ...change, last_modified: `${String(current.last_modified)}'` };
			expect((await world.deliver(productUpdate, { parameters: skip, answers: [record(current)] })).items).toHaveLength(
				1,
			);
		}
		// last_modified alone (production's timestamp) is ignored by default.
		const touched = { ...current, last_modified: 'later' };
		expect((await world.deliver(productUpdate, { parameters: skip, answers: [record(touched)] })).items).toEqual([]);
	});

	test('ignored names apply at every depth; key order is no change; other fields count', async () => {
		const parameters = { ...skip, ignoredFields: 'updated_at, views' };
		const product = { product_id: 8, title: 'Loft', views: 3, lots: [{ lot_id: 1, updated_at: 't1' }] };
		const productUpdate = { event_type: 'PRODUCT_UPDATE', resource_id: 8 };
		await world.deliver(productUpdate, { parameters, answers: [record(product)] });
		const reordered = { lots: [{ updated_at: 't2', lot_id: 1 }], views: 40, title: 'Loft', product_id: 8 };
		expect((await world.deliver(productUpdate, { parameters, answers: [record(reordered)] })).items).toEqual([]);
		const lotChanged = { ...product, lots: [{ lot_id: 2, updated_at: 't1' }] };
		expect((await world.deliver(productUpdate, { parameters, answers: [record(lotChanged)] })).items).toHaveLength(1);
	});

	test('with no field ignored, an updated_at change is a change', async () => {
		const parameters = { ...skip, ignoredFields: '' };
		await deliver(5, ana, parameters);
		expect((await deliver(5, { ...ana, updated_at: 'later' }, parameters)).items).toHaveLength(1);
	});

	test('a customer and a product with the same id are different records', async () => {
		await deliver(5, { same: true });
		const product = await world.deliver(
			{ event_type: 'PRODUCT_UPDATE', resource_id: 5 },
			{ parameters: skip, answers: [record({ same: true })] },
		);
		expect(product.items).toHaveLength(1);
	});

	test('fingerprints are short, so the memory stays small whatever the record size', () => {
		const big = { text: 'x'.repeat(100_000) };
		expect(recordFingerprint(big, [])).toMatch(/^[A-Za-z0-9_-]{22}$/);
		expect(recordFingerprint(big, [])).not.toBe(recordFingerprint({ text: 'y' }, []));
	});
});

describe('options changed at an activation', () => {
	const hookHere = { id: 7, url: PRODUCTION_URL, origines: [], headers: { [SECRET_HEADER]: SECRET } };
	const reactivate = (parameters: IDataObject) =>
		world.activate([ok({ data: [hookHere] }), ok({ data: hookHere })], 'trigger', undefined, {
			...parameters,
			events: ['CUSTOMER_UPDATE'],
		});

	test('Skip Unchanged turned off forgets what it compared, so turning it on again compares with nothing older (fail open)', async () => {
		const both = { fetchFullRecord: true, skipUnchangedRecords: true, dropRepeatedDeliveries: true };
		const ana = { customers_id: 5, firstname: 'Ana', updated_at: 't0' };
		await world.deliver(customerUpdate(5), { parameters: both, answers: [record(ana)] });
		await world.written();
		expect(String(world.nodeData().memory)).not.toMatch(/ - /);
		await reactivate({ dropRepeatedDeliveries: true });
		expect(String(world.nodeData().memory)).toMatch(/^customer:5 \S+ - CUSTOMER_UPDATE/);
		await reactivate(both);
		const echo = { ...ana, updated_at: 'later' };
		expect((await triggerOfAnotherProcessDeliver(echo, both)).items).toHaveLength(1);
	});

	test('both options off forget every record, and deliveries write nothing', async () => {
		await world.deliver(customerUpdate(5), { parameters: { dropRepeatedDeliveries: true }, answers: [contact()] });
		await world.written();
		await reactivate({});
		expect(world.nodeData()).not.toHaveProperty('memory');
		const off = await world.deliver(customerUpdate(5));
		expect(off.items).toHaveLength(1);
		expect(off.fake.calls).toHaveLength(0);
		await world.written();
		expect(world.journals()).toHaveLength(1);
	});

	const triggerOfAnotherProcessDeliver = (body: IDataObject, parameters: IDataObject) =>
		world.deliver(customerUpdate(5), { parameters, answers: [record(body)] }, triggerOfAnotherProcess());
});

describe('Answer: From the Workflow', () => {
	test('a delivery the workflow answers is remembered like any other: its journal writes it', async () => {
		const answering = { answer: 'workflow', dropRepeatedDeliveries: true };
		const viaAnswer = (answers: ScriptedAnswer[]) =>
			world.deliver(customerUpdate(5), { parameters: answering, answers, webhookName: 'setup' });
		expect((await viaAnswer([contact()])).items).toHaveLength(1);
		await world.written();
		expect(world.rememberedKeys()).toEqual(['customer:5']);
		const elsewhere = await world.deliver(
			customerUpdate(5),
			{ parameters: answering, answers: [contact()], webhookName: 'setup' },
			triggerOfAnotherProcess(),
		);
		expect(elsewhere.items).toEqual([]);
	});
});
