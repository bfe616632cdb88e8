/**
 * `npm run bench` (scripts/bench.sh): issues 10 and 19's benchmarks inside real n8n, against
 * sandboxes on loopback, each candidate in turn over several rounds whose order alternates, after
 * one warm-up round that is not counted:
 * - 1,000 customer creates at 20 ms of server latency: this node at Concurrency 1 and at the
 *   default, and n8n's HTTP Request node without a credential (its token fetched by a first node),
 *   with this package's credential, and with its batching option;
 * - Return All of 20,000 customers (100 cursor pages of 200): this node (Output Raw and
 *   Simplified), the floor a node can reach on n8n's authenticated helper (bench/floor), the HTTP
 *   Request node with its pagination option plus Split Out, and a raw `fetch` loop;
 * - bursts of 40 and of 100 signed deliveries at once to an active Agency CRM Trigger, to n8n's
 *   plain Webhook node (n8n's own floor) and to n8n's Chargebee Trigger (its floor for any other
 *   trigger), in one n8n process; on n8n 2.x the trigger and the Webhook node also with
 *   N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (two n8n processes, side by side);
 * - the same bursts in queue mode against one webhook processor, and bursts of 200 against two
 *   (behind a round-robin load balancer), a worker running the executions.
 * On n8n 2.41 (the default) it runs them all and writes bench/results.json and bench/RESULTS.md,
 * which also show the bursts of the last run on n8n 1.123 (AGENCY_CRM_N8N_VERSION=1.123 runs only
 * the one-process bursts, and writes bench/results-n8n-1.123.json; scripts/bench.sh runs it first).
 * Never fails on time: only when a run goes wrong (an error, a workflow that did not run).
 * AGENCY_CRM_BENCH_ONLY=creates,list,burst,queue runs some of them (printed, files not written);
 * AGENCY_CRM_BENCH_ROUNDS sets the rounds (default 7; the creates take 5 at most, the bursts 3);
 * AGENCY_CRM_BENCH_BURST_SIZES=10 other sizes of the one-process bursts (a smoke run: files not written).
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { QueueCluster } from '../test/support/queue-mode/cluster';
import { portBase } from '../test/support/real-n8n/context';
import type { N8nInstance, N8nProcess } from '../tools/n8n/launcher';
import {
	createInstance,
	DEFAULT_N8N,
	importJson,
	installedN8n,
	publicApi,
	ROOT,
	startServer,
} from '../tools/n8n/launcher';
import type { Credential } from '../tools/n8n/workflows';
import { sandboxCredential } from '../tools/n8n/workflows';
import type { BurstTarget } from './burstBenchmark';
import { burstBenchmark } from './burstBenchmark';
import { createsBenchmark } from './createsBenchmark';
import { BURST, burstKey, goalsOf, QUEUE_BURST, ratiosOf, SMALL_BURST } from './goals';
import { CUSTOMERS, listBenchmark } from './listBenchmark';
import { startLoadBalancer } from '../test/support/queue-mode/loadBalancer';
import type { Api } from './n8nBench';
import { activate, DEMO_CLIENT, exchangeToken, hookIdFor, installFloorNode, registerHook } from './n8nBench';
import type { HookedWorkflow } from './n8nWorkflows';
import {
	BURST_CHARGEBEE,
	BURST_TRIGGER,
	BURST_TRIGGER_LAZY,
	BURST_WEBHOOK,
	BURST_WEBHOOK_LAZY,
	TRIGGER_NODE,
	baselineWebhookWorkflow,
	basicAuthCredential,
	chargebeeWorkflow,
	createCandidates,
	listCandidates,
	triggerWorkflow,
} from './n8nWorkflows';
import type { Benchmark, Goal, Machine } from './report';
import { machineLine, writeResults } from './report';
import type { SandboxThread } from './sandboxThread';
import { startSandboxThread } from './sandboxThread';

const ROUNDS = Number(process.env.AGENCY_CRM_BENCH_ROUNDS ?? 7);
const CREATE_ROUNDS = Math.min(ROUNDS, 5);
const BURST_ROUNDS = Math.min(ROUNDS, 3);
const EVERY_BENCHMARK = ['creates', 'list', 'burst', 'queue'];

/** The bursts' file of the last run on n8n 1.123, which the 2.41 run's RESULTS.md shows. */
const OTHER_N8N_BURSTS = path.join(ROOT, 'bench', 'results-n8n-1.123.json');

