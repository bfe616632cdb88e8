import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { isUnchangedRecord, recordFingerprint } from '../../nodes/AgencyCrmTrigger/deliveryMemory';
import type { FakeContextOptions, ScriptedAnswer } from '../support/fakeN8n';
import { StoredStaticData, activateWebhook, fakeContext, ok, status } from '../support/fakeN8n';
import { connectionError } from '../support/n8nCores';

/**
 * The trigger's registration and deliveries against a fake n8n context (test/support/fakeN8n.ts).
 * `stored` plays the static data in the workflow's database row: each activation and delivery
 * starts from it, and gets back what the node changed once it returned, as in n8n.
 */
const NODE_NAME = 'Agency CRM Trigger';
const PRODUCTION_URL = 'https://n8n.example.com/webhook/3f1c/webhook';
const TEST_URL = 'https://n8n.example.com/webhook-test/3f1c/webhook';
const OLD_URL = 'http://old-host:5678/webhook/3f1c/webhook';
const SECRET_HEADER = 'x-agency-crm-secret';
const SECRET = 'a1'.repeat(32);
/** A registration keeps the SHA-256 digest of its secret, never the secret (n8n copies static data into executions). */
const digestOf = (secret: unknown) => createHash('sha256').update(String(secret)).digest('hex');
const EVENTS = ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'];

let stored: StoredStaticData;
beforeEach(() => {
	stored = new StoredStaticData();
});

const nodeData = () => (stored.data[`node:${NODE_NAME}`] ?? {}) as IDataObject;
const registered = (slot: 'production' | 'test') => nodeData()[slot] as IDataObject | undefined;
/** The state of a workflow activated before: its hook 7 with the secret, at the production URL. */
const activatedBefore = (url = PRODUCTION_URL) => {
	stored.data = {
		[`node:${NODE_NAME}`]: { production: { hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: url } },
	};
};

const hookCall = (answers: ScriptedAnswer[], mode: WorkflowExecuteMode, url: string) => ({
	answers,
	mode,
	webhookUrl: url,
	nodeName: NODE_NAME,
	parameters: { events: EVENTS },
});

/** n8n's activation, or the editor's "Listen for test event" (mode manual, test URL). */
async function activate(answers: ScriptedAnswer[], mode: WorkflowExecuteMode = 'trigger', url = PRODUCTION_URL) {
	const { fake } = await stored.around(hookCall(answers, mode, url), async (context) =>
		activateWebhook(new AgencyCrmTrigger(), context.hook),
	);
	return fake;
}

async function deactivate(answers: ScriptedAnswer[], mode: WorkflowExecuteMode = 'trigger', url = PRODUCTION_URL) {
	const { result: removed, fake } = await stored.around(hookCall(answers, mode, url), async (context) =>
		new AgencyCrmTrigger().webhookMethods.default.delete.call(context.hook),
	);
	return { removed, fake };
}

interface DeliveryOptions {
	answers?: ScriptedAnswer[];
	parameters?: Record<string, unknown>;
	secret?: string | null;
	credentialId?: string;
}

const deliveryOptions = (notification: unknown, options: DeliveryOptions = {}): FakeContextOptions => {
	const secret = options.secret === undefined ? SECRET : options.secret;
	return {
		answers: options.answers ?? [],
		mode: 'webhook',
		webhookUrl: PRODUCTION_URL,
		nodeName: NODE_NAME,
		body: notification,
		headers: secret === null ? {} : { [SECRET_HEADER]: secret },
		parameters: { events: EVENTS, fetchFullRecord: false, ...options.parameters },
		credentialId: options.credentialId,
	};
};

/** A delivery's context loaded from the stored state, for tests that save (or not) themselves. */
const deliveryContext = (notification: unknown, options: DeliveryOptions = {}) =>
	fakeContext({ ...deliveryOptions(notification, options), staticData: stored.data });

const started = (result: IWebhookResponseData) => (result.workflowData?.[0] ?? []).map((item) => item.json);

/** One production delivery. */
async function deliver(notification: unknown, options: DeliveryOptions = {}) {
	const { result, fake } = await stored.around(deliveryOptions(notification, options), async (context) =>
		new AgencyCrmTrigger().webhook.call(context.webhook),
	);
	return { fake, items: started(result) };
}

