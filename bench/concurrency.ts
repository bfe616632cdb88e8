/**
 * What the Concurrency option buys: 1,000 customer creates through the action node's router (in
 * process, real credential, real HTTP) against the sandbox with 20 ms of server latency, at several
 * concurrencies, in alternating rounds. Each run has a fresh sandbox in a worker thread, so that it
 * has its own core as a remote API would, and the same data (its duplicate check scans every contact,
 * so contacts piling up over the runs would slow the later ones). Prints the median wall time, the
 * speed-up over concurrency 1, how busy the node's thread was, the most requests the sandbox saw in
 * flight, and lost or duplicated contacts. Figures only; never fails on time.
 *   npx tsc -p tsconfig.tools.json && node build/bench/concurrency.js [items] [rounds]
 */
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { parentPort, Worker } from 'node:worker_threads';

import { startSandbox } from '../sandbox';
import { customerCreates, duplicateContacts, runNode } from '../test/support/inprocess/bulk';
import { admin, counters } from '../test/support/sandbox/admin';
import { benchEntry } from './entry';

const CONCURRENCIES = [1, 2, 4, 8, 10, 12, 16, 32];
const LATENCY_MS = 20;

async function serveInWorker(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	parentPort?.postMessage(sandbox.origin);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One run on a fresh sandbox: wall time, the node thread's busy share, the most requests in flight. */
async function measure(items: number, concurrency: number) {
	const worker = new Worker(__filename);
	const [origin] = (await once(worker, 'message')) as [string];
	await admin(origin, 'POST', '/faults', { latency_ms: LATENCY_MS });
	const idle = performance.eventLoopUtilization();
	const run = await runNode(origin, customerCreates(`c${concurrency}`, items, concurrency));
	const busy = performance.eventLoopUtilization(idle).utilization;
	const lost = items - run.output.filter((item) => item.json.customers_id !== undefined).length;
	const result = {
		wallMs: run.wallMs,
		busy,
		maxInFlight: (await counters(origin)).in_flight.max,
		lost,
		duplicates: await duplicateContacts(origin),
	};
	await worker.terminate();
	return result;
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const rounds = Number(process.argv[3] ?? 3);
	const runs = new Map<number, Array<Awaited<ReturnType<typeof measure>>>>(CONCURRENCIES.map((c) => [c, []]));
	for (let round = 0; round < rounds; round++) {
		// Alternate the order, so that no concurrency always runs first (on a cold process) or last.
		const order = round % 2 === 0 ? CONCURRENCIES : [...CONCURRENCIES].reverse();
		for (const concurrency of order) runs.get(concurrency)!.push(await measure(items, concurrency));
	}
	const serial = median(runs.get(1)!.map((run) => run.wallMs));
	console.log(`${items} customer creates, ${LATENCY_MS} ms server latency, median of ${rounds} rounds`);
	console.log('concurrency | median wall | speed-up | node thread busy | max in flight | lost | duplicates');
	for (const concurrency of CONCURRENCIES) {
		const all = runs.get(concurrency)!;
		const ms = median(all.map((run) => run.wallMs));
		console.log(
			[
				String(concurrency).padStart(11),
				`${Math.round(ms)} ms`.padStart(11),
				`${(serial / ms).toFixed(1)}x`.padStart(8),
				`${Math.round(median(all.map((run) => run.busy)) * 100)} %`.padStart(16),
				String(Math.max(...all.map((run) => run.maxInFlight))).padStart(13),
				String(all.reduce((sum, run) => sum + run.lost, 0)).padStart(4),
				String(all.reduce((sum, run) => sum + run.duplicates, 0)).padStart(10),
			].join(' | '),
		);
	}
}

benchEntry(main, serveInWorker);