/**
 * The workflows of one n8n's bursts: the trigger's, and one-node workflows of n8n's own triggers by
 * their candidate name (the Webhook node's, and where asked the Chargebee Trigger's).
 */
interface BurstWorkflows {
	trigger: ReturnType<typeof triggerWorkflow>;
	hooked: Record<string, HookedWorkflow>;
}

function burstWorkflows(credential: Credential, { chargebee }: { chargebee: boolean }): BurstWorkflows {
	return {
		trigger: triggerWorkflow(credential),
		hooked: {
			[BURST_WEBHOOK]: baselineWebhookWorkflow(),
			...(chargebee ? { [BURST_CHARGEBEE]: chargebeeWorkflow() } : {}),
		},
	};
}

const workflowsOf = ({ trigger, hooked }: BurstWorkflows) => [
	trigger,
	...Object.values(hooked).map((own) => own.workflow),
];

/**
 * The burst targets of active workflows, by candidate name: the trigger's hook (registered on
 * activation), and one registered here for each of n8n's own triggers, all at `webhookBase` (the n8n
 * process, or the load balancer).
 */
async function burstTargets(
	sandbox: SandboxThread,
	api: Api,
	workflows: BurstWorkflows,
	webhookBase: string,
): Promise<Record<string, BurstTarget>> {
	const webhookId = workflows.trigger.nodes.find((node) => node.name === TRIGGER_NODE)!.webhookId;
	const targets: Record<string, BurstTarget> = {
		[BURST_TRIGGER]: {
			api,
			hookId: await hookIdFor(sandbox.origin, `${webhookBase}/webhook/${webhookId}/webhook`),
			workflowId: workflows.trigger.id,
			resourceIdOf: (json) => json.resource_id,
		},
	};
	for (const [name, own] of Object.entries(workflows.hooked)) {
		const url = `${webhookBase}/webhook/${own.path}`;
		await registerHook(sandbox.origin, url);
		targets[name] = {
			api,
			hookId: await hookIdFor(sandbox.origin, url),
			workflowId: own.workflow.id,
			resourceIdOf: own.resourceIdOf,
		};
	}
	return targets;
}

/** An n8n process of its own for the bursts, its workflows imported and activated. */
async function burstServer(instance: N8nInstance, credential: Credential, workflows: BurstWorkflows) {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', workflowsOf(workflows));
	const server = await startServer(instance);
	const api = await publicApi(server);
	for (const workflow of workflowsOf(workflows)) await activate(api, workflow.id);
	return { server, api };
}

const BURST_NOTE =
	"The Webhook node's workflow is n8n's floor for the same burst: n8n's own webhook handling, nothing of this package. Like for like: both answer on receipt; the trigger then fetches the record (Fetch Full Record, its default) before n8n starts the execution.";

const CHARGEBEE_NOTE =
	"n8n's Chargebee Trigger (Events: `*`) is n8n's floor for any trigger that is not its Webhook node: built in, its description constant, no credential, nothing registered; it answers on receipt and starts the workflow with the body. n8n 2.x spares only its Webhook node an expression isolate per delivery, so any other trigger, the Chargebee Trigger included, pays for one.";

/**
 * The one-process bursts, by their key in the results: 40 at once (a bulk import) and 100.
 * AGENCY_CRM_BENCH_BURST_SIZES=10 (sizes, comma-separated) runs others instead, as `burst10`, for a
 * smoke run.
 */
function oneProcessBurstSizes(): Record<string, number> {
	const sizes = process.env.AGENCY_CRM_BENCH_BURST_SIZES?.split(',').map(Number) ?? [SMALL_BURST, BURST];
	if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
		throw new Error(`AGENCY_CRM_BENCH_BURST_SIZES: sizes of bursts, comma-separated (got "${sizes.join(',')}")`);
	}
	return Object.fromEntries(sizes.map((size) => [burstKey(size), size]));
}