const customerUpdate = (id: number, deliveryId?: string) => ({
	event_type: 'CUSTOMER_UPDATE',
	resource_type: 'customer',
	resource_id: id,
	...(deliveryId ? { delivery_id: deliveryId } : {}),
});
const record = (body: IDataObject) => ok({ data: body });

describe('registration', () => {
	test('adopts a hook already registered for this URL (PUT, keeping its other headers) instead of adding one', async () => {
		const adopted = { id: 7, url: PRODUCTION_URL, origines: ['PRODUCT_CREATE'], headers: { 'X-Team': 'sales' } };
		const fake = await activate([
			ok({ data: [{ id: 3, url: 'https://elsewhere.example.com/hook', origines: EVENTS, headers: null }, adopted] }),
			ok({ data: adopted }),
		]);
		const [list, put] = fake.requests();
		expect(list).toMatchObject({ method: 'GET', url: '/hooks' });
		expect(put).toMatchObject({
			method: 'PUT',
			url: '/hooks/7',
			body: { url: PRODUCTION_URL, origines: EVENTS, headers: { 'X-Team': 'sales' } },
		});
		const secret = (put.body!.headers as IDataObject)[SECRET_HEADER];
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(fake.calls).toHaveLength(2);
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(secret), webhookUrl: PRODUCTION_URL });
		expect(JSON.stringify(stored.data)).not.toContain(String(secret));
	});

	test('registers a new hook (POST) when none points here', async () => {
		const fake = await activate([
			ok({ data: [{ id: 3, url: 'https://elsewhere.example.com/hook', origines: EVENTS, headers: null }] }),
			status(201, {}, { data: { id: 12, url: PRODUCTION_URL, origines: EVENTS } }),
		]);
		expect(fake.requests()[1]).toMatchObject({ method: 'POST', url: '/hooks', body: { url: PRODUCTION_URL } });
		expect(registered('production')).toMatchObject({ hookId: 12, webhookUrl: PRODUCTION_URL });
	});

	describe('a registration whose answer is lost is looked for by its URL before it is sent again', () => {
		const elsewhere = { id: 3, url: 'https://elsewhere.example.com/hook', origines: EVENTS, headers: null };
		const postedSecret = (fake: Awaited<ReturnType<typeof activate>>) =>
			(fake.requests()[1].body!.headers as IDataObject)[SECRET_HEADER];

		test('a connection reset after the API registered it: the hook found is adopted, never registered twice', async () => {
			const found = { id: 12, url: PRODUCTION_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } };
			const fake = await activate([
				ok({ data: [elsewhere] }),
				connectionError('ECONNRESET'),
				ok({ data: [elsewhere, found] }),
			]);
			expect(fake.routes()).toEqual(['GET /hooks', 'POST /hooks', 'GET /hooks']);
			// Deliveries are checked against the secret the hook found carries.
			expect(registered('production')).toEqual({
				hookId: 12,
				secretDigest: digestOf(SECRET),
				webhookUrl: PRODUCTION_URL,
			});
		});

		test.each([502, 504])('a %i, and no hook with this URL: the registration is sent once more', async (gateway) => {
			const fake = await activate([
				ok({ data: [elsewhere] }),
				status(gateway, { 'retry-after': '0' }),
				ok({ data: [elsewhere] }),
				status(201, {}, { data: { id: 12, url: PRODUCTION_URL, origines: EVENTS } }),
			]);
			expect(fake.routes()).toEqual(['GET /hooks', 'POST /hooks', 'GET /hooks', 'POST /hooks']);
			expect(fake.requests()[3].body).toEqual(fake.requests()[1].body);
			expect(registered('production')).toEqual({
				hookId: 12,
				secretDigest: digestOf(postedSecret(fake)),
				webhookUrl: PRODUCTION_URL,
			});
		});

		test('a 503 or 429 says it was not processed: sent again without looking', async () => {
			const fake = await activate([
				ok({ data: [elsewhere] }),
				status(503, { 'retry-after': '0' }),
				status(429, { 'retry-after': '0' }),
				status(201, {}, { data: { id: 12, url: PRODUCTION_URL, origines: EVENTS } }),
			]);
			expect(fake.routes()).toEqual(['GET /hooks', 'POST /hooks', 'POST /hooks', 'POST /hooks']);
		});
	});

	test.each([
		['reports no status at all', {}],
		['reports it suspended', { status: 'suspended' }],
		['reports it active', { status: 'active' }],
	])(
		'reactivates: every activation PUTs the URL and events of the hook it registered, whether the API %s',
		async (_case, statusField) => {
			activatedBefore();
			const hook = {
				id: 7,
				url: PRODUCTION_URL,
				origines: EVENTS,
				headers: { [SECRET_HEADER]: SECRET },
				...statusField,
			};
			const fake = await activate([ok({ data: [hook] }), ok({ data: { ...hook, status: 'active' } })]);
			expect(fake.requests()).toEqual([
				{ method: 'GET', url: '/hooks', qs: undefined, body: undefined },
				{
					method: 'PUT',
					url: '/hooks/7',
					qs: undefined,
					body: { url: PRODUCTION_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } },
				},
			]);
		},
	);

	test("moves the hook it registered to n8n's new URL instead of adding one", async () => {
		activatedBefore(OLD_URL);
		const fake = await activate([
			ok({ data: [{ id: 7, url: OLD_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } }] }),
			ok({ data: { id: 7, url: PRODUCTION_URL } }),
		]);
		expect(fake.requests()[1]).toMatchObject({ method: 'PUT', url: '/hooks/7', body: { url: PRODUCTION_URL } });
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: PRODUCTION_URL });
	});

	test('a 404 on delete counts as removed and clears the registration', async () => {
		activatedBefore();
		const { removed, fake } = await deactivate([status(404, {}, { error: { code: 'NOT_FOUND', message: 'No hook' } })]);
		expect(removed).toBe(true);
		expect(fake.requests()).toEqual([{ method: 'DELETE', url: '/hooks/7', qs: undefined, body: undefined }]);
		expect(registered('production')).toEqual({});
	});

	test('any other failure on delete is logged and keeps the registration, so the next activation finds the hook', async () => {
		activatedBefore();
		const { removed, fake } = await deactivate([
			status(500, {}, { error: { code: 'INTERNAL_ERROR', message: 'Oops' } }),
		]);
		expect(removed).toBe(false);
		expect(fake.logs).toEqual([{ level: 'error', message: 'Agency CRM Trigger: could not delete webhook 7' }]);
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: PRODUCTION_URL });
	});

	test('the production and the test slot never share a hook', async () => {
		const productionHook = { id: 1, url: PRODUCTION_URL, origines: EVENTS, headers: null };
		await activate([ok({ data: [] }), status(201, {}, { data: productionHook })]);
		const productionSecret = registered('production')!.secretDigest;

		const listening = await activate(
			[ok({ data: [productionHook] }), status(201, {}, { data: { id: 2, url: TEST_URL } })],
			'manual',
			TEST_URL,
		);
		expect(listening.requests()[1]).toMatchObject({ method: 'POST', url: '/hooks', body: { url: TEST_URL } });
		const testSecret = registered('test')!.secretDigest;
		expect(testSecret).not.toBe(productionSecret);

		// n8n removes the test hook in "internal" mode once the test event arrived.
		const stopped = await deactivate([status(204)], 'internal', TEST_URL);
		expect(stopped.fake.requests()).toEqual([{ method: 'DELETE', url: '/hooks/2', qs: undefined, body: undefined }]);
		expect(registered('production')).toEqual({ hookId: 1, secretDigest: productionSecret, webhookUrl: PRODUCTION_URL });

		const deactivated = await deactivate([status(204)]);
		expect(deactivated.fake.requests()).toEqual([
			{ method: 'DELETE', url: '/hooks/1', qs: undefined, body: undefined },
		]);
	});

	test('refuses to register with no event chosen, before any request', async () => {
		const fake = fakeContext({ webhookUrl: PRODUCTION_URL, nodeName: NODE_NAME, parameters: { events: [] } });
		await expect(new AgencyCrmTrigger().webhookMethods.default.create.call(fake.hook)).rejects.toThrow(
			'Invalid input: "Events" (origines) is required',
		);
		expect(fake.calls).toHaveLength(0);
	});
});

