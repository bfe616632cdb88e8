/**
 * Throughput of the sandbox on GET /customers/{id}: 20,000 customers, 30,000 requests over 32
 * keep-alive connections (bounded to 60 s). The sandbox runs in a worker thread so that it has
 * its own core, as it would as a separate process. Prints figures only; never fails on time.
 *   npx tsc -p tsconfig.tools.json && node build/bench/sandbox-rate.js
 */
import http from 'node:http';
import { once } from 'node:events';
import { parentPort, Worker } from 'node:worker_threads';
import { startSandbox } from '../sandbox';
import { generateDemoData } from '../sandbox/seed/demo';
import { benchEntry } from './entry';

const CUSTOMERS = 20_000;
const REQUESTS = 30_000;
const CONNECTIONS = 32;
const TIME_LIMIT_MS = 60_000;
const FIRST_CUSTOMER_ID = 10001;

interface Ready {
	origin: string;
	startupMs: number;
}

async function serveInWorker(): Promise<void> {
	const started = performance.now();
	const sandbox = await startSandbox({ port: 0, customers: CUSTOMERS, quiet: true });
	const ready: Ready = { origin: sandbox.origin, startupMs: performance.now() - started };
	parentPort?.postMessage(ready);
}

function get(agent: http.Agent, origin: string, path: string, token: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const request = http.get(
			`${origin}${path}`,
			{ agent, headers: { Authorization: `Bearer ${token}` } },
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
			},
		);
		request.on('error', reject);
	});
}

async function main(): Promise<void> {
	const generationStarted = performance.now();
	generateDemoData(1, { customers: CUSTOMERS, products: 60, users: 12 });
	const generationMs = performance.now() - generationStarted;

	const worker = new Worker(__filename);
	const [{ origin, startupMs }] = (await once(worker, 'message')) as [Ready];
	const tokenResponse = await fetch(`${origin}/api/client/token/site`, {
		method: 'POST',
		headers: {
			Authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
			'Content-Type': 'application/x-www-form-urlencoded',
		},
		body: 'site_id=1',
	});
	const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

	const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
	let issued = 0;
	let failures = 0;
	const started = performance.now();
	const deadline = started + TIME_LIMIT_MS;
	const connection = async () => {
		while (issued < REQUESTS && performance.now() < deadline) {
			// Spread the ids over the whole range (7919 is prime, so the walk visits every customer).
			const customerId = FIRST_CUSTOMER_ID + ((issued++ * 7919) % CUSTOMERS);
			if ((await get(agent, origin, `/api/v2/site/customers/${customerId}`, token)) !== 200) failures++;
		}
	};
	await Promise.all(Array.from({ length: CONNECTIONS }, connection));
	const elapsedMs = performance.now() - started;

	console.log(
		`demo data generation (${CUSTOMERS} customers): ${Math.round(generationMs)} ms; sandbox start including generation: ${Math.round(startupMs)} ms`,
	);
	console.log(
		`GET /customers/{id}: ${issued} requests in ${Math.round(elapsedMs)} ms over ${CONNECTIONS} keep-alive connections = ${Math.round((issued / elapsedMs) * 1000)} requests/s (non-200: ${failures})`,
	);
	agent.destroy();
	await worker.terminate();
}

benchEntry(main, serveInWorker);
