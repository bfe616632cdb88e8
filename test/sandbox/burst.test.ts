import { latencySummary } from '../../sandbox/burst';
import { detailFields, useSandbox } from '../support/sandbox/harness';
import { useReceiver } from '../support/sandbox/receiver';

// No retries here: each failure is the delivery's last attempt, so that it suspends the hook.
const h = useSandbox({ deliveryTimeoutMs: 2000, deliveryRetryDelaysMs: [] });
const receiver = useReceiver();
afterEach(async () => {
	await h.deleteAllHooks();
	receiver.clear();
});

async function subscribe(path: string, origines: string[], client = 'demo-client') {
	const result = await h.api('POST', '/hooks', {
		client,
		body: { url: receiver.url(path), origines, headers: { 'X-Agency-Crm-Secret': `secret-of-${path}` } },
	});
	expect(result.status).toBe(201);
	return result.body.data;
}

const burst = (body: unknown) => h.admin('POST', '/deliveries/burst', body);

describe('POST /_admin/deliveries/burst', () => {
	test('sends N deliveries at once to one hook, signed with its headers, and reports each', async () => {
		const hook = await subscribe('/hold', ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE']);
		const result = await burst({ hook_id: hook.id, count: 30 });
		expect(result.status).toBe(200);
		const report = result.body.data;
		expect(report).toMatchObject({ event_type: 'CUSTOMER_UPDATE', hook_ids: [hook.id], sent: 30, delivered: 30 });
		expect(report.failed).toBe(0);
		// All 30 were open at the receiver together, each held 100 ms: sent at once, not one after another.
		expect(receiver.maxOpen).toBe(30);
		expect(report.wall_ms).toBeLessThan(30 * 100);
		const received = receiver.at('/hold');
		expect(received).toHaveLength(30);
		for (const delivery of received) {
			expect(delivery.headers['x-agency-crm-secret']).toBe('secret-of-/hold');
			expect(Object.keys(delivery.body).sort()).toEqual(['event_type', 'resource_id']);
			expect(delivery.body.event_type).toBe('CUSTOMER_UPDATE');
		}
		// Resource ids default to the site's customers, ascending.
		expect(received.map((delivery) => delivery.body.resource_id).sort()).toEqual(
			Array.from({ length: 30 }, (_, index) => 10001 + index),
		);
		expect(report.deliveries.map((delivery: { resource_id: number }) => delivery.resource_id).sort()).toEqual(
			received.map((delivery) => delivery.body.resource_id).sort(),
		);
		for (const delivery of report.deliveries) {
			expect(delivery).toMatchObject({ hook_id: hook.id, status: 200, outcome: 'delivered', error: null });
			expect(delivery.ack_ms).toBeGreaterThanOrEqual(99);
			expect(delivery.duration_ms).toBeGreaterThanOrEqual(delivery.ack_ms);
		}
		const { min, p50, p95, p99, max } = report.latency_ms;
		expect(min).toBeGreaterThanOrEqual(99);
		expect([min, p50, p95, p99, max]).toEqual([min, p50, p95, p99, max].sort((a, b) => a - b));
		const counters = (await h.admin('GET', '/counters')).body.deliveries;
		expect(counters.by_event.CUSTOMER_UPDATE).toBeGreaterThanOrEqual(30);
		expect((await h.admin('GET', '/deliveries?limit=30')).body.data).toHaveLength(30);
	});

	test('to the subscribed active hooks of a site, with the chosen event and resource ids', async () => {
		const first = await subscribe('/ok', ['PRODUCT_UPDATE']);
		const second = await subscribe('/created', ['property.updated']);
		await subscribe('/refuse', ['CUSTOMER_CREATE']);
		await subscribe('/ok', ['PRODUCT_UPDATE'], 'solo-client');
		const result = await burst({ site_id: 1, event_type: 'PRODUCT_UPDATE', count: 3, resource_ids: [5002, 5003] });
		expect(result.body.data).toMatchObject({
			hook_ids: [first.id, second.id],
			sent: 6,
			delivered: 3,
			failed: 3,
		});
		expect(receiver.received.map((delivery) => [delivery.path, delivery.body.resource_id]).sort()).toEqual([
			['/created', 5002],
			['/created', 5002],
			['/created', 5003],
			['/ok', 5002],
			['/ok', 5002],
			['/ok', 5003],
		]);
		const failures = result.body.data.deliveries.filter(
			(delivery: { outcome: string }) => delivery.outcome === 'failed',
		);
		expect(
			failures.map((delivery: { status: number; hook_id: number }) => [delivery.status, delivery.hook_id]),
		).toEqual(Array(3).fill([201, second.id]));
	});

	test('a delivery whose last attempt fails suspends the hook, as real deliveries do; a suspended hook is refused', async () => {
		const hook = await subscribe('/fail', ['CUSTOMER_CREATE']);
		const result = await burst({ hook_id: hook.id, count: 3 });
		expect(result.body.data).toMatchObject({ sent: 3, delivered: 0, failed: 3 });
		const suspended = await burst({ hook_id: hook.id, count: 1 });
		expect(suspended.status).toBe(422);
		expect(detailFields(suspended)).toEqual(['hook_id']);
	});

	test('a delivery that cannot be sent has no acknowledgement time', async () => {
		const result = await h.api('POST', '/hooks', {
			body: { url: 'http://127.0.0.1:1/closed', origines: ['CUSTOMER_CREATE'] },
		});
		const report = (await burst({ hook_id: result.body.data.id, count: 1 })).body.data;
		expect(report).toMatchObject({ sent: 1, delivered: 0, failed: 1 });
		expect(report.deliveries[0]).toMatchObject({
			status: null,
			ack_ms: null,
			error: expect.stringContaining('ECONNREFUSED'),
		});
		expect(report.latency_ms).toEqual({ min: null, p50: null, p95: null, p99: null, max: null, mean: null });
	});

	const invalid: [string, Record<string, unknown>, number, string[]][] = [
		['both targets', { hook_id: 1, site_id: 1, count: 1 }, 422, ['site_id']],
		['no count', { site_id: 1, event_type: 'CUSTOMER_CREATE' }, 422, ['count']],
		['count too large', { site_id: 1, event_type: 'CUSTOMER_CREATE', count: 2001 }, 422, ['count']],
		['unknown event', { site_id: 1, event_type: 'CUSTOMER_DELETE', count: 1 }, 422, ['event_type']],
		['a site without event', { site_id: 1, count: 1 }, 422, ['event_type']],
		['a site without subscriber', { site_id: 1, event_type: 'PRODUCT_CREATE', count: 1 }, 422, ['site_id']],
		[
			'empty resource ids',
			{ site_id: 1, event_type: 'CUSTOMER_CREATE', count: 1, resource_ids: [] },
			422,
			['resource_ids'],
		],
		['an unknown hook', { hook_id: 999, count: 1 }, 404, []],
	];
	test.each(invalid)('refuses %s', async (_case, body, status, fields) => {
		await subscribe('/ok', ['CUSTOMER_CREATE']);
		const result = await burst(body);
		expect(result.status).toBe(status);
		expect(detailFields(result)).toEqual(fields);
		expect(receiver.received).toEqual([]);
	});

	test('a hook that does not subscribe to the event is refused', async () => {
		const hook = await subscribe('/ok', ['CUSTOMER_CREATE']);
		const result = await burst({ hook_id: hook.id, event_type: 'PRODUCT_UPDATE', count: 1 });
		expect(detailFields(result)).toEqual(['event_type']);
	});
});

describe('latency summary', () => {
	test('nearest-rank percentiles', () => {
		const latencies = Array.from({ length: 100 }, (_, index) => 100 - index);
		expect(latencySummary(latencies)).toEqual({ min: 1, p50: 50, p95: 95, p99: 99, max: 100, mean: 50.5 });
		expect(latencySummary([7])).toEqual({ min: 7, p50: 7, p95: 7, p99: 7, max: 7, mean: 7 });
		expect(latencySummary([])).toEqual({ min: null, p50: null, p95: null, p99: null, max: null, mean: null });
	});
});