describe('the secret', () => {
	test.each([
		['no secret header', null],
		['a wrong secret of the same length', 'f'.repeat(64)],
		['a wrong secret of another length', 'short'],
		['the secret with a character changed', `${SECRET.slice(0, -1)}0`],
	])('a delivery with %s gets 401 and starts nothing', async (_case, secret) => {
		activatedBefore();
		const { fake, items } = await deliver(customerUpdate(5), { secret });
		expect(fake.response).toEqual({ statusCode: 401, body: { error: 'Missing or wrong webhook secret' } });
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
	});

	test.each([
		['malformed JSON', '{"event_type": "CUSTOMER_UPDATE", "resource_id": '],
		['JSON that is not an object', '[{"event_type": "CUSTOMER_UPDATE", "resource_id": 5}]'],
		['words', 'event_type=CUSTOMER_UPDATE'],
	])('a delivery with the secret whose text body is %s gets 400 and starts nothing', async (_case, body) => {
		activatedBefore();
		const { fake, items } = await deliver(body, { parameters: { fetchFullRecord: true } });
		expect(fake.response).toEqual({ statusCode: 400, body: { error: 'The body is not a JSON notification' } });
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
	});

	test('a notification sent as text is read as JSON', async () => {
		activatedBefore();
		const { fake, items } = await deliver(JSON.stringify(customerUpdate(5)));
		expect(fake.response.statusCode).toBe(200);
		expect(items).toEqual([expect.objectContaining({ event_type: 'CUSTOMER_UPDATE', resource_id: 5 })]);
	});

	test('a delivery to a workflow that registered nothing is refused', async () => {
		const { fake, items } = await deliver(customerUpdate(5), { secret: '' });
		expect(fake.response.statusCode).toBe(401);
		expect(items).toEqual([]);
	});

	test('the right secret gets 200 and starts the workflow', async () => {
		activatedBefore();
		const { fake, items } = await deliver(customerUpdate(5));
		expect(fake.response).toEqual({ statusCode: 200, body: { received: true } });
		expect(items).toHaveLength(1);
	});

	describe('a workflow activated under 0.1.0, which kept the secret itself, and still active after the update', () => {
		beforeEach(() => {
			stored.data = {
				[`node:${NODE_NAME}`]: { production: { hookId: 7, secret: SECRET, webhookUrl: PRODUCTION_URL } },
			};
		});

		test('takes deliveries with that secret, and no other', async () => {
			expect((await deliver(customerUpdate(5))).items).toHaveLength(1);
			const forged = await deliver(customerUpdate(5), { secret: 'f'.repeat(64) });
			expect(forged.fake.response.statusCode).toBe(401);
			expect(forged.items).toEqual([]);
		});

		test('keeps only the digest from its next activation on', async () => {
			await activate([
				ok({ data: [{ id: 7, url: PRODUCTION_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } }] }),
				ok({ data: { id: 7, url: PRODUCTION_URL, headers: { [SECRET_HEADER]: SECRET } } }),
			]);
			expect(registered('production')).toEqual({
				hookId: 7,
				secretDigest: digestOf(SECRET),
				webhookUrl: PRODUCTION_URL,
			});
			expect(JSON.stringify(stored.data)).not.toContain(SECRET);
		});
	});
});

