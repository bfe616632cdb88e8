/**
 * What the Concurrency option buys: 1,000 customer creates through the action node's router (in
 * process, real credential, real HTTP) against the sandbox with 20 ms of server latency, at several
 * concurrencies, in alternating rounds. The sandbox runs in a worker thread, so that it has its own
 * core as a remote API would. Prints the median wall time, the speed-up over concurrency 1, the most
 * requests the sandbox saw in flight, and lost or duplicated contacts. Figures only; never fails on time.
 *   npx tsc -p tsconfig.tools.json && node build/bench/concurrency.js [items] [rounds]
 */
import { once } from 'node:events';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

import { startSandbox } from '../sandbox';
import { admin, counters, customerCreates, duplicateContacts, runNode } from '../test/inprocess/bulk';

const CONCURRENCIES = [1, 2, 4, 8, 10, 12, 16, 32];
const LATENCY_MS = 20;

async function serveInWorker(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	parentPort?.postMessage(sandbox.origin);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const rounds = Number(process.argv[3] ?? 3);
	const worker = new Worker(__filename);
	const [origin] = (await once(worker, 'message')) as [string];
	await admin(origin, 'POST', '/faults', { latency_ms: LATENCY_MS });

	const wall = new Map<number, number[]>(CONCURRENCIES.map((concurrency) => [concurrency, []]));
	const inFlight = new Map<number, number>();
	let lost = 0;
	for (let round = 0; round < rounds; round++) {
		// Alternate the order, so that no concurrency always runs first (on a cold process) or last.
		const order = round % 2 === 0 ? CONCURRENCIES : [...CONCURRENCIES].reverse();
		for (const concurrency of order) {
			await admin(origin, 'POST', '/reset');
			await admin(origin, 'POST', '/faults', { latency_ms: LATENCY_MS });
			const run = await runNode(origin, customerCreates(`c${concurrency}r${round}`, items, concurrency));
			lost += items - run.output.filter((item) => item.json.customers_id !== undefined).length;
			wall.get(concurrency)!.push(run.wallMs);
			inFlight.set(concurrency, Math.max(inFlight.get(concurrency) ?? 0, (await counters(origin)).in_flight.max));
		}
	}
	const serial = median(wall.get(1)!);
	console.log(`${items} customer creates, ${LATENCY_MS} ms server latency, median of ${rounds} rounds`);
	console.log('concurrency | median wall | speed-up | max in flight');
	for (const concurrency of CONCURRENCIES) {
		const ms = median(wall.get(concurrency)!);
		console.log(
			`${String(concurrency).padStart(11)} | ${`${Math.round(ms)} ms`.padStart(11)} | ${`${(serial / ms).toFixed(1)}x`.padStart(8)} | ${inFlight.get(concurrency)}`,
		);
	}
	console.log(`items without a customer: ${lost}; duplicate contacts: ${await duplicateContacts(origin)}`);
	await worker.terminate();
}

if (isMainThread) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
} else {
	void serveInWorker();
}
