/**
 * `npm run bench:profile`: where the time of a Return All, of 1,000 creates (or of a trigger burst)
 * goes inside real n8n. Starts n8n with `--cpu-prof`, runs the workflow of one candidate of
 * `npm run bench` several times (after one warm-up run), stops n8n, and adds up the main process's
 * CPU samples taken while the runs went on, by area (this package, n8n's authenticated request path,
 * its HTTP client, JSON, the execution engine, the database, garbage collection, idle) and by
 * function (inclusive); for the creates, per item too.
 *   npm run bench:profile -- list-raw|list-simple|list-floor|list-http|creates|creates-http [runs]
 *   npm run bench:profile -- burst|burst-v1|burst-lazy|burst-webhook|burst-chargebee [bursts of 100]
 * (the trigger, the trigger at version 1, the trigger with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, n8n's
 * Webhook node, n8n's Chargebee Trigger)
 * Figures only; never fails on time.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { portBase } from '../test/support/real-n8n/context';
import { admin } from '../test/support/sandbox/admin';
import { createInstance, importJson, installedN8n, publicApi, ROOT, startServer } from '../tools/n8n/launcher';
import { sandboxCredential } from '../tools/n8n/workflows';
import type { Area } from './cpuProfile';
import { summariseProfile } from './cpuProfile';
import { freshCustomerIds } from './burstBenchmark';
import { CREATES, createsRun } from './createsBenchmark';
import { BURST } from './goals';
import type { HookedWorkflow } from './n8nWorkflows';
import {
	baselineWebhookWorkflow,
	basicAuthCredential,
	chargebeeWorkflow,
	CREATE_DEFAULT,
	CREATE_HTTP_UNBATCHED,
	createCandidates,
	LIST_FLOOR,
	LIST_HTTP,
	LIST_RAW,
	LIST_SIMPLE,
	listCandidates,
	triggerWorkflow,
	TRIGGER_NODE,
} from './n8nWorkflows';
import { activate, DEMO_CLIENT, hookIdFor, installFloorNode, registerHook, runWorkflow } from './n8nBench';
import { startSandboxThread } from './sandboxThread';

const LIST_TARGETS: Record<string, string> = {
	'list-raw': LIST_RAW,
	'list-simple': LIST_SIMPLE,
	'list-floor': LIST_FLOOR,
	'list-http': LIST_HTTP,
};
const CREATE_TARGETS: Record<string, string> = { creates: CREATE_DEFAULT, 'creates-http': CREATE_HTTP_UNBATCHED };
const BURST_TARGETS: Record<string, string> = {
	burst: 'trigger',
	'burst-v1': 'trigger, version 1',
	'burst-lazy': 'trigger, lazy isolates',
	'burst-webhook': "n8n's Webhook node",
	'burst-chargebee': "n8n's Chargebee Trigger",
};

const has = (part: string) => (url: string) => url.includes(part);
const AREAS: Area[] = [
	{ name: 'idle', claims: (_url, name) => name === '(idle)' },
	{ name: 'garbage collection', claims: (_url, name) => name === '(garbage collector)' },
	{ name: 'this package', claims: has('/n8n-nodes-agency-crm/') },
	{ name: 'JSON parse/stringify (V8)', claims: (url, name) => url === '' && ['parse', 'stringify'].includes(name) },
	{ name: 'database (typeorm, sqlite)', claims: (url) => /\/(typeorm|@n8n\/typeorm|sqlite3|@n8n\/db)\//.test(url) },
	{
		name: 'credentials (load, decrypt, preAuthentication, authenticate)',
		claims: (url) => /credentials-helper|credentials\.js|cipher|crypto-js|encryption/.test(url),
	},
	{ name: 'authenticated request path (n8n-core request helpers)', claims: has('request-helpers') },
	{
		name: 'HTTP client (axios, backend-network)',
		claims: (url) => /\/axios\/|backend-network|follow-redirects/.test(url),
	},
	{
		name: 'Node http/net/tls',
		claims: (url) => /^node:(_http|http|net|tls|stream|internal\/streams|zlib|buffer|events)/.test(url),
	},
	{ name: 'expressions, parameters, deepCopy (n8n-workflow)', claims: has('/n8n-workflow/') },
	{ name: 'execution engine (n8n-core)', claims: has('/n8n-core/') },
	{ name: 'n8n server (webhooks, executions, hooks)', claims: has('/n8n/dist/') },
	{ name: 'other node_modules', claims: has('/node_modules/') },
	{ name: 'Node internals', claims: (url) => url.startsWith('node:') },
];

/** A function measured with all it calls, named with whose it is. */
const of = (owner: 'n8n' | 'ours', functionName: string) => ({ name: `${functionName} (${owner})`, functionName });