describe('what a delivery names', () => {
	beforeEach(() => activatedBefore());

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
		const { fake, items } = await deliver(notification, {
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
				delivery_id: null,
				received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				notification,
				record: { name: 'the record' },
			},
		]);
	});

	test('property.updated reads as PRODUCT_UPDATE (docs/assumptions.md)', async () => {
		const { fake, items } = await deliver(
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
			const { fake, items } = await deliver(notification, {
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
			const { items } = await deliver(
				{ event_type: eventType, product_id: 8 },
				{ parameters: { events: ['property.updated'] } },
			);
			expect(items).toEqual([expect.objectContaining({ event_type: 'PRODUCT_UPDATE', resource_id: 8 })]);
		}
		const other = await deliver(
			{ event_type: 'PRODUCT_CREATE', product_id: 8 },
			{ parameters: { events: ['property.updated'] } },
		);
		expect(other.items).toEqual([]);
	});

	test('an event that was not chosen starts nothing', async () => {
		const { fake, items } = await deliver(
			{ event_type: 'PRODUCT_CREATE', product_id: 1 },
			{ parameters: { events: ['CUSTOMER_UPDATE'] } },
		);
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
		expect(fake.response.statusCode).toBe(200);
	});
});

describe('related data', () => {
	beforeEach(() => activatedBefore());

	test.each([
		[
			'customers: include in the query',
			customerUpdate(5),
			{ customerInclude: ['address', 'groups'] },
			'/customers/5',
			{ include: 'origin,groups,address' },
		],
		[
			'products: fetch in the query',
			{ event_type: 'PRODUCT_UPDATE', product_id: 8 },
			{ productFetch: ['criteria', 'pictures', 'lots'] },
			'/products/8',
			{ fetch: 'criteria,pictures,lots' },
		],
		[
			'a value outside the suggestions, from an expression, is sent as is',
			{ event_type: 'PRODUCT_UPDATE', product_id: 8 },
			{ productFetch: 'criteria, floor_plans' },
			'/products/8',
			{ fetch: 'criteria,floor_plans' },
		],
		[
			'nothing chosen: a contact with what its output shows (origin and groups)',
			customerUpdate(5),
			{ customerInclude: [] },
			'/customers/5',
			{ include: 'origin,groups' },
		],
	])('%s', async (_case, notification, parameters, path, qs) => {
		const { fake } = await deliver(notification, {
			answers: [record({})],
			parameters: { fetchFullRecord: true, ...parameters },
		});
		expect(fake.requests()).toEqual([{ method: 'GET', url: path, qs, body: undefined }]);
	});

	test('the delivery is answered 200 before the fetch, which fails the execution with the id named', async () => {
		const { webhook, response, calls } = deliveryContext(customerUpdate(99), {
			answers: [status(404, {}, { error: { code: 'NOT_FOUND', message: 'No such customer' } })],
			parameters: { fetchFullRecord: true },
		});
		await expect(new AgencyCrmTrigger().webhook.call(webhook)).rejects.toThrow(
			'Could not fetch customer 99 named by the CUSTOMER_UPDATE notification: NOT_FOUND: No such customer (HTTP 404)',
		);
		expect(response).toEqual({ statusCode: 200, body: { received: true } });
		expect(calls).toHaveLength(1);
	});
});

