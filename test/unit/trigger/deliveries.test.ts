import type { IDataObject } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { ANSWER_BUDGET_MS } from '../../../nodes/AgencyCrmTrigger/receive';
import { status } from '../../support/fakeN8n';
import { PRODUCTION_URL, SECRET, TriggerWorld, customerUpdate, record, started } from '../../support/triggerWorld';

/**
 * receive.ts: a delivery from its secret to its answer, through the node as n8n calls it (a fake
 * n8n, test/support/fakeN8n.ts): what it names, what is fetched, what a record gone does.
 */
let world: TriggerWorld;
beforeEach(() => {
	world = new TriggerWorld();
});

describe('the secret', () => {
	test.each([
		['no secret header', null],
		['a wrong secret of the same length', 'f'.repeat(64)],
		['a wrong secret of another length', 'short'],
		['the secret with a character changed', `${SECRET.slice(0, -1)}0`],
	])('a delivery with %s gets 401 and starts nothing', async (_case, secret) => {
		world.activatedBefore();
		const { fake, items } = await world.deliver(customerUpdate(5), { secret });
		expect(fake.response).toEqual({ statusCode: 401, body: { error: 'Missing or wrong webhook secret' } });
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
	});

	test.each([
		['malformed JSON', '{"event_type": "CUSTOMER_UPDATE", "resource_id": '],
		['JSON that is not an object', '[{"event_type": "CUSTOMER_UPDATE", "resource_id": 5}]'],
		['words', 'event_type=CUSTOMER_UPDATE'],
	])('a delivery with the secret whose text body is %s gets 400 and starts nothing', async (_case, body) => {
		world.activatedBefore();
		const { fake, items } = await world.deliver(body, { parameters: { fetchFullRecord: true } });
		expect(fake.response).toEqual({ statusCode: 400, body: { error: 'The body is not a JSON notification' } });
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
	});

	test('a notification sent as text is read as JSON', async () => {
		world.activatedBefore();
		const { fake, items } = await world.deliver(JSON.stringify(customerUpdate(5)));
		expect(fake.response.statusCode).toBe(200);
		expect(items).toEqual([expect.objectContaining({ event_type: 'CUSTOMER_UPDATE', resource_id: 5 })]);
	});

	test('a delivery to a workflow that registered nothing is refused', async () => {
		const { fake, items } = await world.deliver(customerUpdate(5), { secret: '' });
		expect(fake.response.statusCode).toBe(401);
		expect(items).toEqual([]);
	});

	test('the right secret starts the workflow, and n8n answers 200 once it has stored the execution', async () => {
		world.activatedBefore();
		const { fake, items } = await world.deliver(customerUpdate(5));
		// The trigger leaves the answer to n8n, which sends the body the trigger returned.
		expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(items).toHaveLength(1);
	});

	describe('a workflow activated under 0.1.0, which kept the secret itself, and still active after the update', () => {
		beforeEach(() => {
			world.stored.data = {
				'node:Agency CRM Trigger': { production: { hookId: 7, secret: SECRET, webhookUrl: PRODUCTION_URL } },
			};
		});

		test('takes deliveries with that secret, and no other', async () => {
			expect((await world.deliver(customerUpdate(5))).items).toHaveLength(1);
			const forged = await world.deliver(customerUpdate(5), { secret: 'f'.repeat(64) });
			expect(forged.fake.response.statusCode).toBe(401);
			expect(forged.items).toEqual([]);
		});
	});
});