const INCLUSIVE = [
	...['httpRequestWithAuthentication', 'getCredentials'].map((name) => of('n8n', name)),
	{ name: 'preAuthentication check (n8n)', functionName: 'preAuthentication', url: 'credentials-helper' },
	{ name: 'authenticate (n8n)', functionName: 'authenticate', url: 'credentials-helper' },
	{ name: 'axios request', functionName: 'request', url: 'axios' },
	{ name: 'JSON.parse', functionName: 'parse', url: '' },
	of('n8n', 'getNodeParameter'),
	...['validateValueAgainstSchema', 'getParameterValue', 'deepCopy'].map((name) => of('n8n', name)),
	...['apiRequest', 'paginate', 'collectPages', 'runEndpoint', 'route', 'runItem', 'prepareRequest'].map((name) =>
		of('ours', name),
	),
	...['outputShaper', 'send', 'lease', 'ready'].map((name) => ({
		name: `${name} (ours)`,
		functionName: name,
		url: 'n8n-nodes-agency-crm',
	})),
	{ name: 'webhook (trigger, ours)', functionName: 'webhook', url: 'n8n-nodes-agency-crm' },
	...['assignPairedItems', 'convertBinaryData', 'executeWebhook', 'acquireIsolate'].map((name) => of('n8n', name)),
	{ name: 'saveExecution / execution repository (n8n)', functionName: 'updateExistingExecution' },
];