/**
 * Bursts of each size to one n8n process: the trigger, n8n's Webhook node and its Chargebee Trigger;
 * on n8n 2.x also the trigger and the Webhook node in a second process with lazy isolates, rounds
 * alternating.
 */
async function oneProcessBursts(
	sandbox: SandboxThread,
	credential: Credential,
	base: number,
	n8n: ReturnType<typeof installedN8n>,
): Promise<Record<string, Benchmark>> {
	const servers: N8nProcess[] = [];
	try {
		const workflows = burstWorkflows(credential, { chargebee: true });
		const { server, api } = await burstServer(createInstance('bench-burst', base, n8n), credential, workflows);
		servers.push(server);
		const candidates = await burstTargets(sandbox, api, workflows, server.url);
		if (n8n.major >= 2) {
			const lazyInstance = createInstance('bench-lazy', base + 2, n8n);
			lazyInstance.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE = 'true';
			const lazyWorkflows = burstWorkflows(credential, { chargebee: false });
			const lazy = await burstServer(lazyInstance, credential, lazyWorkflows);
			servers.push(lazy.server);
			const lazyTargets = await burstTargets(sandbox, lazy.api, lazyWorkflows, lazy.server.url);
			candidates[BURST_TRIGGER_LAZY] = lazyTargets[BURST_TRIGGER];
			candidates[BURST_WEBHOOK_LAZY] = lazyTargets[BURST_WEBHOOK];
		}
		const notes = [
			BURST_NOTE,
			CHARGEBEE_NOTE,
			...(n8n.major >= 2
				? [
						'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: a second n8n process, up beside the first, with n8n taking an expression isolate only when an expression is evaluated (by default it takes one per delivery for every trigger but its own Webhook node).',
					]
				: []),
		];
		const benchmarks: Record<string, Benchmark> = {};
		for (const [key, size] of Object.entries(oneProcessBurstSizes())) {
			console.log(`  ${size} deliveries at once …`);
			benchmarks[key] = await burstBenchmark(sandbox, candidates, {
				size,
				rounds: BURST_ROUNDS,
				title: `Trigger under a burst of ${size} deliveries at once, one n8n ${n8n.version} process`,
				notes,
			});
		}
		return benchmarks;
	} finally {
		await Promise.all(servers.map(async (server) => await server.stop()));
	}
}

/**
 * Queue mode: a main instance, one worker and webhook processors behind a round-robin load
 * balancer: two as n8n starts them, two with lazy isolates. Bursts of 100 through one processor,
 * then of 200 through two, each candidate's bursts routed to its own processors.
 */