describe('what a delivery names', () => {
	beforeEach(() => world.activatedBefore());

	test.each([
		['resource_id', { event_type: 'CUSTOMER_UPDATE', resource_type: 'customer', resource_id: 5 }, 'customer', 5],
		['customers_id', { event_type: 'CUSTOMER_UPDATE', customers_id: 5 }, 'customer', 5],
		['product_id', { event_type: 'PRODUCT_UPDATE', product_id: 8 }, 'product', 8],
		['id', { event_type: 'PRODUCT_UPDATE', id: '8' }, 'product', '8'],
		['customers_id and no event type', { customers_id: 5 }, 'customer', 5],
		[
			'a capitalised resource_type',
			{ event_type: 'CUSTOMER_UPDATE', resource_type: 'Customer', resource_id: 5 },
			'customer',
			5,
		],
	])('reads the id from %s and fetches that record', async (_key, notification, type, id) => {
		const path = type === 'customer' ? `/customers/${id}` : `/products/${id}`;
		const { fake, items } = await world.deliver(notification, {
			answers: [record({ name: 'the record' })],
			parameters: { fetchFullRecord: true },
		});
		// A contact is always read with its origin and groups (issue 26).
		const qs = type === 'customer' ? { include: 'origin,groups' } : undefined;
		expect(fake.requests()).toEqual([{ method: 'GET', url: path, qs, body: undefined }]);
		expect(items).toEqual([
			{
				event_type: (notification as IDataObject).event_type ?? null,
				resource_type: type,
				resource_id: id,
				identified: true,
				received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				notification,
				record: { name: 'the record' },
			},
		]);
	});

	test('property.updated reads as PRODUCT_UPDATE (docs/assumptions.md)', async () => {
		const { fake, items } = await world.deliver(
			{ event_type: 'property.updated', product_id: 8 },
			{ answers: [record({ product_id: 8 })], parameters: { fetchFullRecord: true } },
		);
		expect(fake.requests()[0].url).toBe('/products/8');
		expect(items[0]).toMatchObject({ event_type: 'PRODUCT_UPDATE', resource_type: 'product', resource_id: 8 });
	});

	test.each([
		['no id key', { event_type: 'CUSTOMER_UPDATE', delivery_id: 'd-1' }],
		['an id but no type', { id: 4, delivery_id: 'd-1' }],
		['an empty body', {}],
	])(
		'a notification with %s starts the workflow flagged, with the raw notification and no fetch',
		async (_case, notification) => {
			const { fake, items } = await world.deliver(notification, {
				parameters: { fetchFullRecord: true, skipUnchangedRecords: true },
			});
			expect(fake.calls).toHaveLength(0);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({ identified: false, notification });
			expect(items[0].warning).toContain('resource_id, customers_id, product_id or id');
			expect(items[0]).not.toHaveProperty('record');
		},
	);

	test('a chosen property.updated (an expression) matches its deliveries, whatever their spelling (issue 17, point 6)', async () => {
		for (const eventType of ['property.updated', 'PRODUCT_UPDATE', 'Property.Updated']) {
			const { items } = await world.deliver(
				{ event_type: eventType, product_id: 8 },
				{ parameters: { events: ['property.updated'] } },
			);
			expect(items).toEqual([expect.objectContaining({ event_type: 'PRODUCT_UPDATE', resource_id: 8 })]);
		}
		const other = await world.deliver(
			{ event_type: 'PRODUCT_CREATE', product_id: 8 },
			{ parameters: { events: ['property.updated'] } },
		);
		expect(other.items).toEqual([]);
	});

	test('an event that was not chosen starts nothing', async () => {
		const { fake, items } = await world.deliver(
			{ event_type: 'PRODUCT_CREATE', product_id: 1 },
			{ parameters: { events: ['CUSTOMER_UPDATE'] } },
		);
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
		// Answered before anything is read: the same acknowledgement as any delivery.
		expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
	});

	test('deliveries are matched against the events of a comma-separated text', async () => {
		const parameters = { events: 'CUSTOMER_UPDATE, PRODUCT_UPDATE' };
		expect((await world.deliver({ event_type: 'PRODUCT_UPDATE', resource_id: 8 }, { parameters })).items).toHaveLength(
			1,
		);
		const other = await world.deliver({ event_type: 'PRODUCT_DELETE', resource_id: 8 }, { parameters });
		expect(other.items).toEqual([]);
	});
});

