import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';

import { AgencyCrmAnswer } from '../../nodes/AgencyCrmAnswer/AgencyCrmAnswer.node';
import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { recordFingerprint, REMEMBERED_RECORDS } from '../../nodes/AgencyCrmTrigger/deliveryMemory';
import type { FakeContextOptions, ScriptedAnswer } from '../support/fakeN8n';
import { StoredStaticData, activateWebhook, fakeContext, ok, status } from '../support/fakeN8n';
import { connectionError } from '../support/n8nCores';
import { waitFor } from '../support/waitFor';

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

const hookCall = (
	answers: ScriptedAnswer[],
	mode: WorkflowExecuteMode,
	url: string,
	parameters: Record<string, unknown> = {},
	activationMode?: string,
) => ({
	answers,
	mode,
	webhookUrl: url,
	nodeName: NODE_NAME,
	parameters: { events: EVENTS, ...parameters },
	activationMode,
});

/** n8n's activation, or the editor's "Listen for test event" (mode manual, test URL). */
async function activate(
	answers: ScriptedAnswer[],
	mode: WorkflowExecuteMode = 'trigger',
	url = PRODUCTION_URL,
	parameters: Record<string, unknown> = {},
	activationMode?: string,
) {
	const { fake } = await stored.around(hookCall(answers, mode, url, parameters, activationMode), async (context) =>
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
	/** What n8n answers once the node returned a workflow to start (a 500: it could not store the execution). */
	startStatus?: number;
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
		workflowId: stored.workflowId,
	};
};

/** A delivery's context loaded from the stored state, for tests that save (or not) themselves. */
const deliveryContext = (notification: unknown, options: DeliveryOptions = {}) =>
	fakeContext({ ...deliveryOptions(notification, options), staticData: stored.data });

const started = (result: IWebhookResponseData) => (result.workflowData?.[0] ?? []).map((item) => item.json);

/** One production delivery, answered as n8n answers it. */
async function deliver(notification: unknown, options: DeliveryOptions = {}) {
	const { result, fake } = await stored.around(
		deliveryOptions(notification, options),
		async (context) => new AgencyCrmTrigger().webhook.call(context.webhook),
		options.startStatus,
	);
	return { fake, items: started(result) };
}

