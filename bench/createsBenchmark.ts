import { admin, counters } from '../test/support/sandbox/admin';
import type { Bench } from './n8nBench';
import { inRounds, runWorkflow } from './n8nBench';
import type { Candidate } from './n8nWorkflows';
import type { Benchmark, Run } from './report';
import { summarise } from './report';
import { startSandboxThread } from './sandboxThread';

/** 1,000 customer creates at 20 ms of server latency: `npm run bench` and `npm run bench:profile -- creates`. */
export const CREATES = 1000;
export const LATENCY_MS = 20;

/** Customers of site 1 as the sandbox stores them. */
async function customerCount(origin: string): Promise<{ customers: number; duplicates: number }> {
	const { data } = await admin<{ data: { customers: number; duplicate_contacts: number } }>(
		origin,
		'GET',
		'/duplicate-contacts?site_id=1',
	);
	return { customers: data.customers, duplicates: data.duplicate_contacts };
}

/**
 * One run of a creates candidate in a fresh sandbox on `port` (the credentials name it): the
 * sandbox's duplicate check reads every contact, so contacts piling up over the runs would slow the
 * later ones. One item goes first, at no latency: n8n's stored token belongs to the previous
 * sandbox, and is replaced there rather than in the measured run. A warm-up run creates 100 items
 * and measures nothing.
 */
export async function createsRun(
	bench: Bench,
	candidate: Candidate,
	port: number,
	tag: string,
	warmUp = false,
): Promise<(Run & { nodeSpans: Array<{ start: number; ms: number }> }) | undefined> {
	const sandbox = await startSandboxThread({ port });
	try {
		await runWorkflow(bench, candidate, { count: 1, tag: `${tag}w` });
		if (warmUp) {
			await runWorkflow(bench, candidate, { count: 100, tag });
			return undefined;
		}
		await admin(sandbox.origin, 'POST', '/reset');
		await admin(sandbox.origin, 'POST', '/faults', { latency_ms: LATENCY_MS });
		const before = await customerCount(sandbox.origin);
		const { nodeMs, workflowMs, output, nodeSpans } = await runWorkflow(bench, candidate, { count: CREATES, tag });
		const seen = await counters(sandbox.origin);
		const after = await customerCount(sandbox.origin);
		// This node outputs the customer; the HTTP Request node the API's answer `{data: customer}`.
		const ids = output.map(
			(json) => (json.customers_id ?? (json.data as { customers_id?: unknown })?.customers_id) as number,
		);
		const outputIds = new Set(ids.filter((id) => id !== undefined));
		const created = after.customers - before.customers;
		return {
			ms: nodeMs,
			workflowMs,
			requests: seen.requests_by_route['POST /customers'] ?? 0,
			maxInFlight: seen.in_flight.max,
			lost: CREATES - outputIds.size,
			duplicated: Math.max(0, created - outputIds.size) + after.duplicates,
			nodeSpans,
		};
	} finally {
		await sandbox.close();
	}
}

export async function createsBenchmark(
	bench: Bench,
	candidates: Candidate[],
	port: number,
	rounds: number,
): Promise<Benchmark> {
	const byName = new Map(candidates.map((candidate) => [candidate.name, candidate]));
	let runNumber = 0;
	const runs = await inRounds(rounds, [...byName.keys()], async (name, warmUp) =>
		createsRun(bench, byName.get(name)!, port, `r${runNumber++}`, warmUp),
	);
	return {
		title: `${CREATES.toLocaleString('en')} customer creates at ${LATENCY_MS} ms server latency`,
		timedBy: "the creating node's own execution time as n8n records it (`executionTime` of its run)",
		candidates: Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)])),
		notes: [
			'A fresh sandbox (120 seeded customers) per run, in a worker thread of the bench; each item has its own email.',
			'requests: POST /customers received by the sandbox; max in flight: the most requests the sandbox held at once; lost: items without a created customer; duplicated: customers created beyond one per item, plus duplicate contacts.',
			"Like for like: this node reads its credential once per run and sends a bearer token, as the HTTP Request node without a credential does with the token a first node fetched (its header written by an expression). The HTTP Request node with this package's credential (a predefined credential type) has n8n read, decrypt and resolve the credential for every item, as this node did before issue 19.",
			"The HTTP Request node sends every item at once (no batching): its time is n8n's own floor for 1,000 items here, CPU-bound; this node keeps at most Concurrency requests in flight, so at 20 ms of latency its default cannot go below 1,000 / 10 × 20 ms = 2 s.",
			"The HTTP Request node's batching option is a rate (N items, then a pause), not a bound on requests in flight: at 10 items per 20 ms the requests of one batch are still in flight when the next leaves.",
		],
	};
}