describe('related data', () => {
	beforeEach(() => world.activatedBefore());

	test.each([
		[
			'customers: include in the query',
			customerUpdate(5),
			{ customerInclude: ['address', 'groups'] },
			'/customers/5',
			{ include: 'origin,groups,address' },
		],
		[
			"products: fetch in the query, 0.1.0's values (criteria, pictures, lots) as production's",
			{ event_type: 'PRODUCT_UPDATE', product_id: 8 },
			{ productFetch: ['criteria', 'pictures', 'lots'] },
			'/products/8',
			{ fetch: 'criteres_text,criteres_number,criteres_fulltext,criteres_flag,products_photos' },
		],
		[
			'a value outside the suggestions, from an expression, is sent as is',
			{ event_type: 'PRODUCT_UPDATE', product_id: 8 },
			{ productFetch: 'criteres_flag, floor_plans' },
			'/products/8',
			{ fetch: 'criteres_flag,floor_plans' },
		],
		[
			'nothing chosen: a contact with what its output shows (origin and groups)',
			customerUpdate(5),
			{ customerInclude: [] },
			'/customers/5',
			{ include: 'origin,groups' },
		],
	])('%s', async (_case, notification, parameters, path, qs) => {
		const { fake } = await world.deliver(notification, {
			answers: [record({})],
			parameters: { fetchFullRecord: true, ...parameters },
		});
		expect(fake.requests()).toEqual([{ method: 'GET', url: path, qs, body: undefined }]);
	});
});

