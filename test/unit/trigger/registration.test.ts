import type { IDataObject } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { fakeContext, ok, status } from '../../support/fakeN8n';
import { connectionError } from '../../support/n8nCores';
import {
	EVENTS,
	NODE_NAME,
	OLD_URL,
	PRODUCTION_URL,
	SECRET,
	SECRET_HEADER,
	TEST_URL,
	TriggerWorld,
	digestOf,
} from '../../support/triggerWorld';

/**
 * hookRegistration.ts and settings.ts at activation: one hook per workflow, updated in place, its
 * secret kept as a digest; Events judged before any request.
 */
let world: TriggerWorld;
beforeEach(() => {
	world = new TriggerWorld();
});

const registered = (slot: 'production' | 'test') => world.nodeData()[slot] as Record<string, unknown> | undefined;

describe('registration', () => {
	test('adopts a hook already registered for this URL (PUT, keeping its other headers) instead of adding one', async () => {
		const adopted = { id: 7, url: PRODUCTION_URL, origines: ['PRODUCT_CREATE'], headers: { 'X-Team': 'sales' } };
		const fake = await world.activate([
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
		expect(JSON.stringify(world.stored.data)).not.toContain(String(secret));
	});

	test('registers a new hook (POST) when none points here', async () => {
		const fake = await world.activate([
			ok({ data: [{ id: 3, url: 'https://elsewhere.example.com/hook', origines: EVENTS, headers: null }] }),
			status(201, {}, { data: { id: 12, url: PRODUCTION_URL, origines: EVENTS } }),
		]);
		expect(fake.requests()[1]).toMatchObject({ method: 'POST', url: '/hooks', body: { url: PRODUCTION_URL } });
		expect(registered('production')).toMatchObject({ hookId: 12, webhookUrl: PRODUCTION_URL });
	});

	describe('a registration whose answer is lost is looked for by its URL before it is sent again', () => {
		const elsewhere = { id: 3, url: 'https://elsewhere.example.com/hook', origines: EVENTS, headers: null };
		const postedSecret = (fake: Awaited<ReturnType<TriggerWorld['activate']>>) =>
			(fake.requests()[1].body!.headers as IDataObject)[SECRET_HEADER];

		test('a connection reset after the API registered it: the hook found is adopted, never registered twice', async () => {
			const found = { id: 12, url: PRODUCTION_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } };
			const fake = await world.activate([
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
			const fake = await world.activate([
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
			const fake = await world.activate([
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
			world.activatedBefore();
			const hook = {
				id: 7,
				url: PRODUCTION_URL,
				origines: EVENTS,
				headers: { [SECRET_HEADER]: SECRET },
				...statusField,
			};
			const fake = await world.activate([ok({ data: [hook] }), ok({ data: { ...hook, status: 'active' } })]);
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
		world.activatedBefore(OLD_URL);
		const fake = await world.activate([
			ok({ data: [{ id: 7, url: OLD_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } }] }),
			ok({ data: { id: 7, url: PRODUCTION_URL } }),
		]);
		expect(fake.requests()[1]).toMatchObject({ method: 'PUT', url: '/hooks/7', body: { url: PRODUCTION_URL } });
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: PRODUCTION_URL });
	});

	test('a 404 on delete counts as removed and clears the registration', async () => {
		world.activatedBefore();
		const { removed, fake } = await world.deactivate([
			status(404, {}, { error: { code: 'NOT_FOUND', message: 'No hook' } }),
		]);
		expect(removed).toBe(true);
		expect(fake.requests()).toEqual([{ method: 'DELETE', url: '/hooks/7', qs: undefined, body: undefined }]);
		expect(registered('production')).toEqual({});
	});

	test('any other failure on delete is logged and keeps the registration, so the next activation finds the hook', async () => {
		world.activatedBefore();
		const { removed, fake } = await world.deactivate([
			status(500, {}, { error: { code: 'INTERNAL_ERROR', message: 'Oops' } }),
		]);
		expect(removed).toBe(false);
		expect(fake.logs).toEqual([{ level: 'error', message: 'Agency CRM Trigger: could not delete webhook 7' }]);
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: PRODUCTION_URL });
	});

	test('the production and the test slot never share a hook', async () => {
		const productionHook = { id: 1, url: PRODUCTION_URL, origines: EVENTS, headers: null };
		await world.activate([ok({ data: [] }), status(201, {}, { data: productionHook })]);
		const productionSecret = registered('production')!.secretDigest;

		const listening = await world.activate(
			[ok({ data: [productionHook] }), status(201, {}, { data: { id: 2, url: TEST_URL } })],
			'manual',
			TEST_URL,
		);
		expect(listening.requests()[1]).toMatchObject({ method: 'POST', url: '/hooks', body: { url: TEST_URL } });
		const testSecret = registered('test')!.secretDigest;
		expect(testSecret).not.toBe(productionSecret);

		// n8n removes the test hook in "internal" mode once the test event arrived.
		const stopped = await world.deactivate([status(204)], 'internal', TEST_URL);
		expect(stopped.fake.requests()).toEqual([{ method: 'DELETE', url: '/hooks/2', qs: undefined, body: undefined }]);
		expect(registered('production')).toEqual({ hookId: 1, secretDigest: productionSecret, webhookUrl: PRODUCTION_URL });

		const deactivated = await world.deactivate([status(204)]);
		expect(deactivated.fake.requests()).toEqual([
			{ method: 'DELETE', url: '/hooks/1', qs: undefined, body: undefined },
		]);
	});

	test('refuses to register with no event chosen, before any request', async () => {
		const fake = fakeContext({ webhookUrl: PRODUCTION_URL, nodeName: NODE_NAME, parameters: { events: [] } });
		await expect(new AgencyCrmTrigger().webhookMethods.default.create.call(fake.hook)).rejects.toThrow(
			'Invalid input: "Events" is required: a trigger with no event would never start its workflow',
		);
		expect(fake.calls).toHaveLength(0);
	});
});

describe('a workflow activated under 0.1.0, which kept the secret itself', () => {
	test('keeps only the digest from its next activation on', async () => {
		world.stored.data = {
			[`node:${NODE_NAME}`]: { production: { hookId: 7, secret: SECRET, webhookUrl: PRODUCTION_URL } },
		};
		await world.activate([
			ok({ data: [{ id: 7, url: PRODUCTION_URL, origines: EVENTS, headers: { [SECRET_HEADER]: SECRET } }] }),
			ok({ data: { id: 7, url: PRODUCTION_URL, headers: { [SECRET_HEADER]: SECRET } } }),
		]);
		expect(registered('production')).toEqual({ hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: PRODUCTION_URL });
		expect(JSON.stringify(world.stored.data)).not.toContain(SECRET);
	});
});

describe('Events (point 4 of issue 33): registered as production knows them', () => {
	const putOrigines = (fake: ReturnType<typeof fakeContext>) => fake.requests()[1].body!.origines;
	const hookHere = { id: 7, url: PRODUCTION_URL, origines: [], headers: { [SECRET_HEADER]: SECRET } };

	test.each([
		['one event as text', 'PRODUCT_UPDATE', ['PRODUCT_UPDATE']],
		["the spec's dotted name", 'property.updated', ['PRODUCT_UPDATE']],
		[
			'dotted names beside constants, in any case',
			'contact.created, Property.Deleted, customer_update',
			['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_DELETE'],
		],
		['a comma-separated text', 'CUSTOMER_CREATE, PRODUCT_DELETE', ['CUSTOMER_CREATE', 'PRODUCT_DELETE']],
		[
			'an array, one event twice',
			['PRODUCT_UPDATE', 'CUSTOMER_UPDATE', 'property.updated'],
			['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'],
		],
	])("%s subscribes to production's constants, never to single letters", async (_case, events, origines) => {
		const fake = await world.activate([ok({ data: [hookHere] }), ok({ data: hookHere })], 'trigger', PRODUCTION_URL, {
			events,
		});
		expect(putOrigines(fake)).toEqual(origines);
	});

	test.each([
		['an object', { event: 'CUSTOMER_CREATE' }, '"[object Object]"'],
		['a number in the list', ['CUSTOMER_CREATE', 5], '"5"'],
		['an event production does not send', 'CUSTOMER_CREATE, CUSTOMER_DELETE', '"CUSTOMER_DELETE"'],
		['a dotted name of no event', ['property.sold'], '"property.sold"'],
	])('%s fails the activation naming Events, before any request', async (_case, events, shown) => {
		const fake = fakeContext({ webhookUrl: PRODUCTION_URL, nodeName: NODE_NAME, parameters: { events } });
		await expect(new AgencyCrmTrigger().webhookMethods.default.create.call(fake.hook)).rejects.toThrow(
			`Invalid input: "Events" holds ${shown}, which Agency CRM does not send: use CUSTOMER_CREATE, CUSTOMER_UPDATE, PRODUCT_CREATE, PRODUCT_DELETE, PRODUCT_UPDATE, or the spec's dotted names such as property.updated`,
		);
		expect(fake.calls).toHaveLength(0);
	});
});
