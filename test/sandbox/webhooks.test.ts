import { detailFields, eventually, sleep, useSandbox } from '../support/sandbox/harness';
import { useReceiver } from '../support/sandbox/receiver';

const SUSPEND_AFTER = 3;
const DELIVERY_TIMEOUT_MS = 300;

const h = useSandbox({ deliveryTimeoutMs: DELIVERY_TIMEOUT_MS, suspendAfterFailures: SUSPEND_AFTER });
const receiver = useReceiver();
afterEach(async () => {
	await h.deleteAllHooks();
	receiver.clear();
});

async function subscribe(path: string, origines: string[], extra: Record<string, unknown> = {}) {
	const result = await h.api('POST', '/hooks', { body: { url: receiver.url(path), origines, ...extra } });
	expect(result.status).toBe(201);
	return result.body.data;
}

async function adminHook(id: number) {
	return (await h.admin('GET', '/hooks')).body.data.find((hook: { id: number }) => hook.id === id);
}

function editCustomer(id = 10001) {
	return h.admin('POST', '/simulate-edit', { resource: 'customer', action: 'update', id, changes: { stop_sms: true } });
}

describe('webhook CRUD', () => {
	test('create, list, update, delete', async () => {
		const hook = await subscribe('/ok', ['CUSTOMER_CREATE'], { headers: { 'X-Secret': 'abc' }, format: 'json' });
		expect(hook).toEqual({
			id: expect.any(Number),
			url: receiver.url('/ok'),
			headers: { 'X-Secret': 'abc' },
			authId: null,
			format: 'json',
			origines: ['CUSTOMER_CREATE'],
			status: 'active',
		});
		expect((await h.api('GET', '/hooks')).body.data).toEqual([hook]);
		expect((await h.api('GET', '/hooks', { client: 'solo-client' })).body.data).toEqual([]);

		const updated = await h.api('PUT', `/hooks/${hook.id}`, {
			body: { origines: ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'], auth_id: 5, headers: null },
		});
		expect(updated.status).toBe(200);
		expect(updated.body.data).toMatchObject({
			url: hook.url,
			origines: ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'],
			authId: 5,
			headers: null,
			format: 'json',
		});

		expect((await h.api('PUT', `/hooks/${hook.id}`, { client: 'solo-client', body: { format: null } })).status).toBe(
			404,
		);
		expect((await h.api('DELETE', `/hooks/${hook.id}`)).status).toBe(204);
		expect((await h.api('PUT', `/hooks/${hook.id}`, { body: { format: null } })).status).toBe(404);
		expect((await h.api('GET', '/hooks')).body.data).toEqual([]);
	});

	test('validates the body', async () => {
		const missing = await h.api('POST', '/hooks', { body: {} });
		expect(detailFields(missing)).toEqual(['url', 'origines']);
		const invalid = await h.api('POST', '/hooks', {
			body: { url: 'ftp://example.org', origines: ['CUSTOMER_DELETE'], headers: { 'Bad Header': 'x' } },
		});
		expect(detailFields(invalid)).toEqual(['url', 'origines', 'headers.Bad Header']);
		const empty = await h.api('POST', '/hooks', { body: { url: receiver.url('/ok'), origines: [] } });
		expect(detailFields(empty)).toEqual(['origines']);
	});

	test('PUT takes every field as null, and an empty origines list (spec: "all nullable", "array")', async () => {
		const hook = await subscribe('/ok', ['CUSTOMER_UPDATE'], {
			headers: { 'X-Secret': 'abc' },
			auth_id: 3,
			format: 'v1',
		});
		const cleared = await h.api('PUT', `/hooks/${hook.id}`, {
			body: { url: null, origines: [], headers: null, auth_id: null, format: null },
		});
		expect(cleared.status).toBe(200);
		expect(cleared.body.data).toEqual({ ...hook, origines: [], headers: null, authId: null, format: null });
		await editCustomer();
		await sleep(150);
		expect(receiver.at('/ok')).toEqual([]);
		const resubscribed = await h.api('PUT', `/hooks/${hook.id}`, { body: { origines: ['CUSTOMER_UPDATE'] } });
		expect(resubscribed.body.data.origines).toEqual(['CUSTOMER_UPDATE']);
		await editCustomer();
		await eventually('one delivery to /ok', async () => receiver.at('/ok').length === 1);
	});
});

describe('deliveries', () => {
	test('POST a JSON payload with the custom headers for API creates and updates', async () => {
		await subscribe('/ok', ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE'], {
			headers: { 'X-Agency-Crm-Secret': 's3cret' },
		});
		const created = await h.api('POST', '/customers', { body: { lastname: 'Webhook', email: 'webhook@example.org' } });
		const customerId = created.body.data.customers_id;
		await h.api('PATCH', `/customers/${customerId}`, { body: { firstname: 'Wanda' } });
		await h.api('POST', '/products', { body: { agency_id: 101, criteria: [{ id: 'TypeBien', value: 'Terrain' }] } });
		const deliveries = await eventually(
			'three deliveries to /ok',
			async () => receiver.at('/ok').length >= 3 && receiver.at('/ok'),
		);
		const byType = Object.fromEntries(deliveries.map((delivery) => [delivery.body.event_type, delivery]));
		expect(byType.CUSTOMER_CREATE.body).toEqual({
			delivery_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			event_type: 'CUSTOMER_CREATE',
			resource_type: 'customer',
			resource_id: customerId,
			occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			site_id: 1,
		});
		expect(byType.CUSTOMER_CREATE.headers['x-agency-crm-secret']).toBe('s3cret');
		expect(byType.CUSTOMER_CREATE.headers['content-type']).toBe('application/json');
		expect(byType.CUSTOMER_UPDATE.body.resource_id).toBe(customerId);
		expect(byType.PRODUCT_CREATE.body.resource_type).toBe('product');
		expect(new Set(deliveries.map((delivery) => delivery.body.delivery_id)).size).toBe(3);
	});

	test('leads deliver the customer and product creations', async () => {
		await subscribe('/ok', ['CUSTOMER_CREATE', 'PRODUCT_CREATE']);
		await h.api('POST', '/leads/sellers', {
			body: {
				agency_id: 101,
				customer: { lastname: 'Lead', email: 'lead.webhook@example.org' },
				product: { criteria: [{ id: 'TypeBien', value: 'Maison' }] },
			},
		});
		const deliveries = await eventually(
			'two deliveries to /ok',
			async () => receiver.at('/ok').length >= 2 && receiver.at('/ok'),
		);
		expect(deliveries.map((delivery) => delivery.body.event_type).sort()).toEqual([
			'CUSTOMER_CREATE',
			'PRODUCT_CREATE',
		]);
	});

	test('an edit simulated in the CRM screens is delivered like an API change', async () => {
		await subscribe('/ok', ['PRODUCT_UPDATE', 'CUSTOMER_CREATE']);
		const edit = await h.admin('POST', '/simulate-edit', {
			resource: 'product',
			action: 'update',
			id: 5001,
			changes: { criteria: [{ id: 'Prix', value: 123000 }] },
		});
		expect(edit.body.data).toMatchObject({ id: 5001, price: 123000 });
		const created = await h.admin('POST', '/simulate-edit', {
			resource: 'customer',
			action: 'create',
			changes: { lastname: 'Saisi en agence', agency_id: 103 },
		});
		expect(created.body.data).toMatchObject({ agency_id: 103, lastname: 'Saisi en agence' });
		const deliveries = await eventually(
			'two deliveries to /ok',
			async () => receiver.at('/ok').length >= 2 && receiver.at('/ok'),
		);
		expect(deliveries.map((delivery) => [delivery.body.event_type, delivery.body.resource_id])).toEqual(
			expect.arrayContaining([
				['PRODUCT_UPDATE', 5001],
				['CUSTOMER_CREATE', created.body.data.customers_id],
			]),
		);
		expect((await h.api('GET', '/products/5001')).body.data.price).toBe(123000);
	});

	test('only subscribed events of the hook’s own site are delivered; property.updated means PRODUCT_UPDATE', async () => {
		await subscribe('/ok', ['CUSTOMER_CREATE']);
		await h.api('POST', '/hooks', {
			client: 'solo-client',
			body: { url: receiver.url('/ok'), origines: ['CUSTOMER_UPDATE'] },
		});
		await h.api('POST', '/hooks', { body: { url: receiver.url('/created'), origines: ['property.updated'] } });
		await editCustomer();
		await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'update', id: 5002, changes: {} });
		await eventually('one delivery to /created', async () => receiver.at('/created').length === 1);
		await sleep(100);
		expect(receiver.at('/ok')).toEqual([]);
		expect(receiver.at('/created')[0].body).toMatchObject({ event_type: 'PRODUCT_UPDATE', resource_id: 5002 });
	});
});

