import { waitFor } from '../waitFor';
import { admin, counters } from '../sandbox/admin';
import type { Execution, PublicApi } from './executions';
import { executionsOf, finished, setActive } from './executions';
import type { N8nProcess } from '../../../tools/n8n/launcher';
import type { Credential, NodeSpec } from '../../../tools/n8n/workflows';
import { byId, chainedWorkflow, crmNode, itemsNode, webhookNode } from '../../../tools/n8n/workflows';

/**
 * Issue 11's fault run inside a running n8n (test/real-n8n/reliability.test.ts, bench/real-n8n-faults.ts):
 * a workflow started by a POST to its Webhook node creates one customer per item, each with its own
 * email, against the sandbox with faults on; the run is read back from n8n's public API.
 */

/** A workflow started by a POST to its Webhook node at `path`, answered at once. */
export function webhookStarted(id: string, path: string, nodes: NodeSpec[]) {
	return chainedWorkflow(id, [webhookNode(path), ...nodes]);
}

export const CREATE_NODE = 'Create Customer';
export const faultRunPath = (tag: string) => `agency-crm-fault-run-${tag}`;
export const emailOf = (tag: string, index: number) => `fault.${tag}.${index}@example.com`;

/** `items` customer creates tagged `tag`, at the given Concurrency (none: the node's default). */
export function faultRunWorkflow(
	id: string,
	tag: string,
	credential: Credential,
	items: number,
	{ continueOnFail, concurrency }: { continueOnFail: boolean; concurrency?: number },
) {
	return webhookStarted(id, faultRunPath(tag), [
		itemsNode(
			'Items',
			Array.from({ length: items }, (_, index) => ({ index, email: emailOf(tag, index) })),
		),
		crmNode(
			CREATE_NODE,
			credential,
			{
				resource: 'customer',
				operation: 'create',
				agencyId: byId(101),
				lastname: '={{ "Fault " + $json.index }}',
				output: 'simple',
				additionalFields: { email: '={{ $json.email }}', ...(concurrency ? { concurrency } : {}) },
			},
			{ continueOnFail },
		),
	]);
}

/**
 * Posts to a Webhook node (asked again while n8n does not serve it yet) and waits for the execution it
 * started to finish. `onAnswer` gets the body n8n answered with.
 */
export async function runByWebhook(
	server: N8nProcess,
	api: PublicApi,
	workflowId: string,
	path: string,
	{ timeoutMs, onAnswer }: { timeoutMs: number; onAnswer?: (body: string) => void },
): Promise<Execution> {
	const before = (await executionsOf(api, workflowId)).length;
	const response = await waitFor('the webhook to serve', async () => {
		const answer = await fetch(`${server.url}/webhook/${path}`, { method: 'POST' });
		return answer.status === 404 ? undefined : answer;
	});
	const body = await response.text();
	onAnswer?.(body);
	if (response.status !== 200) throw new Error(`${workflowId}: ${response.status} ${body}`);
	return await waitFor(
		`the execution of ${workflowId}`,
		async () => {
			const all = await executionsOf(api, workflowId);
			return all.length > before && finished(all[0]) ? all[0] : undefined;
		},
		timeoutMs,
		1000,
	);
}

/** The stretches of over 0.5 s in which the sandbox answered none of the client's requests: the run's pauses. */
export async function pausesSeen(origin: string, clientId: string) {
	const log = await admin<{ data: Array<{ at: string; client_id: string | null }> }>(
		origin,
		'GET',
		'/requests?limit=2000',
	);
	const times = log.data.filter((entry) => entry.client_id === clientId).map((entry) => Date.parse(entry.at));
	const pauses = times
		.slice(1)
		.map((at, index) => at - times[index])
		.filter((gap) => gap > 500);
	return { count: pauses.length, totalMs: pauses.reduce((sum, gap) => sum + gap, 0) };
}

/** One fault run: its execution, wall time (from the POST to the execution's end) and what the sandbox saw. */
export async function measureFaultRun(
	server: N8nProcess,
	api: PublicApi,
	origin: string,
	{
		workflowId,
		tag,
		clientId,
		faults,
		onAnswer,
	}: { workflowId: string; tag: string; clientId: string; faults: object; onAnswer?: (body: string) => void },
) {
	await setActive(api, workflowId, true);
	await admin(origin, 'POST', '/reset');
	const before = await duplicateContacts(origin);
	await admin(origin, 'POST', '/faults', { client_id: clientId, ...faults });
	const started = Date.now();
	let execution: Execution;
	try {
		execution = await runByWebhook(server, api, workflowId, faultRunPath(tag), { timeoutMs: 900_000, onAnswer });
	} finally {
		// Whatever happened, the suites that share the sandbox get it without faults.
		await admin(origin, 'DELETE', '/faults');
	}
	const wallMs = Date.now() - started;
	await setActive(api, workflowId, false);
	const seen = await counters(origin);
	const after = await duplicateContacts(origin);
	const pauses = await pausesSeen(origin, clientId);
	return {
		execution,
		wallMs,
		nodeMs: execution.data?.resultData?.runData?.[CREATE_NODE]?.[0]?.executionTime ?? 0,
		seen,
		exchanges: seen.token_exchanges_by_client[clientId] ?? 0,
		maxInFlight: seen.in_flight.by_client[clientId]?.max ?? 0,
		customersCreated: after.customers - before.customers,
		// Made by this run: suites that share the sandbox may have made others on purpose.
		duplicateContacts: after.duplicate_contacts - before.duplicate_contacts,
		pauses,
	};
}

export type FaultRun = Awaited<ReturnType<typeof measureFaultRun>>;

/** The run in one line, as the test and the bench print it. */
export function describeFaultRun(label: string, run: FaultRun): string {
	return (
		`${label}: ${(run.wallMs / 1000).toFixed(1)} s (node ${(run.nodeMs / 1000).toFixed(1)} s); ` +
		`${run.seen.requests_total} API requests, max ${run.maxInFlight} in flight; faults ${JSON.stringify(run.seen.faults)}; ` +
		`${run.exchanges} token exchanges; ${run.pauses.count} pauses over 0.5 s, ${(run.pauses.totalMs / 1000).toFixed(1)} s in all; ` +
		`${run.customersCreated} customers created, ` +
		`${run.duplicateContacts} duplicate contacts; execution ${run.execution.status}`
	);
}

async function duplicateContacts(origin: string) {
	const { data } = await admin<{ data: { customers: number; duplicate_contacts: number } }>(
		origin,
		'GET',
		'/duplicate-contacts',
	);
	return data;
}
