import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

import { admin, counters } from '../test/support/sandbox/admin';
import type { Bench } from './n8nBench';
import { inRounds, runWorkflow } from './n8nBench';
import type { Candidate } from './n8nWorkflows';
import { RAW_LOOP } from './n8nWorkflows';
import type { RawLoopJob, RawLoopResult } from './rawLoop';
import type { Benchmark } from './report';
import { summarise } from './report';
import type { SandboxThread } from './sandboxThread';

/** Return All of 20,000 customers, 100 cursor pages of 200: `npm run bench`. */
export const CUSTOMERS = 20_000;
const PER_PAGE = 200;

export async function listBenchmark(
	bench: Bench,
	candidates: Candidate[],
	sandbox: SandboxThread,
	rawLoop: ChildProcess,
	token: string,
	rounds: number,
): Promise<Benchmark> {
	const byName = new Map(candidates.map((candidate) => [candidate.name, candidate]));
	const runs = await inRounds(rounds, [...byName.keys(), RAW_LOOP], async (name, warmUp) => {
		await admin(sandbox.origin, 'POST', '/reset');
		let ms: number;
		let workflowMs: number | undefined;
		let ids: number[];
		if (name === RAW_LOOP) {
			const job: RawLoopJob = { origin: sandbox.origin, token, perPage: PER_PAGE };
			rawLoop.send(job);
			const [result] = (await once(rawLoop, 'message')) as [RawLoopResult & { error?: string }];
			if (result.error) throw new Error(`raw loop: ${result.error}`);
			ms = result.ms;
			ids = Array.from({ length: result.distinctIds }, (_, index) => index);
			if (result.records !== result.distinctIds) ids.push(...Array(result.records - result.distinctIds).fill(0));
		} else {
			const run = await runWorkflow(bench, byName.get(name)!, {});
			ms = run.nodeMs;
			workflowMs = run.workflowMs;
			ids = run.output.map((json) => json.customers_id as number);
		}
		if (warmUp) return undefined;
		const seen = await counters(sandbox.origin);
		const distinct = new Set(ids).size;
		return {
			ms,
			workflowMs,
			requests: seen.requests_by_route['POST /customers/search'] ?? 0,
			maxInFlight: seen.in_flight.max,
			lost: CUSTOMERS - distinct,
			duplicated: ids.length - distinct,
		};
	});
	return {
		title: `Return All of ${CUSTOMERS.toLocaleString('en')} customers, ${CUSTOMERS / PER_PAGE} cursor pages of ${PER_PAGE}`,
		timedBy:
			"each node's own execution time as n8n records it (`executionTime`; HTTP Request + Split Out: the sum of both nodes'); the raw loop's own time from its first request to its last record",
		candidates: Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)])),
		notes: [
			'One sandbox with 20,000 customers for every run, in a worker thread of the bench.',
			"The raw loop runs in a process of its own on n8n's Node binary, kept up between runs (as warm as n8n): `fetch`, `response.json()`, records pushed into an array, the next cursor followed.",
			"workflow total: n8n's startedAt to stoppedAt, the Webhook node (and, for HTTP Request, the token request) included.",
			"Like for like: this node (Output Raw) and the floor both read the credential once per run and send every page through n8n's authenticated helper (`httpRequestWithAuthentication`, the credential handed over as `credentialsDecrypted`); the floor does nothing else (no parameters, validation, retries or output shaping: bench/floor). The HTTP Request node takes its token from a first node, and Split Out then makes an item of each record. The raw loop keeps one connection and nothing of n8n, whose helper opens a new connection and builds a new agent for every request (n8n 2.41 and 1.123 alike).",
			"Where the time goes: `npm run bench:profile -- list-raw` (or `list-floor`, `list-http`) adds up n8n's CPU during the node's runs by area: this package's own code, n8n's request path, the HTTP client, JSON, idle (waiting on the sandbox).",
		],
	};
}