async function main(): Promise<void> {
	const target = process.argv[2] ?? 'list-raw';
	const runs = Number(process.argv[3] ?? 10);
	const n8n = installedN8n();
	// As in `npm run bench`: deliveries wait up to a minute, are never retried, and a hook is never suspended.
	const sandbox = await startSandboxThread({
		port: 0,
		customers: 20_000,
		tokenLifetimeSeconds: 86_400,
		deliveryTimeoutMs: 60_000,
		deliveryRetryDelaysMs: [],
		suspendUndelivered: false,
	});
	// A free port for the creates' fresh sandboxes, each started on it in turn.
	const probe = await startSandboxThread({ port: 0 });
	await probe.close();
	const instance = createInstance('profile', portBase() + 40, n8n);
	installFloorNode(instance);
	const profileDir = path.join(instance.userFolder, 'profiles');
	const credential = sandboxCredential('credBenchList001', sandbox.origin, DEMO_CLIENT);
	const createCredential = sandboxCredential('credBenchCreate1', probe.origin, DEMO_CLIENT);
	const basic = basicAuthCredential('credBenchBasic01', DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret);
	const candidates = [
		...listCandidates(sandbox.origin, credential, basic),
		...createCandidates(probe.origin, createCredential, basic),
	];
	const trigger = triggerWorkflow(credential);
	/** n8n's own triggers, by their BURST_TARGETS name: the bench registers their hooks. */
	const hooked: Record<string, HookedWorkflow> = {
		"n8n's Webhook node": baselineWebhookWorkflow(),
		"n8n's Chargebee Trigger": chargebeeWorkflow(),
	};
	const burstTarget = BURST_TARGETS[target];
	// A trigger of version 1 costs n8n a legacy expression per delivery (AgencyCrmTrigger.node.ts).
	if (burstTarget === 'trigger, version 1') trigger.nodes[0].typeVersion = 1;
	if (burstTarget === 'trigger, lazy isolates') instance.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE = 'true';
	await importJson(instance, 'credentials', [credential, createCredential, basic]);
	await importJson(instance, 'workflow', [
		...candidates.map((candidate) => candidate.workflow),
		trigger,
		...Object.values(hooked).map((own) => own.workflow),
	]);
	// The server alone is profiled, through a wrapper of its Node binary: Node 20 (n8n 1.x) refuses
	// --cpu-prof in NODE_OPTIONS.
	const profiledNode = path.join(instance.userFolder, 'node-cpu-prof');
	writeFileSync(
		profiledNode,
		`#!/bin/sh\nexec "${n8n.node}" --cpu-prof --cpu-prof-dir="${profileDir}" --cpu-prof-interval=200 "$@"\n`,
		{ mode: 0o755 },
	);
	const server = await startServer({ ...instance, n8n: { ...n8n, node: profiledNode } });
	const windows: Array<{ fromUs: number; toUs: number }> = [];
	let wallMs = 0;
	/** Items (creates, deliveries) each run handles, for figures per item. */
	let itemsPerRun: number | undefined;
	try {
		const api = await publicApi(server);
		// The profile's clock is the monotonic clock in µs, as process.hrtime here; n8n records epoch ms.
		const toUs = () => Number(process.hrtime.bigint() / 1000n);
		const monotonicMinusEpochUs = toUs() - Date.now() * 1000;
		if (burstTarget) {
			const own = hooked[burstTarget];
			await activate(api, own ? own.workflow.id : trigger.id);
			const webhookId = trigger.nodes.find((node) => node.name === TRIGGER_NODE)!.webhookId;
			const url = `${server.url}/webhook/${own ? own.path : `${webhookId}/webhook`}`;
			if (own) await registerHook(sandbox.origin, url);
			const hookId = await hookIdFor(sandbox.origin, url);
			const burst = async (count: number) => {
				const answer = await admin<{ data: { latency_ms: Record<string, number> } }>(
					sandbox.origin,
					'POST',
					'/deliveries/burst',
					{ hook_id: hookId, count, event_type: 'CUSTOMER_UPDATE', resource_ids: freshCustomerIds(count) },
				);
				// Let the executions finish before the next burst.
				await new Promise((resolve) => setTimeout(resolve, 8000));
				return answer.data.latency_ms;
			};
			await burst(20);
			const started = performance.now();
			for (let run = 0; run < runs; run++) {
				const fromUs = toUs();
				console.log(`burst ${run + 1}: ${JSON.stringify(await burst(BURST))}`);
				windows.push({ fromUs, toUs: toUs() });
			}
			wallMs = performance.now() - started;
			itemsPerRun = BURST;
		} else {
			const candidate = candidates.find((entry) => entry.name === (LIST_TARGETS[target] ?? CREATE_TARGETS[target]));
			if (!candidate) {
				throw new Error(
					`Unknown target ${target}: ${[...Object.keys(LIST_TARGETS), ...Object.keys(CREATE_TARGETS), ...Object.keys(BURST_TARGETS)].join(', ')}`,
				);
			}
			await activate(api, candidate.workflow.id);
			const bench = { server, api };
			const run = CREATE_TARGETS[target]
				? async (index: number) => (await createsRun(bench, candidate, probe.port, `p${index}`, index < 0))?.nodeSpans
				: async () => (await runWorkflow(bench, candidate, {})).nodeSpans;
			await run(-1);
			// Only the timed nodes' own runs: saving the execution afterwards is not what a user waits for.
			for (let index = 0; index < runs; index++) {
				for (const span of (await run(index)) ?? []) {
					wallMs += span.ms;
					const fromUs = span.start * 1000 + monotonicMinusEpochUs;
					windows.push({ fromUs, toUs: fromUs + span.ms * 1000 });
				}
			}
			if (CREATE_TARGETS[target]) itemsPerRun = CREATES;
		}
	} finally {
		await server.stop();
		await sandbox.close();
	}
	// The main process wrote the largest profile (task runners write small ones).
	const [file] = readdirSync(profileDir)
		.map((name) => path.join(profileDir, name))
		.sort((a, b) => statSync(b).size - statSync(a).size);
	const summary = summariseProfile(file, AREAS, INCLUSIVE, windows);
	const perRun = (ms: number) =>
		`${(ms / runs).toFixed(1)} ms/run${itemsPerRun ? `, ${((ms * 1000) / runs / itemsPerRun).toFixed(0).padStart(5)} µs/item` : ''}`;
	console.log(
		`\n${target}: ${runs} runs, ${Math.round(wallMs)} ms (${perRun(wallMs)}) ${burstTarget ? 'wall' : 'node execution time'}; n8n ${n8n.version}; load ${os
			.loadavg()
			.map((v) => v.toFixed(2))
			.join(' ')}`,
	);
	console.log(
		`n8n main process, samples in the window: ${Math.round(summary.totalMs)} ms (${perRun(summary.totalMs)})`,
	);
	console.log('\nBy area (self time, first claiming frame from the top of the stack):');
	for (const { name, ms } of summary.byArea) console.log(`  ${perRun(ms).padStart(30)}  ${name}`);
	console.log('\nBy function (inclusive):');
	for (const { name, ms } of summary.inclusive) console.log(`  ${perRun(ms).padStart(30)}  ${name}`);
	console.log('\nFunctions with the most self time:');
	for (const { name, ms } of summary.topSelf) console.log(`  ${perRun(ms).padStart(30)}  ${name}`);
	console.log(`\nProfile: ${path.relative(ROOT, file)}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