describe('failures and suspension', () => {
	test(`a hook is suspended after ${SUSPEND_AFTER} consecutive failures and reactivated by PUT url`, async () => {
		const hook = await subscribe('/fail', ['CUSTOMER_UPDATE']);
		for (let attempt = 1; attempt <= SUSPEND_AFTER; attempt++) {
			await editCustomer();
			await eventually('the failure counted', async () => (await adminHook(hook.id)).consecutive_failures === attempt);
		}
		expect(await adminHook(hook.id)).toMatchObject({
			status: 'suspended',
			consecutive_failures: SUSPEND_AFTER,
			site_id: 1,
		});
		expect((await h.api('GET', '/hooks')).body.data[0].status).toBe('suspended');
		await editCustomer();
		await sleep(150);
		expect(receiver.at('/fail')).toHaveLength(SUSPEND_AFTER);

		const reactivated = await h.api('PUT', `/hooks/${hook.id}`, { body: { url: receiver.url('/ok') } });
		expect(reactivated.body.data.status).toBe('active');
		await editCustomer();
		await eventually('one delivery to /ok', async () => receiver.at('/ok').length === 1);
		expect(await adminHook(hook.id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
		const log = (await h.admin('GET', '/deliveries')).body.data.filter(
			(entry: { hook_id: number }) => entry.hook_id === hook.id,
		);
		expect(log.map((entry: { outcome: string }) => entry.outcome)).toEqual([
			...Array(SUSPEND_AFTER).fill('failed'),
			'delivered',
		]);
		expect(log[0]).toMatchObject({
			status: 500,
			event_type: 'CUSTOMER_UPDATE',
			resource_id: 10001,
			url: receiver.url('/fail'),
			duration_ms: expect.any(Number),
		});
	});

	test('a 422 to a customer event counts as delivered, to a product event as a failure; so does a 201', async () => {
		const refusing = await subscribe('/refuse', ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE']);
		const creating = await subscribe('/created', ['CUSTOMER_UPDATE']);
		await editCustomer();
		await eventually(
			'a delivery to /refuse and one to /created',
			async () => receiver.at('/refuse').length === 1 && receiver.at('/created').length === 1,
		);
		await eventually(
			'the failure of the /created hook counted',
			async () => (await adminHook(creating.id)).consecutive_failures === 1,
		);
		expect((await adminHook(refusing.id)).consecutive_failures).toBe(0);
		await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'update', id: 5003, changes: {} });
		await eventually(
			'the failure of the /refuse hook counted',
			async () => (await adminHook(refusing.id)).consecutive_failures === 1,
		);
	});

	test('deliveries never block the API answer; no answer in time is a failure', async () => {
		const hook = await subscribe('/slow', ['CUSTOMER_CREATE']);
		const started = performance.now();
		const result = await h.api('POST', '/customers', { body: { lastname: 'Pressé', email: 'presse@example.org' } });
		const elapsed = performance.now() - started;
		expect(result.status).toBe(201);
		expect(elapsed).toBeLessThan(DELIVERY_TIMEOUT_MS);
		await eventually('one delivery to /slow', async () => receiver.at('/slow').length === 1);
		const entry = await eventually("the slow delivery's log entry", async () => {
			const log = (await h.admin('GET', '/deliveries')).body.data;
			return log.find((candidate: { hook_id: number }) => candidate.hook_id === hook.id);
		});
		expect(entry).toMatchObject({
			outcome: 'failed',
			status: null,
			error: `no answer within ${DELIVERY_TIMEOUT_MS} ms`,
		});
		expect(entry.duration_ms).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 5);
		const counters = (await h.admin('GET', '/counters')).body;
		expect(counters.deliveries.failed).toBeGreaterThanOrEqual(1);
		expect(counters.deliveries.by_event.CUSTOMER_CREATE).toBeGreaterThanOrEqual(1);
	});
});
