import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { importJson, installedN8n, publicApi } from '../../tools/n8n/launcher';
import { chainedWorkflow, sandboxCredential, triggerNode } from '../../tools/n8n/workflows';
import { startLoadBalancer } from '../../bench/loadBalancer';
import type { LoadBalancer } from '../../bench/loadBalancer';
import { portBase } from '../support/real-n8n/context';
import type { PublicApi } from '../support/real-n8n/executions';
import { setActive } from '../support/real-n8n/executions';
import { admin, hooksSettleTo } from '../support/sandbox/admin';
import { QueueCluster } from '../support/queue-mode/cluster';

/** Point 7 of issue 28 (investigation): 200 deliveries through two webhook processors. */
const n8n = installedN8n();
const WORKFLOW = 'wfQueueBurst0001';
const WEBHOOK_ID = randomUUID();

let sandbox: Sandbox;
let balancer: LoadBalancer;
let cluster: QueueCluster;
let api: PublicApi;

interface Summary {
	id: string;
	status: string;
	stoppedAt: string | null;
}

async function summaries(): Promise<Summary[]> {
	const all: Summary[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ includeData: 'false', limit: '250', workflowId: WORKFLOW });
		if (cursor) query.set('cursor', cursor);
		const { status, body } = await api<{ data: Summary[]; nextCursor?: string | null }>(
			'GET',
			`/executions?${query.toString()}`,
		);
		if (status === 503) continue;
		if (status !== 200) throw new Error(`executions: ${status} ${JSON.stringify(body)}`);
		all.push(...body.data);
		cursor = body.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

beforeAll(async () => {
	sandbox = await startSandbox({
		port: 0,
		quiet: true,
		seed: 7,
		customers: 250,
		deliveryTimeoutMs: 60_000,
		deliveryRetryDelaysMs: [],
		suspendUndelivered: false,
	});
	balancer = await startLoadBalancer();
	const base = portBase() + 30;
	cluster = await QueueCluster.create(n8n, `${balancer.url}/`);
	const main = cluster.instance('main', base);
	const processors = ['webhook1', 'webhook2'].map((name, index) => cluster.instance(name, base + 2 + 2 * index));
	cluster.instance('worker', base + 6);
	const credential = sandboxCredential(
		'credQueueBurst01',
		sandbox.origin,
		sandbox.clients.find((c) => c.clientId === 'demo-client')!,
	);
	await importJson(main, 'credentials', [credential]);
	await importJson(main, 'workflow', [
		chainedWorkflow(WORKFLOW, [
			triggerNode(credential, WEBHOOK_ID, { events: ['CUSTOMER_UPDATE'], fetchFullRecord: true }),
		]),
	]);
	await cluster.start('main', 'start');
	await Promise.all([
		cluster.start('webhook1', 'webhook'),
		cluster.start('webhook2', 'webhook'),
		cluster.start('worker', 'worker'),
	]);
	balancer.setUpstreams(processors.map((instance) => instance.port));
	api = await publicApi(cluster.processes.main);
}, 600_000);

afterAll(async () => {
	await cluster?.stop();
	await balancer?.close();
	await sandbox?.close();
}, 120_000);

test('200 deliveries through two webhook processors: late or lost', async () => {
	await setActive(api, WORKFLOW, true);
	const [hook] = await hooksSettleTo(sandbox.origin, 1);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	await admin(sandbox.origin, 'POST', '/reset');
	const ids = Array.from({ length: 200 }, (_, index) => 10001 + index);
	const started = Date.now();
	const burst = await admin<{
		data: { delivered: number; failed: number; latency_ms: Record<string, number> };
	}>(sandbox.origin, 'POST', '/deliveries/burst', {
		hook_id: hook.id,
		count: 200,
		event_type: 'CUSTOMER_UPDATE',
		resource_ids: ids,
	});
	console.log(
		`[burst] acknowledged ${burst.data.delivered}, failed ${burst.data.failed}, latency ${JSON.stringify(burst.data.latency_ms)}, in ${Date.now() - started} ms`,
	);
	let last = '';
	for (let second = 0; second < 600; second += 5) {
		const all = await summaries();
		const byStatus: Record<string, number> = {};
		for (const execution of all) byStatus[execution.status] = (byStatus[execution.status] ?? 0) + 1;
		const line = `${all.length} executions ${JSON.stringify(byStatus)}`;
		if (line !== last) console.log(`[burst] +${Math.round((Date.now() - started) / 1000)} s: ${line}`);
		last = line;
		if (all.length >= 200 && all.every((execution) => execution.stoppedAt)) break;
		await new Promise((resolve) => setTimeout(resolve, 5000));
	}
	const counters = await admin<{ requests_by_route: Record<string, number> }>(sandbox.origin, 'GET', '/counters');
	console.log(`[burst] record fetches: ${counters.requests_by_route['GET /customers/{customerId}'] ?? 0}`);
	for (const [name, process] of Object.entries(cluster.processes)) {
		const errors = process
			.log()
			.split('\n')
			.filter((line) => /error|fail|stalled|crash/i.test(line))
			.slice(0, 20);
		console.log(`[burst] ${name}: ${errors.length} error lines\n${errors.join('\n')}`);
	}
}, 900_000);
