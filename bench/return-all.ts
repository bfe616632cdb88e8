/**
 * What this package's own code costs in a Return All, without n8n: 20,000 customers (100 cursor pages
 * of 200) through the action node's router in process (real credential, real HTTP through axios, as
 * n8n's client), against a raw loop over the same client and a raw `fetch` loop, in alternating
 * rounds, the sandbox in a worker thread. Node minus axios loop = what is ours (transport, pagination,
 * output building), per page and per record. Figures only; never fails on time.
 *   npm run bench:return-all [rounds]
 */
import axios from 'axios';

import { runNode } from '../test/support/inprocess/bulk';
import { admin } from '../test/support/sandbox/admin';
import { exchangeToken } from './n8nBench';
import type { Page, SendPage } from './rawLoop';
import { rawLoop } from './rawLoop';
import { median } from './report';
import { startSandboxThread } from './sandboxThread';

const CUSTOMERS = 20_000;
const PER_PAGE = 200;

const viaAxios: SendPage = async (url, token, body) =>
	(await axios.post<Page>(url, body, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }))
		.data;

const getAll = (output: string) => [{ resource: 'customer', operation: 'getAll', returnAll: true, output }];

async function main(): Promise<void> {
	const rounds = Number(process.argv[2] ?? 7);
	const sandbox = await startSandboxThread({ port: 0, customers: CUSTOMERS, tokenLifetimeSeconds: 86_400 });
	const job = { origin: sandbox.origin, token: await exchangeToken(sandbox.origin), perPage: PER_PAGE };
	const records = async (send?: SendPage) => (await rawLoop(job, send)).records;
	const candidates: Record<string, () => Promise<number>> = {
		'node, Output Raw': async () => (await runNode(sandbox.origin, getAll('raw'))).output.length,
		'node, Output Simplified': async () => (await runNode(sandbox.origin, getAll('simple'))).output.length,
		'raw axios loop': () => records(viaAxios),
		'raw fetch loop': () => records(),
	};
	const names = Object.keys(candidates);
	const times = new Map(names.map((name) => [name, [] as number[]]));
	try {
		for (let round = -1; round < rounds; round++) {
			for (const name of round % 2 === 0 ? names : [...names].reverse()) {
				await admin(sandbox.origin, 'POST', '/reset');
				const started = performance.now();
				const count = await candidates[name]();
				const ms = performance.now() - started;
				if (count !== CUSTOMERS) throw new Error(`${name}: ${count} records, not ${CUSTOMERS}`);
				// Round -1 warms every candidate up and is not kept.
				if (round >= 0) times.get(name)!.push(ms);
			}
		}
	} finally {
		await sandbox.close();
	}
	const medians = Object.fromEntries(names.map((name) => [name, median(times.get(name)!)]));
	const axiosLoop = medians['raw axios loop'];
	console.log(`Return All of ${CUSTOMERS} customers in process, median of ${rounds} rounds`);
	for (const name of names) {
		const ours = medians[name] - axiosLoop;
		console.log(
			`${name.padEnd(24)} ${medians[name].toFixed(0).padStart(6)} ms` +
				(name.startsWith('node')
					? `  ours: ${ours.toFixed(0)} ms = ${(ours / (CUSTOMERS / PER_PAGE)).toFixed(2)} ms/page, ${((ours * 1000) / CUSTOMERS).toFixed(2)} µs/record`
					: ''),
		);
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