async function queueBursts(
	sandbox: SandboxThread,
	credential: Credential,
	base: number,
	n8n: ReturnType<typeof installedN8n>,
): Promise<{ queueOne: Benchmark; queueTwo: Benchmark }> {
	const balancer = await startLoadBalancer();
	const cluster = await QueueCluster.create(n8n, `${balancer.url}/`);
	try {
		const main = cluster.instance('main', base);
		const lazy = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };
		const processors = ['webhook1', 'webhook2'].map((name, index) => cluster.instance(name, base + 2 + 2 * index));
		const lazyProcessors = ['lazy1', 'lazy2'].map((name, index) => cluster.instance(name, base + 6 + 2 * index, lazy));
		cluster.instance('worker', base + 10);
		const workflows = burstWorkflows(credential, { chargebee: false });
		await importJson(main, 'credentials', [credential]);
		await importJson(main, 'workflow', workflowsOf(workflows));
		await cluster.start('main', 'start');
		await Promise.all([
			...['webhook1', 'webhook2', 'lazy1', 'lazy2'].map(async (name) => await cluster.start(name, 'webhook')),
			cluster.start('worker', 'worker'),
		]);
		const api = await publicApi(cluster.processes.main);
		for (const workflow of workflowsOf(workflows)) await activate(api, workflow.id);
		const targets = await burstTargets(sandbox, api, workflows, balancer.url);
		const through = (count: number) => {
			const ports = (list: N8nInstance[]) => list.slice(0, count).map((instance) => instance.port);
			return {
				[BURST_TRIGGER]: { ...targets[BURST_TRIGGER], route: () => balancer.setUpstreams(ports(processors)) },
				[BURST_WEBHOOK]: { ...targets[BURST_WEBHOOK], route: () => balancer.setUpstreams(ports(processors)) },
				[BURST_TRIGGER_LAZY]: {
					...targets[BURST_TRIGGER],
					route: () => balancer.setUpstreams(ports(lazyProcessors)),
				},
			};
		};
		const notes = [
			BURST_NOTE,
			`Queue mode (EXECUTIONS_MODE=queue, PostgreSQL and Redis on loopback): a main instance, one worker (its default concurrency) and the webhook processors, behind a round-robin load balancer in the bench's process; every process on the same ${os.cpus().length} cores. The lazy candidate's deliveries go to webhook processors started with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true.`,
		];
		const queueOne = await burstBenchmark(sandbox, through(1), {
			size: BURST,
			rounds: BURST_ROUNDS,
			title: `Queue mode, n8n ${n8n.version}: a burst of ${BURST} deliveries through one webhook processor`,
			notes,
		});
		const queueTwo = await burstBenchmark(sandbox, through(2), {
			size: QUEUE_BURST,
			rounds: BURST_ROUNDS,
			title: `Queue mode, n8n ${n8n.version}: a burst of ${QUEUE_BURST} deliveries through two webhook processors`,
			notes,
		});
		return { queueOne, queueTwo };
	} finally {
		await cluster.stop();
		await balancer.close();
	}
}

function machineOf(n8n: ReturnType<typeof installedN8n>, loadBefore: number[]): Machine {
	return {
		date: new Date().toISOString(),
		cpu: os.cpus()[0]?.model ?? 'unknown',
		cores: os.cpus().length,
		memoryGiB: Math.round(os.totalmem() / 2 ** 30),
		loadBefore,
		loadAfter: os.loadavg(),
		benchNode: process.version,
		n8nNode: execFileSync(n8n.node, ['--version']).toString().trim(),
		n8n: n8n.version,
	};
}

