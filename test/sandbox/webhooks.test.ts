import { detailFields, eventually, sleep, useSandbox } from '../support/sandbox/harness';
import { REFUSAL_REASON, useReceiver } from '../support/sandbox/receiver';

const DELIVERY_TIMEOUT_MS = 300;
/** Production retries 3 times with growing delay (docs/assumptions.md); shorter here. */
const RETRY_DELAYS_MS = [100, 200, 400];

const h = useSandbox({ deliveryTimeoutMs: DELIVERY_TIMEOUT_MS, deliveryRetryDelaysMs: RETRY_DELAYS_MS });
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

interface LogEntry {
	delivery_id: string;
	attempt: number;
	hook_id: number;
	url: string;
	event_type: string;
	resource_id: number;
	status: number | null;
	error: string | null;
	outcome: string;
	retry_at: string | null;
	suspended: boolean;
	response_body: string | null;
	duration_ms: number;
	at: string;
}

async function logOf(hookId: number): Promise<LogEntry[]> {
	return (await h.admin('GET', '/deliveries')).body.data.filter((entry: LogEntry) => entry.hook_id === hookId);
}

describe('deliveries', () => {
	test('POST only event_type and resource_id, as production does, with the custom headers', async () => {
		await subscribe('/ok', ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE'], {
			headers: { 'X-Agency-Crm-Secret': 's3cret' },
		});
		const created = await h.api('POST', '/customers', { body: { lastname: 'Webhook', email: 'webhook@example.org' } });
		const customerId = created.body.data.customers_id;
		await h.api('PATCH', `/customers/${customerId}`, { body: { firstname: 'Wanda' } });
		const product = await h.api('POST', '/products', {
			body: { agency_id: 101, criteria: [{ id: 'TypeBien', value: 'Terrain' }] },
		});
		const deliveries = await eventually(
			'three deliveries to /ok',
			async () => receiver.at('/ok').length >= 3 && receiver.at('/ok'),
		);
		const byType = Object.fromEntries(deliveries.map((delivery) => [delivery.body.event_type, delivery]));
		expect(byType.CUSTOMER_CREATE.body).toEqual({ event_type: 'CUSTOMER_CREATE', resource_id: customerId });
		expect(byType.CUSTOMER_UPDATE.body).toEqual({ event_type: 'CUSTOMER_UPDATE', resource_id: customerId });
		expect(byType.PRODUCT_CREATE.body).toEqual({
			event_type: 'PRODUCT_CREATE',
			resource_id: product.body.data.id,
		});
		expect(byType.CUSTOMER_CREATE.headers['x-agency-crm-secret']).toBe('s3cret');
		expect(byType.CUSTOMER_CREATE.headers['content-type']).toBe('application/json');
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

	test('a consent recorded or revoked changes the contact: CUSTOMER_UPDATE', async () => {
		await subscribe('/ok', ['CUSTOMER_UPDATE']);
		expect((await h.api('POST', '/customers/10007/consent', { body: { reason: 'Signed' } })).status).toBe(204);
		expect((await h.api('DELETE', '/customers/10007/consent')).status).toBe(204);
		const deliveries = await eventually(
			'two deliveries',
			async () => receiver.at('/ok').length === 2 && receiver.at('/ok'),
		);
		expect(deliveries.map((delivery) => delivery.body)).toEqual(
			Array(2).fill({ event_type: 'CUSTOMER_UPDATE', resource_id: 10007 }),
		);
	});

	test('a listing deleted in the CRM screens sends PRODUCT_DELETE, and the API no longer finds it', async () => {
		await subscribe('/ok', ['PRODUCT_DELETE', 'PRODUCT_UPDATE']);
		const deleted = await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'delete', id: 5010 });
		expect(deleted.body.data).toEqual({ product_id: 5010, deleted: true });
		const [delivery] = await eventually(
			'the delivery',
			async () => receiver.at('/ok').length === 1 && receiver.at('/ok'),
		);
		expect(delivery.body).toEqual({ event_type: 'PRODUCT_DELETE', resource_id: 5010 });
		expect((await h.api('GET', '/products/5010')).status).toBe(404);
		const again = await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'delete', id: 5010 });
		expect(again.status).toBe(404);
		const contact = await h.admin('POST', '/simulate-edit', { resource: 'customer', action: 'delete', id: 10001 });
		expect(detailFields(contact)).toEqual(['action']);
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
		await eventually('one delivery to /created', async () => receiver.at('/created').length >= 1);
		await sleep(100);
		expect(receiver.at('/ok')).toEqual([]);
		expect(receiver.at('/created')[0].body).toEqual({ event_type: 'PRODUCT_UPDATE', resource_id: 5002 });
	});
});

