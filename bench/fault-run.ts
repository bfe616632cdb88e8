/**
 * The fault run of issue 11, in process: customer creates through the action node's router against
 * a sandbox (fresh, in a worker thread) with every fault on, at concurrency 1, at the default
 * concurrency, and at the default concurrency with each request waiting out its own 429 instead of
 * the whole run pausing (the transport's pacing replaced, for comparison only); the 429s of every
 * 10th request (issue 11's run), then of a limit per second as real APIs set one. Prints wall times,
 * faults, pauses and exchanges; checks nothing is lost or duplicated. Figures only; never fails on time.
 *   npx tsc -p tsconfig.tools.json && node build/bench/fault-run.js [items]
 */
import { once } from 'node:events';
import { parentPort, Worker } from 'node:worker_threads';

import { DEFAULT_CONCURRENCY } from '../nodes/AgencyCrm/catalogue/nodeOptions';
import * as transportPacing from '../nodes/shared/transport/pacing';
import { Pacing } from '../nodes/shared/transport/pacing';
import { startSandbox } from '../sandbox';
import { EVERY_10TH_THROTTLED, limitPerSecond } from '../test/support/faultProfiles';
import { customerCreates, duplicateContacts, runNode } from '../test/support/inprocess/bulk';
import { admin, counters } from '../test/support/sandbox/admin';
import { benchEntry } from './entry';

async function serveInWorker(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	parentPort?.postMessage(sandbox.origin);
}

/** The transport's module, whose pacingOf the per-request variant replaces. */
const pacingModule = transportPacing as { pacingOf: (context: object) => Pacing };
const sharedPacing = pacingModule.pacingOf;

async function measure(
	label: string,
	tag: string,
	{
		items,
		faults,
		concurrency,
		perRequest,
	}: { items: number; faults: object; concurrency: number; perRequest: boolean },
) {
	const worker = new Worker(__filename);
	const [origin] = (await once(worker, 'message')) as [string];
	await admin(origin, 'POST', '/faults', faults);
	// Per request: every call gets a pacing of its own, so a 429 holds only the request that got it.
	pacingModule.pacingOf = perRequest ? () => new Pacing() : sharedPacing;
	const run = await runNode(origin, customerCreates(tag, items, concurrency), true);
	pacingModule.pacingOf = sharedPacing;
	const seen = await counters(origin);
	const created = run.output.filter((item) => item.json.customers_id !== undefined).length;
	const errors = new Map<string, number>();
	for (const item of run.output) {
		if (item.json.error === undefined) continue;
		const key = `${String(item.json.error)}: ${String(item.json.description)}`;
		errors.set(key, (errors.get(key) ?? 0) + 1);
	}
	console.log(
		`${label}: ${(run.wallMs / 1000).toFixed(1)} s; ${created}/${items} created, ${items - created} errors, ` +
			`${await duplicateContacts(origin)} duplicate contacts; ${seen.requests_total} requests, max ${seen.in_flight.max} in flight; ` +
			`faults ${JSON.stringify(seen.faults)}; ${seen.token_exchanges} exchanges; ` +
			`${perRequest ? 'each 429 waited alone' : `${run.pauses} pauses for 429`}`,
	);
	for (const [message, count] of errors) console.log(`  ${count} × ${message}`);
	await worker.terminate();
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const profiles = [
		{ name: 'every 10th request throttled', tag: 'tenth', faults: EVERY_10TH_THROTTLED },
		{ name: 'a limit per second', tag: 'limit', faults: limitPerSecond() },
	];
	for (const { name, tag, faults } of profiles) {
		console.log(`${items} customer creates (Continue On Fail on), ${name}: faults ${JSON.stringify(faults)}`);
		const concurrency = DEFAULT_CONCURRENCY;
		const shared = { items, faults, concurrency, perRequest: false };
		await measure(`concurrency ${concurrency}, shared 429 pause`, `${tag}-shared`, shared);
		await measure(`concurrency ${concurrency}, each 429 waited alone`, `${tag}-alone`, { ...shared, perRequest: true });
		await measure('concurrency 1', `${tag}-serial`, { ...shared, concurrency: 1 });
	}
}

benchEntry(main, serveInWorker);