describe('a record the API refuses or no longer has', () => {
	beforeEach(() => world.activatedBefore());
	const notFound = status(404, {}, { error: { code: 'NOT_FOUND', message: 'No such customer' } });

	test('gone (404) by default: answered 200, one execution whose item says the record is gone, and no error', async () => {
		const { fake, items } = await world.deliver(customerUpdate(99), {
			answers: [notFound],
			parameters: { fetchFullRecord: true },
		});
		expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(items).toEqual([
			expect.objectContaining({
				resource_id: 99,
				gone: true,
				record: null,
				warning: 'Agency CRM answered 404 for customer 99: it was deleted after this change was sent.',
			}),
		]);
		expect(fake.logs.filter((log) => log.level !== 'info')).toEqual([]);
	});

	test('gone, with Drop Repeated Deliveries: its retry is a repeat, so one execution in all', async () => {
		const parameters = { dropRepeatedDeliveries: true };
		expect((await world.deliver(customerUpdate(99), { answers: [notFound], parameters })).items).toHaveLength(1);
		const retry = await world.deliver(customerUpdate(99), { answers: [notFound], parameters });
		expect(retry.items).toEqual([]);
		expect(retry.fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(retry.fake.logs.map((log) => log.message)).toEqual([
			expect.stringMatching(/^Agency CRM Trigger: CUSTOMER_UPDATE customer 99 repeats a delivery already taken/),
		]);
	});

	test('gone, with When the Record Is Gone set to Start Nothing: answered 200, nothing started, the log says so', async () => {
		const { fake, items } = await world.deliver(customerUpdate(99), {
			answers: [notFound],
			parameters: { fetchFullRecord: true, whenRecordGone: 'skip' },
		});
		expect(items).toEqual([]);
		expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(fake.logs).toEqual([
			{
				level: 'info',
				message:
					'Agency CRM Trigger: CUSTOMER_UPDATE customer 99 names a record that is gone (Agency CRM answered 404; When the Record Is Gone: Start Nothing): nothing started (1 gone record(s) dropped by this n8n process).',
			},
		]);
	});

	test('any other refusal (a missing right) is answered 200, and the execution fails naming the id', async () => {
		const forbidden = status(403, {}, { error: { code: 'FORBIDDEN', message: 'Missing right' } });
		const { webhook, response, calls } = world.deliveryContext(customerUpdate(99), {
			answers: [forbidden],
			parameters: { fetchFullRecord: true },
		});
		await expect(new AgencyCrmTrigger().webhook.call(webhook)).rejects.toThrow(
			/^Could not fetch customer 99 named by the CUSTOMER_UPDATE notification: FORBIDDEN: Missing right/,
		);
		expect(response).toEqual({ statusCode: 200, body: { received: true } });
		expect(calls).toHaveLength(1);
	});

	const throttled = status(429, { 'retry-after': '3600' }, { error: { code: 'RATE_LIMITED', message: 'Slow down' } });

	test('a read that fails past its patience, with nothing remembered (version 1): answered 200, the execution fails naming the record', async () => {
		const { webhook, response } = world.deliveryContext(customerUpdate(5), {
			answers: [throttled],
			parameters: { fetchFullRecord: true },
		});
		await expect(new AgencyCrmTrigger().webhook.call(webhook)).rejects.toThrow(
			/^Could not fetch customer 5 named by the CUSTOMER_UPDATE notification: RATE_LIMITED: Slow down/,
		);
		expect(response).toEqual({ statusCode: 200, body: { received: true } });
	});

	test('a read that fails past its patience, remembered: answered 200, nothing started, the delivery owed and said so', async () => {
		const down = await world.deliver(customerUpdate(5), {
			// The replay off: no retry a minute later in this test's process.
			parameters: { fetchFullRecord: true, dropRepeatedDeliveries: true, catchUp: false },
			answers: [throttled],
		});
		expect(down.items).toEqual([]);
		expect(down.fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(down.fake.logs[0].message).toMatch(
			/^Agency CRM Trigger: CUSTOMER_UPDATE customer 5 not taken: Could not fetch customer 5 .*\. It is owed, and not replayed \("Catch Up on Missed Changes" is off\)\.$/,
		);
		await world.written();
		expect(world.nodeData().progress).toMatchObject({
			owed: [{ event: 'CUSTOMER_UPDATE', id: 5, at: expect.any(Number), failed: true }],
		});
	});
});

describe('answered first', () => {
	beforeEach(() => world.activatedBefore());

	test('From the Workflow: the workflow has until the budget; then the trigger answers 200 in its place, and later answers change nothing', async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		try {
			const { webhook, response } = world.deliveryContext(customerUpdate(5), {
				parameters: { answer: 'workflow' },
				webhookName: 'setup',
			});
			const result = await new AgencyCrmTrigger().webhook.call(webhook);
			// n8n is left the answer: no noWebhookResponse, and the item says by when.
			expect(result).toEqual({
				workflowData: [[{ json: expect.objectContaining({ answer_by: expect.any(String) }) }]],
			});
			const item = result.workflowData![0][0].json;
			expect(Date.parse(item.answer_by as string) - Date.parse(item.received_at as string)).toBe(ANSWER_BUDGET_MS);
			expect(response).toEqual({});
			await jest.advanceTimersByTimeAsync(ANSWER_BUDGET_MS);
			expect(response).toEqual({ statusCode: 200, body: { received: true, answered_by: 'trigger' } });
			// The Answer node, or the execution's end, comes too late: n8n's own answer is a no-op, not an error.
			const late = webhook.getResponseObject();
			expect(() => late.status(422).json({ reason: 'late' })).not.toThrow();
			expect(response).toEqual({ statusCode: 200, body: { received: true, answered_by: 'trigger' } });
		} finally {
			jest.useRealTimers();
		}
	});

	test.each([
		['version 1, nothing remembered', {}],
		['version 2, remembered', { dropRepeatedDeliveries: true, catchUp: true }],
	])('%s: Agency CRM has its 200 before the record is read, whatever the API then does', async (_case, parameters) => {
		let answeredBeforeRead: unknown;
		const { webhook } = world.deliveryContext(customerUpdate(5), {
			parameters: { fetchFullRecord: true, ...parameters },
		});
		const response = webhook.getResponseObject() as unknown as { statusCode: number; headersSent?: boolean };
		Object.assign(webhook.helpers, {
			httpRequestWithAuthentication: async () => {
				answeredBeforeRead = response.headersSent && response.statusCode;
				return status(403, {}, { error: { code: 'FORBIDDEN', message: 'Missing right' } });
			},
		});
		await new AgencyCrmTrigger().webhook.call(webhook).catch(() => undefined);
		expect(answeredBeforeRead).toBe(200);
	});
});

describe('ids no request can address', () => {
	beforeEach(() => world.activatedBefore());

	// Found by the generator (memory/store.test.ts): a lone UTF-16 half made the memory key throw
	// (encodeURIComponent), so the delivery failed in n8n ("Workflow could not be started", a 500),
	// and Agency CRM's retries would have ended in a suspension.
	test.each([
		['a lone UTF-16 half', '\ud800'],
		['a path', '../hooks'],
	])(
		'an id holding %s starts the workflow, saying the record could not be read, with nothing sent',
		async (_case, id) => {
			const { fake, items } = await world.deliver(
				{ event_type: 'CUSTOMER_UPDATE', resource_id: id },
				{ parameters: { fetchFullRecord: true, dropRepeatedDeliveries: true, skipUnchangedRecords: true } },
			);
			expect(fake.calls).toHaveLength(0);
			expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
			expect(items).toEqual([
				expect.objectContaining({
					resource_id: id,
					warning: expect.stringMatching(/^The record named could not be read: /),
				}),
			]);
		},
	);
});

describe('Property Deleted (PRODUCT_DELETE)', () => {
	beforeEach(() => world.activatedBefore());
	const deletion = { event_type: 'PRODUCT_DELETE', resource_id: 8 };
	const events = ['PRODUCT_DELETE'];

	test('the item carries the id and says the record is gone; nothing is fetched without Fetch Full Record', async () => {
		const parameters = { events, dropRepeatedDeliveries: true };
		const { fake, items } = await world.deliver(deletion, { parameters });
		expect(fake.calls).toHaveLength(0);
		expect(items).toEqual([
			expect.objectContaining({
				event_type: 'PRODUCT_DELETE',
				resource_type: 'product',
				resource_id: 8,
				deleted: true,
			}),
		]);
		expect(items[0]).not.toHaveProperty('record');
		expect(items[0]).not.toHaveProperty('gone');
		expect((await world.deliver(deletion, { parameters })).items).toEqual([]);
	});

	test('with Fetch Full Record, the 404 is the answer expected: the record is null, and nothing fails', async () => {
		const { fake, items } = await world.deliver(deletion, {
			parameters: { events, fetchFullRecord: true },
			answers: [status(404, {}, { error: { code: 'NOT_FOUND', message: 'No such product' } })],
		});
		expect(fake.requests()[0].url).toBe('/products/8');
		expect(items).toEqual([expect.objectContaining({ resource_id: 8, deleted: true, record: null })]);
	});
});

describe('the work a delivery costs', () => {
	beforeEach(() => world.activatedBefore());

	test('a delivery that fetches nothing reads no credential', async () => {
		const plain = await world.deliver(customerUpdate(5));
		const unnamed = await world.deliver({ event_type: 'CUSTOMER_UPDATE' }, { parameters: { fetchFullRecord: true } });
		expect([plain.fake.credentialReads(), unnamed.fake.credentialReads()]).toEqual([0, 0]);
		expect([plain.fake.calls, unnamed.fake.calls]).toEqual([[], []]);
	});

	test('deliveries that fetch read the credential once between them, not once each (the recent token)', async () => {
		const fetching = { parameters: { fetchFullRecord: true }, credentialId: 'credential-deliveries' };
		const reads: number[] = [];
		for (const id of [5, 6, 7]) {
			const { fake, items } = await world.deliver(customerUpdate(id), {
				...fetching,
				answers: [record({ customers_id: id })],
			});
			expect(items).toEqual([expect.objectContaining({ record: { customers_id: id } })]);
			reads.push(fake.credentialReads());
		}
		expect(reads).toEqual([1, 0, 0]);
	});

	test('a delivery that starts the workflow writes no static data: n8n would make the answer wait for that write', async () => {
		const context = world.deliveryContext(customerUpdate(5), {
			parameters: { dropRepeatedDeliveries: true, catchUp: true },
			answers: [record({ customers_id: 5 })],
		});
		expect(started(await new AgencyCrmTrigger().webhook.call(context.webhook))).toHaveLength(1);
		expect(context.savedStaticData()).toBeUndefined();
	});
});