describe('the work a delivery costs', () => {
	beforeEach(() => activatedBefore());

	test('a delivery that fetches nothing reads no credential', async () => {
		const plain = await deliver(customerUpdate(5));
		const unnamed = await deliver({ event_type: 'CUSTOMER_UPDATE' }, { parameters: { fetchFullRecord: true } });
		expect([plain.fake.credentialReads(), unnamed.fake.credentialReads()]).toEqual([0, 0]);
		expect([plain.fake.calls, unnamed.fake.calls]).toEqual([[], []]);
	});

	test('deliveries that fetch read the credential once between them, not once each (the recent token)', async () => {
		const fetching = { parameters: { fetchFullRecord: true }, credentialId: 'credential-deliveries' };
		const reads: number[] = [];
		for (const id of [5, 6, 7]) {
			const { fake, items } = await deliver(customerUpdate(id), {
				...fetching,
				answers: [record({ customers_id: id })],
			});
			expect(items).toEqual([expect.objectContaining({ record: { customers_id: id } })]);
			reads.push(fake.credentialReads());
		}
		expect(reads).toEqual([1, 0, 0]);
	});
});

describe('Drop Repeated Deliveries', () => {
	beforeEach(() => activatedBefore());
	const drop = { dropRepeatedDeliveries: true };

	test('a delivery id seen before starts nothing; a new one or none at all starts', async () => {
		expect((await deliver(customerUpdate(5, 'd-1'), { parameters: drop })).items).toHaveLength(1);
		expect((await deliver(customerUpdate(5, 'd-1'), { parameters: drop })).items).toEqual([]);
		expect((await deliver(customerUpdate(5, 'd-2'), { parameters: drop })).items).toHaveLength(1);
		expect((await deliver(customerUpdate(5), { parameters: drop })).items).toHaveLength(1);
		expect((await deliver(customerUpdate(5), { parameters: drop })).items).toHaveLength(1);
	});

	test('a numeric delivery id is read as text, and its repeat dropped', async () => {
		const numbered = { ...customerUpdate(5), delivery_id: 981 };
		expect((await deliver(numbered, { parameters: drop })).items).toEqual([
			expect.objectContaining({ delivery_id: '981', notification: numbered }),
		]);
		expect((await deliver(numbered, { parameters: drop })).items).toEqual([]);
	});

	test('a repeat is dropped before any fetch', async () => {
		const parameters = { ...drop, fetchFullRecord: true };
		await deliver(customerUpdate(5, 'd-1'), { parameters, answers: [record({ customers_id: 5 })] });
		const { fake, items } = await deliver(customerUpdate(5, 'd-1'), { parameters });
		expect(items).toEqual([]);
		expect(fake.calls).toHaveLength(0);
	});

	test('the memory is in the stored static data: another process (trigger instance) sees the same ids', async () => {
		await deliver(customerUpdate(5, 'd-1'), { parameters: drop });
		const otherProcess = deliveryContext(customerUpdate(5, 'd-1'), { parameters: drop });
		expect(started(await new AgencyCrmTrigger().webhook.call(otherProcess.webhook))).toEqual([]);
	});

	test('remembers the last 1,000 delivery ids: the oldest is forgotten and starts again (fail open)', async () => {
		await deliver(customerUpdate(5, 'd-0'), { parameters: drop });
		for (let index = 1; index <= 1000; index++) await deliver(customerUpdate(5, `d-${index}`), { parameters: drop });
		expect(nodeData().seenDeliveries).toHaveLength(1000);
		expect((await deliver(customerUpdate(5, 'd-1000'), { parameters: drop })).items).toEqual([]);
		expect((await deliver(customerUpdate(5, 'd-0'), { parameters: drop })).items).toHaveLength(1);
	});

	test('a fetch that fails saves nothing, so the same delivery again starts (fail open)', async () => {
		const parameters = { ...drop, fetchFullRecord: true };
		await expect(
			deliver(customerUpdate(5, 'd-1'), { parameters, answers: [status(404, {}, { error: { code: 'NOT_FOUND' } })] }),
		).rejects.toThrow('Could not fetch customer 5');
		const { items } = await deliver(customerUpdate(5, 'd-1'), { parameters, answers: [record({ customers_id: 5 })] });
		expect(items).toHaveLength(1);
	});

	test('two deliveries handled at once: the later save wins and the other id is forgotten, so its repeat starts (fail open)', async () => {
		const first = deliveryContext(customerUpdate(5, 'd-1'), { parameters: drop });
		const second = deliveryContext(customerUpdate(6, 'd-2'), { parameters: drop });
		await new AgencyCrmTrigger().webhook.call(first.webhook);
		await new AgencyCrmTrigger().webhook.call(second.webhook);
		stored.save(first);
		stored.save(second);
		expect((await deliver(customerUpdate(5, 'd-1'), { parameters: drop })).items).toHaveLength(1);
		expect((await deliver(customerUpdate(6, 'd-2'), { parameters: drop })).items).toEqual([]);
	});

	test('turned off, it forgets what it remembered; with both options off a delivery writes no static data', async () => {
		await deliver(customerUpdate(5, 'd-1'), { parameters: drop });
		const off = await deliver(customerUpdate(5, 'd-1'));
		expect(off.items).toHaveLength(1);
		expect(nodeData()).not.toHaveProperty('seenDeliveries');
		const again = deliveryContext(customerUpdate(5, 'd-1'));
		await new AgencyCrmTrigger().webhook.call(again.webhook);
		expect(again.savedStaticData()).toBeUndefined();
	});

	test('a repeated delivery writes no static data', async () => {
		await deliver(customerUpdate(5, 'd-1'), { parameters: drop });
		const repeat = deliveryContext(customerUpdate(5, 'd-1'), { parameters: drop });
		expect(started(await new AgencyCrmTrigger().webhook.call(repeat.webhook))).toEqual([]);
		expect(repeat.savedStaticData()).toBeUndefined();
	});

	test('unreadable memory counts as empty', async () => {
		stored.data[`node:${NODE_NAME}`] = { ...nodeData(), seenDeliveries: 'not a list', seenRecords: [['half']] };
		expect((await deliver(customerUpdate(5, 'd-1'), { parameters: drop })).items).toHaveLength(1);
		expect(nodeData().seenDeliveries).toEqual(['d-1']);
	});
});

