/**
 * Issue 11's fault run inside real n8n (AGENCY_CRM_N8N_VERSION, default 2.41): customer creates
 * against the sandbox (in a worker thread) with every fault on, under two kinds of throttling: every
 * 10th request answered 429 whatever the time (the issue's run, `nth`), and a limit of requests per
 * second as real APIs set one (`limit`). Each at the default Concurrency and at Concurrency 1 (the
 * node as it was before, one item after the other), with Continue On Fail (`continue`) or without
 * (`stop`: the first failed item stops the run, issue 17's run), as many times as asked. Prints wall
 * times, faults, pauses, exchanges, lost and duplicated contacts, and how many runs completed.
 * Figures only; never fails on time. Needs the packed package:
 *   npm run bench:faults:real-n8n -- [items, 1000] [limit per second, 50] [concurrencies, "10,1"]
 *     [runs of each, 1] [on failure, "continue" | "stop"] [throttling, "nth,limit"]
 */
import { once } from 'node:events';
import { parentPort, Worker } from 'node:worker_threads';

import { startSandbox } from '../sandbox';
import { portBase } from '../test/support/real-n8n/context';
import { EVERY_10TH_THROTTLED, LIMIT_PER_SECOND, limitPerSecond } from '../test/support/faultProfiles';
import { nodeOutput } from '../test/support/real-n8n/executions';
import { CREATE_NODE, describeFaultRun, faultRunWorkflow, measureFaultRun } from '../test/support/real-n8n/faultRun';
import { createInstance, importJson, installedN8n, publicApi, startServer } from '../tools/n8n/launcher';
import { sandboxCredential } from '../tools/n8n/workflows';
import { benchEntry } from './entry';

async function serveInWorker(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	parentPort?.postMessage({ origin: sandbox.origin, clients: sandbox.clients });
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const perSecond = Number(process.argv[3] ?? LIMIT_PER_SECOND);
	const concurrencies = (process.argv[4] ?? '10,1').split(',').map(Number);
	const repeats = Number(process.argv[5] ?? 1);
	const continueOnFail = (process.argv[6] ?? 'continue') !== 'stop';
	const throttlings = new Set((process.argv[7] ?? 'nth,limit').split(','));
	const worker = new Worker(__filename);
	const [{ origin, clients }] = (await once(worker, 'message')) as [
		{ origin: string; clients: Array<{ clientId: string; clientSecret: string; siteId: number }> },
	];
	const demo = clients.find((client) => client.clientId === 'demo-client')!;
	const credential = sandboxCredential('credBenchFaults1', origin, demo);
	const profiles = [
		{ name: 'every 10th request throttled', tag: 'nth', faults: EVERY_10TH_THROTTLED },
		{ name: `a limit of ${perSecond} requests/s`, tag: 'limit', faults: limitPerSecond(perSecond) },
	].filter((profile) => throttlings.has(profile.tag));
	const runs = profiles
		.flatMap((profile) => concurrencies.map((concurrency) => ({ ...profile, concurrency })))
		.flatMap((run) => Array.from({ length: repeats }, (_, repeat) => ({ ...run, repeat })))
		.map((run, index) => ({
			...run,
			workflowId: `wfBenchFaults${String(index).padStart(3, '0')}`,
			tag: `${run.tag}-c${run.concurrency}-r${run.repeat}`,
		}));

	const n8n = installedN8n();
	const instance = createInstance('bench-faults', portBase() + 40, n8n);
	await importJson(instance, 'credentials', [credential]);
	await importJson(
		instance,
		'workflow',
		runs.map((run) =>
			faultRunWorkflow(run.workflowId, run.tag, credential, items, { continueOnFail, concurrency: run.concurrency }),
		),
	);
	const server = await startServer(instance);
	const completed = new Map<string, number>();
	try {
		const api = await publicApi(server);
		const onFailure = continueOnFail ? 'Continue On Fail on' : 'no Continue On Fail';
		console.log(`n8n ${n8n.version}: ${items} customer creates per run, ${onFailure}`);
		for (const run of runs) {
			const { faults } = run;
			const measured = await measureFaultRun(server, api, origin, {
				workflowId: run.workflowId,
				tag: run.tag,
				clientId: demo.clientId,
				faults,
			});
			const output = nodeOutput(measured.execution, CREATE_NODE) ?? [];
			const errors = output.filter((item) => item.error !== undefined).length;
			const label = `${run.name}, Concurrency ${run.concurrency}`;
			// Completed: the execution succeeded with every item out once, without an error, and no contact twice.
			const complete =
				measured.execution.status === 'success' &&
				output.length === items &&
				errors === 0 &&
				measured.customersCreated === items &&
				measured.duplicateContacts === 0;
			completed.set(label, (completed.get(label) ?? 0) + (complete ? 1 : 0));
			console.log(
				`${describeFaultRun(`${label}, run ${run.repeat + 1}`, measured)}; ${output.length} items out, ${errors} errors; ${complete ? 'completed' : 'NOT completed'}`,
			);
			console.log(`  faults ${JSON.stringify(faults)}`);
		}
		for (const [label, count] of completed) console.log(`${label}: ${count} of ${repeats} runs completed`);
	} finally {
		await server.stop();
		await worker.terminate();
	}
}

benchEntry(main, serveInWorker);