describe('retries, suspension and refusals', () => {
	test('a delivery not acknowledged is retried 3 times with growing delay; when the last fails, the hook is suspended until PUT url', async () => {
		const hook = await subscribe('/fail', ['CUSTOMER_UPDATE']);
		await editCustomer();
		await eventually('the suspension', async () => (await adminHook(hook.id)).status === 'suspended');
		const attempts = await logOf(hook.id);
		expect(attempts.map((entry) => [entry.attempt, entry.outcome, entry.status, entry.suspended])).toEqual([
			[1, 'failed', 500, false],
			[2, 'failed', 500, false],
			[3, 'failed', 500, false],
			[4, 'failed', 500, true],
		]);
		expect(new Set(attempts.map((entry) => entry.delivery_id)).size).toBe(1);
		expect(receiver.at('/fail').map((delivery) => delivery.body)).toEqual(
			Array(4).fill({ event_type: 'CUSTOMER_UPDATE', resource_id: 10001 }),
		);
		// Each retry waits its delay, longer each time.
		const arrivals = receiver.at('/fail').map((delivery) => delivery.at);
		const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]);
		gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[index]));
		expect(attempts.slice(0, 3).map((entry) => entry.retry_at !== null)).toEqual([true, true, true]);
		expect(attempts[3].retry_at).toBeNull();
		expect(await adminHook(hook.id)).toMatchObject({ status: 'suspended', consecutive_failures: 4, site_id: 1 });
		// Silent, as production's: the API's hook record has production's keys only.
		expect(Object.keys((await h.api('GET', '/hooks')).body.data[0]).sort()).toEqual([
			'authId',
			'format',
			'headers',
			'id',
			'origines',
			'url',
		]);

		// While suspended, an event is not sent, and the log says so.
		await editCustomer();
		const skipped = await eventually('the event not sent', async () => (await logOf(hook.id))[4]);
		expect(skipped).toMatchObject({ attempt: 1, outcome: 'not sent', status: null });
		expect(skipped.error).toMatch(/^not sent: webhook \d+ is suspended/);
		expect(receiver.at('/fail')).toHaveLength(4);

		const reactivated = await h.api('PUT', `/hooks/${hook.id}`, { body: { url: receiver.url('/ok') } });
		expect(reactivated.body.data).not.toHaveProperty('status');
		await editCustomer();
		await eventually('one delivery to /ok', async () => receiver.at('/ok').length === 1);
		expect(await adminHook(hook.id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
	});

	test('a retry that is acknowledged ends the delivery: the hook stays active', async () => {
		const hook = await subscribe('/ok', ['CUSTOMER_UPDATE']);
		await h.admin('POST', '/deliveries/late-acks', { count: 2 });
		await editCustomer();
		await eventually('three attempts', async () => (await logOf(hook.id)).length === 3);
		await sleep(RETRY_DELAYS_MS[2] + 200);
		const attempts = await logOf(hook.id);
		expect(attempts.map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
			[1, 'failed', 200],
			[2, 'failed', 200],
			[3, 'delivered', 200],
		]);
		expect(attempts[0].error).toBe('acknowledged after the timeout (counted late)');
		expect(receiver.at('/ok')).toHaveLength(3);
		expect(await adminHook(hook.id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
	});

	test('a 422 refuses the record: not retried, the record marked errored with the reason, until a later delivery is taken', async () => {
		const refusing = await subscribe('/refuse', ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE']);
		await editCustomer(10003);
		await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'update', id: 5003, changes: {} });
		await eventually('two refusals', async () => (await logOf(refusing.id)).length === 2);
		await sleep(RETRY_DELAYS_MS[0] + 200);
		const attempts = await logOf(refusing.id);
		expect(attempts.map((entry) => [entry.outcome, entry.status, entry.retry_at])).toEqual([
			['rejected', 422, null],
			['rejected', 422, null],
		]);
		expect((await adminHook(refusing.id)).consecutive_failures).toBe(0);
		const customer = (await h.admin('GET', '/records/rejection/customer:10003')).body.data;
		expect(customer).toEqual({
			resource_type: 'customer',
			resource_id: 10003,
			site_id: 1,
			event_type: 'CUSTOMER_UPDATE',
			hook_id: refusing.id,
			reason: REFUSAL_REASON,
			at: expect.any(String),
		});
		expect((await h.admin('GET', '/records/rejection/product:5003')).body.data.reason).toBe(REFUSAL_REASON);

		await h.api('PUT', `/hooks/${refusing.id}`, { body: { url: receiver.url('/ok') } });
		await editCustomer(10003);
		await eventually('the delivery taken', async () => receiver.at('/ok').length === 1);
		expect((await h.admin('GET', '/records/rejection/customer:10003')).status).toBe(404);
	});

	test('a 201 is not an acknowledgement: retried', async () => {
		const creating = await subscribe('/created', ['CUSTOMER_UPDATE']);
		await editCustomer();
		await eventually('a retry', async () => receiver.at('/created').length >= 2);
		expect((await logOf(creating.id))[0]).toMatchObject({
			outcome: 'failed',
			status: 201,
			error: 'receiver answered 201, not 200',
		});
	});

	test('deliveries never block the API answer; no answer in time is a failure', async () => {
		const hook = await subscribe('/slow', ['CUSTOMER_CREATE']);
		const started = performance.now();
		const result = await h.api('POST', '/customers', { body: { lastname: 'Pressé', email: 'presse@example.org' } });
		const elapsed = performance.now() - started;
		expect(result.status).toBe(201);
		expect(elapsed).toBeLessThan(DELIVERY_TIMEOUT_MS);
		await eventually('one delivery to /slow', async () => receiver.at('/slow').length >= 1);
		const entry = await eventually("the slow delivery's log entry", async () => (await logOf(hook.id))[0]);
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