async function main(): Promise<void> {
	const n8n = installedN8n();
	const isDefault = n8n.runtime === DEFAULT_N8N;
	const only = new Set(
		(process.env.AGENCY_CRM_BENCH_ONLY ?? (isDefault ? EVERY_BENCHMARK.join(',') : 'burst')).split(','),
	);
	const loadBefore = os.loadavg();
	// Deliveries wait for n8n's answer up to a minute, are never retried and a hook is never suspended:
	// under a burst, n8n may take longer than production's 10 s, and the bench measures how long,
	// rather than stopping at the first slow answers (test/queue-mode/burst.test.ts runs production's rules).
	const list = await startSandboxThread({
		port: 0,
		customers: CUSTOMERS,
		tokenLifetimeSeconds: 86_400,
		deliveryTimeoutMs: 60_000,
		deliveryRetryDelaysMs: [],
		suspendUndelivered: false,
	});
	const listCredential = sandboxCredential('credBenchList001', list.origin, DEMO_CLIENT);
	const base = portBase() + 40;
	console.log(
		`n8n ${n8n.version}; ${ROUNDS} rounds (creates ${CREATE_ROUNDS}, bursts ${BURST_ROUNDS}) after a warm-up round`,
	);
	const benchmarks: Record<string, Benchmark> = {};
	try {
		if (only.has('creates') || only.has('list')) {
			// A free port for the creates' fresh sandboxes, each started on it in turn.
			const probe = await startSandboxThread({ port: 0 });
			await probe.close();
			const instance = createInstance('bench', base, n8n);
			installFloorNode(instance);
			const createCredential = sandboxCredential('credBenchCreate1', probe.origin, DEMO_CLIENT);
			const basic = basicAuthCredential('credBenchBasic01', DEMO_CLIENT.clientId, DEMO_CLIENT.clientSecret);
			const creates = createCandidates(probe.origin, createCredential, basic);
			const lists = listCandidates(list.origin, listCredential, basic);
			await importJson(instance, 'credentials', [listCredential, createCredential, basic]);
			await importJson(
				instance,
				'workflow',
				[...creates, ...lists].map((candidate) => candidate.workflow),
			);
			const rawLoop = fork(path.join(__dirname, 'rawLoop.js'), { execPath: n8n.node, stdio: 'inherit' });
			const server = await startServer(instance);
			try {
				const api = await publicApi(server);
				const bench = { server, api };
				for (const candidate of [...creates, ...lists]) await activate(api, candidate.workflow.id);
				if (only.has('list')) {
					console.log('Return All …');
					const token = await exchangeToken(list.origin);
					benchmarks.list = await listBenchmark(bench, lists, list, rawLoop, token, ROUNDS);
				}
				if (only.has('creates')) {
					console.log('Creates …');
					benchmarks.creates = await createsBenchmark(bench, creates, probe.port, CREATE_ROUNDS);
				}
			} finally {
				await server.stop();
				rawLoop.disconnect();
			}
		}
		if (only.has('burst')) {
			console.log('Trigger bursts, one process …');
			Object.assign(benchmarks, await oneProcessBursts(list, listCredential, base, n8n));
		}
		if (only.has('queue')) {
			console.log('Trigger bursts, queue mode …');
			Object.assign(benchmarks, await queueBursts(list, listCredential, base + 10, n8n));
		}
	} finally {
		await list.close();
	}

	const machine = machineOf(n8n, loadBefore);
	const ratios = ratiosOf(benchmarks);
	const goals = goalsOf(benchmarks, ratios, n8n.version);
	console.log(`\n${machineLine(machine)}`);
	console.log(
		JSON.stringify(
			{ ...Object.fromEntries(Object.entries(benchmarks).map(([k, b]) => [k, b.candidates])), ratios },
			null,
			2,
		),
	);
	printGoals(goals);
	// A run of other burst sizes (AGENCY_CRM_BENCH_BURST_SIZES) is a smoke run: printed, never written.
	const bothBursts = benchmarks.burst40 !== undefined && benchmarks.burst !== undefined;
	if (!isDefault && only.size === 1 && bothBursts) {
		const { burst40, burst } = benchmarks;
		writeFileSync(OTHER_N8N_BURSTS, `${JSON.stringify({ machine, burst40, burst, ratios }, null, '\t')}\n`);
		console.log(`Wrote ${path.relative(ROOT, OTHER_N8N_BURSTS)}`);
	}
	if (isDefault && bothBursts && EVERY_BENCHMARK.every((name) => only.has(name))) {
		const other = existsSync(OTHER_N8N_BURSTS)
			? (JSON.parse(readFileSync(OTHER_N8N_BURSTS, 'utf8')) as OtherBursts)
			: undefined;
		const otherGoals = other ? otherVersionGoals(other) : [];
		if (other) console.log(`\nThe bursts of the last run on n8n ${other.machine.n8n} (${other.machine.date}):`);
		printGoals(otherGoals);
		const dir = path.join(ROOT, 'bench');
		writeResults(
			path.join(dir, 'results.json'),
			path.join(dir, 'RESULTS.md'),
			machine,
			benchmarks,
			ratios,
			[...goals, ...otherGoals],
			other,
		);
		console.log('Wrote bench/results.json and bench/RESULTS.md');
	}
}

function printGoals(goals: Goal[]): void {
	for (const goal of goals) console.log(`${goal.met ? 'met    ' : 'NOT MET'} ${goal.goal}: ${goal.figure}`);
}

/** The bursts of the last run on n8n 1.123 (bench/results-n8n-1.123.json). */
interface OtherBursts {
	machine: Machine;
	burst: Benchmark;
	burst40?: Benchmark;
}

/** The goals of the other n8n version's bursts, from their figures, for RESULTS.md beside this run's. */
function otherVersionGoals(other: OtherBursts): Goal[] {
	const bursts: Record<string, Benchmark> = {
		...(other.burst40 ? { burst40: other.burst40 } : {}),
		burst: other.burst,
	};
	return goalsOf(bursts, ratiosOf(bursts), other.machine.n8n);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