describe('Skip Unchanged Records', () => {
	beforeEach(() => activatedBefore());
	const skip = { fetchFullRecord: true, skipUnchangedRecords: true };
	const ana = { customers_id: 5, firstname: 'Ana', email: 'ana@example.com', updated_at: '2026-05-01T10:00:00Z' };

	test('a write-back of the same values (only updated_at moved) starts nothing; a real change starts', async () => {
		expect((await deliver(customerUpdate(5, 'd-1'), { parameters: skip, answers: [record(ana)] })).items).toHaveLength(
			1,
		);
		const echo = await deliver(customerUpdate(5, 'd-2'), {
			parameters: skip,
			answers: [record({ ...ana, updated_at: '2026-05-01T10:00:03Z' })],
		});
		expect(echo.items).toEqual([]);
		expect(echo.fake.response.statusCode).toBe(200);
		const changed = await deliver(customerUpdate(5, 'd-3'), {
			parameters: skip,
			answers: [record({ ...ana, firstname: 'Anna', updated_at: '2026-05-01T10:05:00Z' })],
		});
		expect(changed.items).toEqual([
			expect.objectContaining({ record: expect.objectContaining({ firstname: 'Anna' }) }),
		]);
	});

	test('the record compared is fetched with what defines a change (a contact and its address; a property and its criteria and photos, as production fetches them), whatever Related Data says (issue 17, point 6)', async () => {
		const contact = await deliver(customerUpdate(5), {
			parameters: { ...skip, customerInclude: ['groups'] },
			answers: [record(ana)],
		});
		expect(contact.fake.requests()[0].qs).toEqual({ include: 'origin,groups,address' });
		const product = await deliver(
			{ event_type: 'PRODUCT_UPDATE', product_id: 8 },
			{ parameters: skip, answers: [record({ product_id: 8 })] },
		);
		expect(product.fake.requests()[0].qs).toEqual({
			fetch: 'criteres_text,criteres_number,criteres_fulltext,criteres_flag,products_photos',
		});
		const unskipped = await deliver(customerUpdate(6), {
			parameters: { fetchFullRecord: true },
			answers: [record({})],
		});
		expect(unskipped.fake.requests()[0].qs).toEqual({ include: 'origin,groups' });
	});

	test('a price drop (a criterion), a new picture or a lot changed starts the workflow by default', async () => {
		const productUpdate = { event_type: 'PRODUCT_UPDATE', product_id: 8 };
		const listing = {
			product_id: 8,
			title: 'Loft',
			updated_at: 't0',
			criteria: [{ id: 1, value: 320000 }],
			pictures: [{ picture_id: 1 }],
			lots: [{ lot_id: 1, price: 100 }],
		};
		await deliver(productUpdate, { parameters: skip, answers: [record(listing)] });
		const changes = [
			{ criteria: [{ id: 1, value: 299000 }] },
			{ pictures: [{ picture_id: 1 }, { picture_id: 2 }] },
			{ lots: [{ lot_id: 1, price: 90 }] },
		];
		let current: IDataObject = listing;
		for (const change of changes) {
			current = { ...current, ...change, updated_at: `${String(current.updated_at)}'` };
			expect((await deliver(productUpdate, { parameters: skip, answers: [record(current)] })).items).toHaveLength(1);
		}
	});

	test('ignored names apply at every depth; key order is no change; other fields count', async () => {
		const parameters = { ...skip, ignoredFields: 'updated_at, views' };
		const product = { product_id: 8, title: 'Loft', views: 3, lots: [{ lot_id: 1, updated_at: 't1' }] };
		const productUpdate = { event_type: 'PRODUCT_UPDATE', product_id: 8 };
		await deliver(productUpdate, { parameters, answers: [record(product)] });
		const reordered = { lots: [{ updated_at: 't2', lot_id: 1 }], views: 40, title: 'Loft', product_id: 8 };
		expect((await deliver(productUpdate, { parameters, answers: [record(reordered)] })).items).toEqual([]);
		const lotChanged = { ...product, lots: [{ lot_id: 2, updated_at: 't1' }] };
		expect((await deliver(productUpdate, { parameters, answers: [record(lotChanged)] })).items).toHaveLength(1);
	});

	test('with no field ignored, an updated_at change is a change', async () => {
		const parameters = { ...skip, ignoredFields: '' };
		await deliver(customerUpdate(5), { parameters, answers: [record(ana)] });
		const moved = await deliver(customerUpdate(5), { parameters, answers: [record({ ...ana, updated_at: 'later' })] });
		expect(moved.items).toHaveLength(1);
	});

	test('a customer and a product with the same id are different records', async () => {
		await deliver(customerUpdate(5), { parameters: skip, answers: [record({ same: true })] });
		const product = await deliver(
			{ event_type: 'PRODUCT_UPDATE', product_id: 5 },
			{ parameters: skip, answers: [record({ same: true })] },
		);
		expect(product.items).toHaveLength(1);
	});

	test('turned off, it forgets, so turning it on again compares with nothing older (fail open)', async () => {
		await deliver(customerUpdate(5), { parameters: skip, answers: [record(ana)] });
		await deliver(customerUpdate(5), {
			parameters: { fetchFullRecord: true },
			answers: [record({ ...ana, firstname: 'B' })],
		});
		expect(nodeData()).not.toHaveProperty('seenRecords');
		expect((await deliver(customerUpdate(5), { parameters: skip, answers: [record(ana)] })).items).toHaveLength(1);
	});

	test('remembers the last 1,000 records: the least recently seen is forgotten and starts again', () => {
		const memory: IDataObject = {};
		const fingerprint = recordFingerprint({ same: 1 }, []);
		for (let id = 0; id <= 1000; id++) expect(isUnchangedRecord(memory, `customer:${id}`, fingerprint)).toBe(false);
		expect(memory.seenRecords).toHaveLength(1000);
		expect(isUnchangedRecord(memory, 'customer:1000', fingerprint)).toBe(true);
		expect(isUnchangedRecord(memory, 'customer:0', fingerprint)).toBe(false);
	});

	test('an unchanged record writes no static data; a changed one does', async () => {
		await deliver(customerUpdate(5), { parameters: skip, answers: [record(ana)] });
		const echo = deliveryContext(customerUpdate(5), { parameters: skip, answers: [record(ana)] });
		expect(started(await new AgencyCrmTrigger().webhook.call(echo.webhook))).toEqual([]);
		expect(echo.savedStaticData()).toBeUndefined();
		const change = deliveryContext(customerUpdate(5), {
			parameters: skip,
			answers: [record({ ...ana, firstname: 'B' })],
		});
		expect(started(await new AgencyCrmTrigger().webhook.call(change.webhook))).toHaveLength(1);
		expect(change.savedStaticData()).toBeDefined();
	});

	test('a record seen unchanged in the older half moves to the most recent end, so a busy record is never the one forgotten', () => {
		const memory: IDataObject = {};
		const fingerprint = recordFingerprint({ same: 1 }, []);
		isUnchangedRecord(memory, 'customer:busy', fingerprint);
		for (let id = 0; id < 999; id++) {
			isUnchangedRecord(memory, `customer:${id}`, fingerprint);
			isUnchangedRecord(memory, 'customer:busy', fingerprint);
		}
		isUnchangedRecord(memory, 'customer:last', fingerprint);
		expect(isUnchangedRecord(memory, 'customer:busy', fingerprint)).toBe(true);
	});

	test('fingerprints are short, so the memory stays small whatever the record size', () => {
		const big = { text: 'x'.repeat(100_000) };
		expect(recordFingerprint(big, [])).toMatch(/^[A-Za-z0-9_-]{22}$/);
		expect(recordFingerprint(big, [])).not.toBe(recordFingerprint({ text: 'y' }, []));
	});
});