/** What production delivers: the event and the record's id, nothing else. */
const customerUpdate = (id: number) => ({ event_type: 'CUSTOMER_UPDATE', resource_id: id });
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

	test('the right secret starts the workflow, and n8n answers 200 once it has stored the execution', async () => {
		activatedBefore();
		const { fake, items } = await deliver(customerUpdate(5));
		// The trigger leaves the answer to n8n, which sends the body the trigger returned.
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
		const { fake } = await deliver(notification, {
			answers: [record({})],
			parameters: { fetchFullRecord: true, ...parameters },
		});
		expect(fake.requests()).toEqual([{ method: 'GET', url: path, qs, body: undefined }]);
	});

	test('a record the API refuses (404 on an update) is answered 200, and the execution fails naming the id', async () => {
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

/** Contact 5 as the API answers it, with these changes. */
const contact = (changes: IDataObject = {}) =>
	record({
		customers_id: 5,
		firstname: 'Ana',
		email: 'ana@example.com',
		updated_at: '2026-05-01T10:00:00Z',
		...changes,
	});

/** A delivery handled in another n8n process: a fresh copy of the node's code, so none of this process's memory. */
function triggerOfAnotherProcess(): AgencyCrmTrigger {
	let fresh: typeof AgencyCrmTrigger | undefined;
	jest.isolateModules(() => {
		// A module registry of its own, as another process has.
		fresh = (
			jest.requireActual('../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node') as {
				AgencyCrmTrigger: typeof AgencyCrmTrigger;
			}
		).AgencyCrmTrigger;
	});
	return new fresh!();
}

/** n8n's answer to a delivery the node left it to answer. */
function answerAsN8n(fake: ReturnType<typeof fakeContext>, statusCode: number) {
	fake.responseObject.status(statusCode);
	fake.responseObject.emit('finish');
}

describe('Drop Repeated Deliveries: production sends no delivery id, so a repeat is the same event on a record in the same state', () => {
	beforeEach(() => activatedBefore());
	const drop = { dropRepeatedDeliveries: true };

	test('a delivery repeating one taken starts nothing: answered 200, counted and logged', async () => {
		const first = await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(first.items).toHaveLength(1);
		// Fetch Full Record is off: the record is fetched to compare, and not output.
		expect(first.fake.requests()).toEqual([
			{ method: 'GET', url: '/customers/5', qs: { include: 'origin,groups' }, body: undefined },
		]);
		expect(first.items[0]).not.toHaveProperty('record');
		const repeat = await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(repeat.items).toEqual([]);
		expect(repeat.fake.response).toEqual({
			statusCode: 200,
			body: { received: true, started: false, reason: 'repeat' },
		});
		expect(repeat.fake.logs).toEqual([
			{
				level: 'info',
				message:
					'Agency CRM Trigger: CUSTOMER_UPDATE customer 5 repeats a delivery already taken (the record is unchanged since): answered, nothing started (1 repeat(s) dropped by this n8n process).',
			},
		]);
		// Counted in the process, not in the static data: a repeat writes nothing there.
		const again = deliveryContext(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(started(await new AgencyCrmTrigger().webhook.call(again.webhook))).toEqual([]);
		expect(again.savedStaticData()).toBeUndefined();
		expect(again.logs[0].message).toMatch(/\(2 repeat\(s\) dropped by this n8n process\)\.$/);
	});

	test.each([
		['a field', { firstname: 'Anna' }],
		['the timestamp alone', { updated_at: '2026-05-01T10:00:01Z' }],
		['related data', { consent: { status: 'revoked' } }],
	])('a change between two deliveries (%s) is never a repeat', async (_case, change) => {
		await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const changed = await deliver(customerUpdate(5), { parameters: drop, answers: [contact(change)] });
		expect(changed.items).toHaveLength(1);
		expect((await deliver(customerUpdate(5), { parameters: drop, answers: [contact(change)] })).items).toEqual([]);
	});

	test('the same state under another event starts: a contact created, then updated before the first delivery was handled', async () => {
		const parameters = { ...drop, events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'] };
		const created = { event_type: 'CUSTOMER_CREATE', resource_id: 5 };
		expect((await deliver(created, { parameters, answers: [contact()] })).items).toHaveLength(1);
		expect((await deliver(customerUpdate(5), { parameters, answers: [contact()] })).items).toHaveLength(1);
		expect((await deliver(created, { parameters, answers: [contact()] })).items).toEqual([]);
		expect((await deliver(customerUpdate(5), { parameters, answers: [contact()] })).items).toEqual([]);
	});

	test('a retry that comes after the first execution counts as a repeat in another process too (the memory is in the static data)', async () => {
		await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const { result } = await stored.around(
			deliveryOptions(customerUpdate(5), { parameters: drop, answers: [contact()] }),
			async (context) => triggerOfAnotherProcess().webhook.call(context.webhook),
		);
		expect(started(result)).toEqual([]);
	});

	test('when n8n could not store the execution (it answered 500), nothing counts: the retry starts the workflow', async () => {
		const failed = await deliver(customerUpdate(5), { parameters: drop, answers: [contact()], startStatus: 500 });
		expect(failed.fake.response.statusCode).toBe(500);
		expect(nodeData()).not.toHaveProperty('seen');
		const retry = await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		expect(retry.items).toHaveLength(1);
	});

	test.each([
		[200, []],
		[500, [expect.objectContaining({ resource_id: 5 })]],
	])(
		'a retry that comes while the first is still being stored waits for its answer (%i): a repeat only if it succeeded',
		async (firstAnswer, retryStarts) => {
			const first = deliveryContext(customerUpdate(5), { parameters: drop, answers: [contact()] });
			expect(started(await new AgencyCrmTrigger().webhook.call(first.webhook))).toHaveLength(1);
			const retry = stored.around(
				deliveryOptions(customerUpdate(5), { parameters: drop, answers: [contact()] }),
				(context) => new AgencyCrmTrigger().webhook.call(context.webhook),
			);
			await new Promise((resolve) => setTimeout(resolve, 50));
			answerAsN8n(first, firstAnswer);
			expect(started((await retry).result)).toEqual(retryStarts);
		},
	);

	test('deliveries handled at once each save their own copy; this process keeps both and writes the lost one back with its next change', async () => {
		const first = deliveryContext(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const second = deliveryContext(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] });
		await new AgencyCrmTrigger().webhook.call(first.webhook);
		await new AgencyCrmTrigger().webhook.call(second.webhook);
		answerAsN8n(first, 200);
		answerAsN8n(second, 200);
		// n8n writes static data whole: the first copy, saved last, erases what the second added.
		stored.save(second);
		stored.save(first);
		const keys = () => (nodeData().seen as unknown[][]).map(([key]) => key);
		expect(keys()).toEqual(['customer:5']);
		// This process still knows 6, and writes it back with the next delivery it takes.
		expect(
			(await deliver(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] })).items,
		).toEqual([]);
		await deliver(customerUpdate(7), { parameters: drop, answers: [record({ customers_id: 7 })] });
		expect(keys().sort()).toEqual(['customer:5', 'customer:6', 'customer:7']);
		const { result } = await stored.around(
			deliveryOptions(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] }),
			async (context) => triggerOfAnotherProcess().webhook.call(context.webhook),
		);
		expect(started(result)).toEqual([]);
	});

	test('a delivery n8n saves late (after a burst of others) writes what this process took meanwhile too, not its first copy', async () => {
		const slow = deliveryContext(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const slowResult = await new AgencyCrmTrigger().webhook.call(slow.webhook);
		// Another delivery is taken and saved while the first is still being started.
		await deliver(customerUpdate(6), { parameters: drop, answers: [record({ customers_id: 6 })] });
		// n8n reads the first's answer, answers it, and saves its copy of the static data, whole.
		expect((slowResult as { webhookResponse?: unknown }).webhookResponse).toEqual({ received: true });
		answerAsN8n(slow, 200);
		stored.save(slow);
		expect((nodeData().seen as unknown[][]).map(([key]) => key).sort()).toEqual(['customer:5', 'customer:6']);
	});

	test('a fetch that fails for a while is answered 503 and remembered nowhere: Agency CRM sends it again, and that starts', async () => {
		const throttled = status(429, { 'retry-after': '3600' }, { error: { code: 'RATE_LIMITED', message: 'Slow down' } });
		const down = await deliver(customerUpdate(5), { parameters: drop, answers: [throttled] });
		expect(down.items).toEqual([]);
		expect(down.fake.response).toEqual({
			statusCode: 503,
			body: {
				error:
					'Could not fetch customer 5 named by the CUSTOMER_UPDATE notification: RATE_LIMITED: Slow down (HTTP 429). Send the delivery again.',
			},
		});
		expect(down.fake.logs[0].message).toMatch(
			/^Agency CRM Trigger: CUSTOMER_UPDATE customer 5 not taken: Could not fetch customer 5 .* Answered 503, so that Agency CRM sends it again\.$/,
		);
		expect(nodeData()).not.toHaveProperty('seen');
		expect((await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
	});

	test(`remembers the last ${REMEMBERED_RECORDS} records: the least recently taken is forgotten, and its repeat starts again (fail open)`, async () => {
		for (let id = 0; id <= REMEMBERED_RECORDS; id++) {
			await deliver(customerUpdate(id), { parameters: drop, answers: [record({ customers_id: id })] });
		}
		expect(nodeData().seen).toHaveLength(REMEMBERED_RECORDS);
		const last = await stored.around(
			deliveryOptions(customerUpdate(REMEMBERED_RECORDS), {
				parameters: drop,
				answers: [record({ customers_id: REMEMBERED_RECORDS })],
			}),
			async (context) => triggerOfAnotherProcess().webhook.call(context.webhook),
		);
		expect(started(last.result)).toEqual([]);
		const oldest = await stored.around(
			deliveryOptions(customerUpdate(0), { parameters: drop, answers: [record({ customers_id: 0 })] }),
			async (context) => triggerOfAnotherProcess().webhook.call(context.webhook),
		);
		expect(started(oldest.result)).toHaveLength(1);
	});

	test('with both options off it forgets, and a delivery writes no static data and fetches nothing', async () => {
		await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] });
		const off = await deliver(customerUpdate(5));
		expect(off.items).toHaveLength(1);
		expect(off.fake.calls).toHaveLength(0);
		expect(nodeData()).not.toHaveProperty('seen');
		const again = deliveryContext(customerUpdate(5));
		await new AgencyCrmTrigger().webhook.call(again.webhook);
		expect(again.savedStaticData()).toBeUndefined();
		// Turned on again, it compares with nothing older.
		expect((await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
	});

	test('unreadable memory, and what versions before production kept (delivery ids), count as empty and are dropped', async () => {
		stored.data[`node:${NODE_NAME}`] = {
			...nodeData(),
			seen: [['customer:5', 'not', 'a', 'valid entry']],
			seenDeliveries: ['d-1'],
			seenRecords: [['customer:5', 'abc']],
		};
		expect((await deliver(customerUpdate(5), { parameters: drop, answers: [contact()] })).items).toHaveLength(1);
		expect(nodeData()).not.toHaveProperty('seenDeliveries');
		expect(nodeData()).not.toHaveProperty('seenRecords');
		expect(nodeData().seen).toEqual([['customer:5', expect.any(String), null, 'CUSTOMER_UPDATE', expect.any(Number)]]);
	});
});

describe('Property Deleted (PRODUCT_DELETE)', () => {
	beforeEach(() => activatedBefore());
	const deletion = { event_type: 'PRODUCT_DELETE', resource_id: 8 };
	const events = ['PRODUCT_DELETE'];

	test('the item carries the id and says the record is gone; nothing is fetched without Fetch Full Record', async () => {
		const { fake, items } = await deliver(deletion, { parameters: { events, dropRepeatedDeliveries: true } });
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
		expect((await deliver(deletion, { parameters: { events, dropRepeatedDeliveries: true } })).items).toEqual([]);
	});

	test('with Fetch Full Record, the 404 is the answer expected: the record is null, and nothing fails', async () => {
		const { fake, items } = await deliver(deletion, {
			parameters: { events, fetchFullRecord: true },
			answers: [status(404, {}, { error: { code: 'NOT_FOUND', message: 'No such product' } })],
		});
		expect(fake.requests()[0].url).toBe('/products/8');
		expect(items).toEqual([expect.objectContaining({ resource_id: 8, deleted: true, record: null })]);
	});
});

describe('Events given by an expression', () => {
	const putOrigines = (fake: ReturnType<typeof fakeContext>) => fake.requests()[1].body!.origines;
	const hookHere = { id: 7, url: PRODUCTION_URL, origines: [], headers: { [SECRET_HEADER]: SECRET } };

	test.each([
		['one event as text', 'property.updated', ['property.updated']],
		['a comma-separated text', 'CUSTOMER_CREATE, PRODUCT_DELETE', ['CUSTOMER_CREATE', 'PRODUCT_DELETE']],
		['an array', ['PRODUCT_UPDATE', 'CUSTOMER_UPDATE'], ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE']],
	])('%s subscribes to those events, never to single letters', async (_case, events, origines) => {
		const fake = await activate([ok({ data: [hookHere] }), ok({ data: hookHere })], 'trigger', PRODUCTION_URL, {
			events,
		});
		expect(putOrigines(fake)).toEqual(origines);
	});

	test.each([
		['an object', { event: 'CUSTOMER_CREATE' }, '"[object Object]"'],
		['a number in the list', ['CUSTOMER_CREATE', 5], '"5"'],
	])('%s fails the activation naming the field, before any request', async (_case, events, shown) => {
		const fake = fakeContext({ webhookUrl: PRODUCTION_URL, nodeName: NODE_NAME, parameters: { events } });
		await expect(new AgencyCrmTrigger().webhookMethods.default.create.call(fake.hook)).rejects.toThrow(
			`Invalid input: "Events" (origines) must be event types such as CUSTOMER_CREATE, given as a list or a comma-separated text (got ${shown})`,
		);
		expect(fake.calls).toHaveLength(0);
	});

	test('deliveries are matched against the events of a comma-separated text', async () => {
		activatedBefore();
		const parameters = { events: 'CUSTOMER_UPDATE, PRODUCT_UPDATE' };
		expect((await deliver({ event_type: 'PRODUCT_UPDATE', resource_id: 8 }, { parameters })).items).toHaveLength(1);
		const other = await deliver({ event_type: 'PRODUCT_DELETE', resource_id: 8 }, { parameters });
		expect(other.items).toEqual([]);
		expect(other.fake.response.body).toEqual({
			received: true,
			started: false,
			reason: 'an event this trigger does not listen to',
		});
	});
});

describe('Skip Unchanged Records', () => {
	beforeEach(() => activatedBefore());
	const skip = { fetchFullRecord: true, skipUnchangedRecords: true };
	const ana = { customers_id: 5, firstname: 'Ana', email: 'ana@example.com', updated_at: '2026-05-01T10:00:00Z' };

	test('a write-back of the same values (only updated_at moved) starts nothing; a real change starts', async () => {
		expect((await deliver(customerUpdate(5), { parameters: skip, answers: [record(ana)] })).items).toHaveLength(1);
		const echo = await deliver(customerUpdate(5), {
			parameters: skip,
			answers: [record({ ...ana, updated_at: '2026-05-01T10:00:03Z' })],
		});
		expect(echo.items).toEqual([]);
		expect(echo.fake.response).toEqual({
			statusCode: 200,
			body: { received: true, started: false, reason: 'unchanged' },
		});
		expect(echo.fake.logs.map((log) => log.message)).toEqual([
			'Agency CRM Trigger: CUSTOMER_UPDATE customer 5 is unchanged but for the fields to ignore (Skip Unchanged Records): answered, nothing started (1 unchanged record(s) dropped by this n8n process).',
		]);
		const changed = await deliver(customerUpdate(5), {
			parameters: skip,
			answers: [record({ ...ana, firstname: 'Anna', updated_at: '2026-05-01T10:05:00Z' })],
		});
		expect(changed.items).toEqual([
			expect.objectContaining({ record: expect.objectContaining({ firstname: 'Anna' }) }),
		]);
	});

	test("the record compared is fetched with what a change can touch: a contact's address, consent and SMS opt-out, a property's criteria and photos (production's fetch values); each can be removed", async () => {
		const contactFetch = await deliver(customerUpdate(5), {
			parameters: { ...skip, customerInclude: ['groups'] },
			answers: [record(ana)],
		});
		expect(contactFetch.fake.requests()[0].qs).toEqual({ include: 'origin,groups,address,consent,stopSms' });
		const product = await deliver(
			{ event_type: 'PRODUCT_UPDATE', resource_id: 8 },
			{ parameters: skip, answers: [record({ product_id: 8 })] },
		);
		expect(product.fake.requests()[0].qs).toEqual({
			fetch: 'criteres_fulltext,criteres_flag,criteres_number,criteres_text,products_photos',
		});
		const removed = await deliver(customerUpdate(6), {
			parameters: { ...skip, contactCompared: [] },
			answers: [record({})],
		});
		expect(removed.fake.requests()[0].qs).toEqual({ include: 'origin,groups' });
		const unskipped = await deliver(customerUpdate(7), {
			parameters: { fetchFullRecord: true },
			answers: [record({})],
		});
		expect(unskipped.fake.requests()[0].qs).toEqual({ include: 'origin,groups' });
	});

	test.each([
		['a consent revoked', { consent: { status: 'revoked', revoked_at: '2026-05-02T09:00:00Z' } }],
		['an SMS opt-out', { stop_sms: true }],
		['a new address', { address: { city: 'Lyon' } }],
	])('%s is a change: the workflow starts', async (_case, change) => {
		const withRelations = { ...ana, consent: { status: 'collected' }, stop_sms: false, address: { city: 'Annecy' } };
		await deliver(customerUpdate(5), { parameters: skip, answers: [record(withRelations)] });
		const changed = { ...withRelations, ...change, updated_at: '2026-05-02T09:00:00Z' };
		expect((await deliver(customerUpdate(5), { parameters: skip, answers: [record(changed)] })).items).toHaveLength(1);
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
		await deliver(productUpdate, { parameters: skip, answers: [record(listing)] });
		let current: IDataObject = listing;
		for (const change of [
			{ criteres_number: [{ critere_id: 'Prix', critere_value: 299000 }] },
			{ products_photos: [{ id: 1 }, { id: 2 }] },
		]) {
			current = { ...current, ...change, last_modified: `${String(current.last_modified)}'` };
			expect((await deliver(productUpdate, { parameters: skip, answers: [record(current)] })).items).toHaveLength(1);
		}
		// last_modified alone (production's timestamp) is ignored by default.
		const touched = { ...current, last_modified: 'later' };
		expect((await deliver(productUpdate, { parameters: skip, answers: [record(touched)] })).items).toEqual([]);
	});

	test('ignored names apply at every depth; key order is no change; other fields count', async () => {
		const parameters = { ...skip, ignoredFields: 'updated_at, views' };
		const product = { product_id: 8, title: 'Loft', views: 3, lots: [{ lot_id: 1, updated_at: 't1' }] };
		const productUpdate = { event_type: 'PRODUCT_UPDATE', resource_id: 8 };
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
			{ event_type: 'PRODUCT_UPDATE', resource_id: 5 },
			{ parameters: skip, answers: [record({ same: true })] },
		);
		expect(product.items).toHaveLength(1);
	});

	test('turned off, it forgets what it compared, so turning it on again compares with nothing older (fail open)', async () => {
		const both = { ...skip, dropRepeatedDeliveries: true };
		await deliver(customerUpdate(5), { parameters: both, answers: [record(ana)] });
		await deliver(customerUpdate(6), {
			parameters: { fetchFullRecord: true, dropRepeatedDeliveries: true },
			answers: [record({ customers_id: 6 })],
		});
		expect((nodeData().seen as unknown[][]).map((entry) => entry[2])).toEqual([null, null]);
		const echo = { ...ana, updated_at: 'later' };
		expect((await deliver(customerUpdate(5), { parameters: both, answers: [record(echo)] })).items).toHaveLength(1);
	});

	test('fingerprints are short, so the memory stays small whatever the record size', () => {
		const big = { text: 'x'.repeat(100_000) };
		expect(recordFingerprint(big, [])).toMatch(/^[A-Za-z0-9_-]{22}$/);
		expect(recordFingerprint(big, [])).not.toBe(recordFingerprint({ text: 'y' }, []));
	});
});

describe('Answer: From the Workflow', () => {
	const answering = { answer: 'workflow' };
	const ANSWER_URL = PRODUCTION_URL.replace(/\/webhook$/, '/answer');

	test('the hook delivers to the answering webhook; a delivery that starts the workflow is left for it to answer', async () => {
		const fake = await activate(
			[ok({ data: [] }), status(201, {}, { data: { id: 9, url: ANSWER_URL } })],
			'trigger',
			PRODUCTION_URL,
			answering,
		);
		expect(fake.requests()[1]).toMatchObject({ method: 'POST', url: '/hooks', body: { url: ANSWER_URL } });
		const secret = (fake.requests()[1].body!.headers as IDataObject)[SECRET_HEADER] as string;
		const delivery = fakeContext({
			...deliveryOptions(customerUpdate(5), { parameters: answering, secret }),
			staticData: stored.data,
			webhookName: 'setup',
		});
		const result = await new AgencyCrmTrigger().webhook.call(delivery.webhook);
		expect(started(result)).toHaveLength(1);
		expect(result.noWebhookResponse).toBeUndefined();
		// n8n waits for the workflow's Agency CRM Answer node: the trigger wrote nothing.
		expect(delivery.response).toEqual({});
	});
});

test('a delivery the workflow answers changes no static data (n8n 1.x would end the answer early); the trigger writes its decision with its next own answer', async () => {
	activatedBefore();
	const answering = { answer: 'workflow', dropRepeatedDeliveries: true };
	const viaAnswer = (notification: unknown, answers: ScriptedAnswer[]) =>
		stored.around(
			{ ...deliveryOptions(notification, { parameters: answering, answers }), webhookName: 'setup' },
			async (context) => new AgencyCrmTrigger().webhook.call(context.webhook),
		);
	const first = await viaAnswer(customerUpdate(5), [contact()]);
	expect(started(first.result)).toHaveLength(1);
	expect(first.fake.savedStaticData()).toBeUndefined();
	// The workflow answered: the repeat is dropped in this process, and the trigger's own answer writes both.
	const repeat = await viaAnswer(customerUpdate(5), [contact()]);
	expect(started(repeat.result)).toEqual([]);
	expect((nodeData().seen as unknown[][]).map(([key]) => key)).toEqual(['customer:5']);
});

describe('after an activation: the suspension said, the catch-up when deliveries were lost', () => {
	const suspendedHook = {
		id: 7,
		url: PRODUCTION_URL,
		origines: EVENTS,
		headers: { [SECRET_HEADER]: SECRET },
		status: 'suspended',
	};
	const catchUpOn = { dropRepeatedDeliveries: true, catchUp: true };
	const progress = (deliveredAt: number) => {
		activatedBefore();
		(stored.data[`node:${NODE_NAME}`] as IDataObject).progress = { deliveredAt, lastContactId: 10 };
	};

	test('a hook found suspended is reactivated and the log says so; with the catch-up off, the log says what is not replayed', async () => {
		progress(Date.now() - 60_000);
		const fake = await activate([ok({ data: [suspendedHook] }), ok({ data: { ...suspendedHook, status: 'active' } })]);
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
					'Agency CRM Trigger: the changes made while the webhook of workflow "Test workflow" was suspended were not delivered, and are not replayed ("Catch Up on Missed Changes" is off).',
			},
		]);
	});

	test.each([
		['a hook found suspended', 'activate', 'suspended', 'its webhook was suspended'],
		["n8n's start", 'init', 'active', 'n8n started'],
	])(
		'%s: the properties changed since the last delivery and the contacts above the last one seen are replayed to the webhook, once',
		async (_case, activationMode, hookStatus, said) => {
			const deliveredAt = Date.parse('2026-05-01T10:30:00Z');
			progress(deliveredAt);
			const hook = { ...suspendedHook, status: hookStatus };
			const fake = await activate(
				[
					ok({ data: [hook] }),
					ok({ data: { ...hook, status: 'active' } }),
					ok({ data: [{ product_id: 8, created_at: '2026-04-01T00:00:00Z' }], meta: { has_more: false } }),
					ok({ data: [{ customers_id: 12 }, { customers_id: 11 }, { customers_id: 10 }], meta: { has_more: true } }),
				],
				'trigger',
				PRODUCTION_URL,
				{ ...catchUpOn, events: ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'] },
				activationMode,
			);
			await waitFor('the replays', () => (fake.httpRequests.length === 3 ? true : undefined), 10_000);
			expect(fake.requests().slice(2)).toEqual([
				{
					method: 'POST',
					url: '/products/search',
					qs: undefined,
					body: { last_modified: '2026-05-01T10:15:00+00:00', count: 100 },
				},
				{ method: 'POST', url: '/customers/search', qs: { include: 'origin,groups' }, body: { per_page: 200 } },
			]);
			expect(fake.httpRequests.map(({ method, url, headers, body }) => ({ method, url, headers, body }))).toEqual([
				{
					method: 'POST',
					url: PRODUCTION_URL,
					headers: { [SECRET_HEADER]: SECRET },
					body: { event_type: 'PRODUCT_UPDATE', resource_id: 8, catch_up: true },
				},
				...[12, 11].map((id) => ({
					method: 'POST',
					url: PRODUCTION_URL,
					headers: { [SECRET_HEADER]: SECRET },
					body: { event_type: 'CUSTOMER_CREATE', resource_id: id, catch_up: true },
				})),
			]);
			expect(fake.logs.map((log) => log.message)).toContain(
				`Agency CRM Trigger: catch-up of workflow "Test workflow" (${said}): 3 change(s) to replay (properties changed since 2026-05-01T10:15:00+00:00; contacts above 10); those the workflow already took start nothing.`,
			);
			// What the catch-up covered needs no second one: the next start looks from now.
			expect((nodeData().progress as IDataObject).deliveredAt).toBeGreaterThan(deliveredAt);
		},
	);

	test('a replay of a state the workflow already took starts nothing, whatever its event; a new one starts, marked caught_up', async () => {
		activatedBefore();
		const parameters = { dropRepeatedDeliveries: true, events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'] };
		await deliver(customerUpdate(5), { parameters, answers: [contact()] });
		const replay = (id: number) => ({ event_type: 'CUSTOMER_CREATE', resource_id: id, catch_up: true });
		expect((await deliver(replay(5), { parameters, answers: [contact()] })).items).toEqual([]);
		const fresh = await deliver(replay(6), { parameters, answers: [record({ customers_id: 6 })] });
		expect(fresh.items).toEqual([expect.objectContaining({ resource_id: 6, caught_up: true })]);
		// After a replay, the same state under any event is a repeat.
		expect((await deliver(customerUpdate(6), { parameters, answers: [record({ customers_id: 6 })] })).items).toEqual(
			[],
		);
	});

	test('an ordinary activation of a live hook replays nothing; a hook registered afresh starts the progress from now', async () => {
		progress(Date.now() - 3_600_000);
		const live = { ...suspendedHook, status: 'active' };
		const fake = await activate([ok({ data: [live] }), ok({ data: live })], 'trigger', PRODUCTION_URL, catchUpOn);
		await new Promise((resolve) => setTimeout(resolve, 2500));
		expect(fake.calls).toHaveLength(2);
		expect(fake.httpRequests).toEqual([]);

		stored.data = {};
		const before = Date.now();
		const fresh = await activate(
			[
				ok({ data: [] }),
				status(201, {}, { data: { id: 8, url: PRODUCTION_URL } }),
				ok({ data: [{ customers_id: 40 }] }),
			],
			'trigger',
			PRODUCTION_URL,
			{ ...catchUpOn, events: ['CUSTOMER_CREATE'] },
		);
		expect(fresh.requests()[2]).toMatchObject({ method: 'POST', url: '/customers/search', body: { per_page: 1 } });
		expect(nodeData().progress).toEqual({ deliveredAt: expect.any(Number), lastContactId: 40 });
		expect((nodeData().progress as IDataObject).deliveredAt).toBeGreaterThanOrEqual(before);
	});
});

describe('Agency CRM Answer', () => {
	const triggerAnswering = (answer: string) => [
		{ name: NODE_NAME, type: 'n8n-nodes-agency-crm.agencyCrmTrigger', typeVersion: 2, parameters: { answer } },
	];
	const run = (parameters: Record<string, unknown>, parentNodes = triggerAnswering('workflow')) => {
		const fake = fakeContext({ nodeName: 'Agency CRM Answer', parameters, parentNodes, items: [{ json: { a: 1 } }] });
		return { fake, output: new AgencyCrmAnswer().execute.call(fake.execute) };
	};

	test('refuses the record with a 422 and the reason (Agency CRM marks it as errored), and passes its items on', async () => {
		const { fake, output } = run({ answer: 'refuse', reason: ' No e-mail address ' });
		expect(await output).toEqual([[{ json: { a: 1 } }]]);
		expect(fake.sentResponses).toEqual([{ body: { reason: 'No e-mail address' }, headers: {}, statusCode: 422 }]);
	});

	test('accepts with a 200', async () => {
		const { fake, output } = run({ answer: 'accept' });
		await output;
		expect(fake.sentResponses).toEqual([{ body: { received: true }, headers: {}, statusCode: 200 }]);
	});

	test('refuses without a reason, before answering anything', async () => {
		const { fake, output } = run({ answer: 'refuse', reason: '  ' });
		await expect(output).rejects.toThrow('Invalid input: "Reason" is required to refuse a record');
		expect(fake.sentResponses).toEqual([]);
	});

	test('after a trigger that answers at once (or none), it says how to set the trigger, and answers nothing', async () => {
		for (const parents of [triggerAnswering('immediately'), []]) {
			const { fake, output } = run({ answer: 'accept' }, parents);
			await expect(output).rejects.toThrow('No Agency CRM Trigger before this node leaves the answer to it');
			expect(fake.sentResponses).toEqual([]);
		}
	});
});
