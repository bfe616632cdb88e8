import os from 'node:os';

import { DEFAULT_CONCURRENCY } from '../nodes/AgencyCrm/catalogue/nodeOptions';
import {
	BURST_CHARGEBEE,
	BURST_TRIGGER,
	BURST_TRIGGER_LAZY,
	BURST_WEBHOOK,
	BURST_WEBHOOK_LAZY,
	CREATE_CONCURRENCY_ONE,
	CREATE_DEFAULT,
	CREATE_HTTP_BATCHED,
	CREATE_HTTP_CREDENTIAL,
	CREATE_HTTP_UNBATCHED,
	LIST_FLOOR,
	LIST_HTTP,
	LIST_RAW,
	LIST_SIMPLE,
	RAW_LOOP,
} from './n8nWorkflows';
import type { Benchmark, CandidateFigures, Goal } from './report';

/**
 * The ratios `npm run bench` reports (medians of the same run's alternating rounds) and the goals of
 * issues 19, 10, 33 and 38 beside them. Nothing here fails on time: a goal missed is reported as such.
 */

/** The burst sizes of issue 19's goals: one process, and two webhook processors in queue mode. */
export const BURST = 100;
/** Issue 33's bulk import: 40 deliveries at once, each for another record. */
export const SMALL_BURST = 40;
export const QUEUE_BURST = 200;

/** The key of a one-process burst of `size` in the results: `burst40`, `burst` (issue 19's 100), `burst10`. */
export function burstKey(size: number): string {
	return size === BURST ? 'burst' : `burst${size}`;
}

/** The size of a one-process burst by its key in the results; undefined for any other benchmark. */
function burstSizeOf(key: string): number | undefined {
	if (key === 'burst') return BURST;
	const size = /^burst(\d+)$/.exec(key)?.[1];
	return size === undefined ? undefined : Number(size);
}

export const QUEUE_ONE = `${BURST} deliveries, one webhook processor`;
export const QUEUE_TWO = `${QUEUE_BURST} deliveries, two webhook processors`;

/** The ratios the goals read, by their label in RESULTS.md. */
const CREATES_TO_HTTP = 'creates: default / HTTP Request without a credential (like for like)';
const SPEED_UP = 'creates: Concurrency 1 / default (speed-up)';
const LIST_TO_FLOOR = 'Return All: node (Raw) / floor (like for like)';
const LIST_TO_HTTP = 'Return All: node (Raw) / (HTTP Request + Split Out)';
const LIST_TO_RAW = 'Return All: node (Raw) / raw loop';
const FLOOR_TO_HTTP = 'Return All: floor / (HTTP Request + Split Out) (the least the 0.5 goal can reach)';
const burstToChargebee = (size: number) =>
	`burst of ${size}: trigger p99 / Chargebee Trigger p99 (n8n's floor for a trigger)`;
const burstToWebhook = (size: number) => `burst of ${size}: trigger p99 / Webhook node p99`;
const lazyBurstToWebhook = (size: number) => `burst of ${size}, lazy isolates: trigger p99 / Webhook node p99`;

/** Each ratio: its benchmark, its label, and the candidates whose medians it divides. */
const RATIOS: Array<[benchmark: string, label: string, over: string, under: string]> = [
	['creates', CREATES_TO_HTTP, CREATE_DEFAULT, CREATE_HTTP_UNBATCHED],
	['creates', "creates: default / HTTP Request with this package's credential", CREATE_DEFAULT, CREATE_HTTP_CREDENTIAL],
	[
		'creates',
		'creates: HTTP Request with the credential / without (n8n reading the credential per request)',
		CREATE_HTTP_CREDENTIAL,
		CREATE_HTTP_UNBATCHED,
	],
	['creates', 'creates: default / HTTP Request, batching', CREATE_DEFAULT, CREATE_HTTP_BATCHED],
	['creates', SPEED_UP, CREATE_CONCURRENCY_ONE, CREATE_DEFAULT],
	['list', LIST_TO_FLOOR, LIST_RAW, LIST_FLOOR],
	['list', LIST_TO_HTTP, LIST_RAW, LIST_HTTP],
	['list', FLOOR_TO_HTTP, LIST_FLOOR, LIST_HTTP],
	['list', 'Return All: node (Simplified) / floor', LIST_SIMPLE, LIST_FLOOR],
	['list', LIST_TO_RAW, LIST_RAW, RAW_LOOP],
	['list', "Return All: floor / raw loop (the cost of n8n's request path)", LIST_FLOOR, RAW_LOOP],
	['queueOne', `queue mode, ${QUEUE_ONE}: trigger p99 / Webhook node p99`, BURST_TRIGGER, BURST_WEBHOOK],
	['queueOne', `queue mode, ${QUEUE_ONE}: trigger p99, lazy isolates / default`, BURST_TRIGGER_LAZY, BURST_TRIGGER],
	['queueTwo', `queue mode, ${QUEUE_TWO}: trigger p99 / Webhook node p99`, BURST_TRIGGER, BURST_WEBHOOK],
	['queueTwo', `queue mode, ${QUEUE_TWO}: trigger p99, lazy isolates / default`, BURST_TRIGGER_LAZY, BURST_TRIGGER],
];

/** The ratios of each one-process burst in `benchmarks`, by its size. */
function burstRatios(benchmarks: Record<string, Benchmark>): typeof RATIOS {
	return Object.keys(benchmarks).flatMap((key): typeof RATIOS => {
		const size = burstSizeOf(key);
		if (size === undefined) return [];
		return [
			[key, burstToChargebee(size), BURST_TRIGGER, BURST_CHARGEBEE],
			[key, burstToWebhook(size), BURST_TRIGGER, BURST_WEBHOOK],
			[key, lazyBurstToWebhook(size), BURST_TRIGGER_LAZY, BURST_WEBHOOK_LAZY],
			[key, `burst of ${size}: trigger p99, lazy isolates / default`, BURST_TRIGGER_LAZY, BURST_TRIGGER],
		];
	});
}

export function ratiosOf(benchmarks: Record<string, Benchmark>): Record<string, number> {
	const ratios: Record<string, number> = {};
	for (const [key, label, over, under] of [...burstRatios(benchmarks), ...RATIOS]) {
		const figures = benchmarks[key]?.candidates;
		if (figures?.[over] && figures[under]) ratios[label] = figures[over].median_ms / figures[under].median_ms;
	}
	return ratios;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The acknowledgement figures of one burst candidate, as the goals quote them. */
function burstFigure(figures: CandidateFigures): string {
	return `p99 ${seconds(figures.median_ms)}, ${figures.late ?? 0} acks over 10 s in ${figures.runs} rounds, ${figures.lost} lost, ${Math.round(Number(figures.median_acks_per_s))} acks/s`;
}

const acksPerSecond = (figures: CandidateFigures | undefined) =>
	figures ? `${Math.round(Number(figures.median_acks_per_s))} acks/s` : 'not measured';

/**
 * What bounds a queue-mode burst, from the same run: each candidate's acknowledgement rate through
 * these processors, and the trigger's through one processor (every process shares the machine's cores).
 */
function queueBound(benchmarks: Record<string, Benchmark>, key: string): string {
	const here = benchmarks[key].candidates;
	const one = benchmarks.queueOne?.candidates;
	return [
		`through these processors, n8n's Webhook node (no expression isolate per delivery) ${acksPerSecond(here[BURST_WEBHOOK])}, the trigger ${acksPerSecond(here[BURST_TRIGGER])}, the trigger with lazy isolates ${acksPerSecond(here[BURST_TRIGGER_LAZY])}`,
		...(key === 'queueOne' ? [] : [`through one processor, the trigger ${acksPerSecond(one?.[BURST_TRIGGER])}`]),
		`every process on the same ${os.cpus().length} cores`,
	].join('; ');
}

/**
 * Issue 38's goals for one process under a burst of `size`, on n8n `n8nVersion`: the trigger's p99
 * answer at most n8n's floor for a trigger (its Chargebee Trigger), and every delivery answered
 * within 10 s with one execution; n8n's Webhook node beside them. With lazy isolates (n8n 2.x), issue
 * 19's figures of the same burst.
 */
function burstGoals(
	candidates: Record<string, CandidateFigures>,
	size: number,
	ratios: Record<string, number>,
	n8nVersion: string,
): Goal[] {
	const trigger = candidates[BURST_TRIGGER];
	const chargebee = candidates[BURST_CHARGEBEE];
	const webhook = candidates[BURST_WEBHOOK];
	const lazy = candidates[BURST_TRIGGER_LAZY];
	const where = `${size} deliveries at once, one n8n ${n8nVersion} process`;
	const p99 = (figures: CandidateFigures | undefined, key = 'median_ms') =>
		figures ? seconds(Number(figures[key])) : 'not measured';
	const toChargebee = ratios[burstToChargebee(size)];
	const goals: Goal[] = [
		{
			goal: `38: ${where}: trigger p99 answer / Chargebee Trigger p99 ≤ 1.0`,
			figure:
				`${toChargebee === undefined ? 'not measured' : toChargebee.toFixed(2)} (answer p99: trigger ${p99(trigger)}, Chargebee ${p99(chargebee)}, Webhook node ${p99(webhook)}; ` +
				`execution start p99: trigger ${p99(trigger, 'median_start_p99_ms')}, Chargebee ${p99(chargebee, 'median_start_p99_ms')}, Webhook node ${p99(webhook, 'median_start_p99_ms')})`,
			met: toChargebee !== undefined && toChargebee <= 1.0,
			bound: `in the same process, the Chargebee Trigger ${acksPerSecond(chargebee)}, n8n's Webhook node ${acksPerSecond(webhook)}, the trigger ${acksPerSecond(trigger)}`,
		},
		{
			goal: `38: ${where}: every delivery answered within 10 s, one execution each (trigger, every round)`,
			figure: `${burstFigure(trigger)}, ${trigger.duplicated} duplicated; over 10 s: Chargebee ${chargebee?.late ?? 'not measured'}, Webhook node ${webhook?.late ?? 'not measured'}`,
			met: (trigger.late ?? 0) === 0 && trigger.lost === 0 && trigger.duplicated === 0,
		},
	];
	if (lazy) {
		goals.push({
			goal: `19: ${where}, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (measured, for the README)`,
			figure: `trigger / Webhook node ${ratios[lazyBurstToWebhook(size)].toFixed(2)}; trigger ${burstFigure(lazy)}`,
			met: (lazy.late ?? 0) === 0 && lazy.lost === 0,
		});
	}
	return goals;
}

/**
 * The goals beside the figures of a run on n8n `n8nVersion` (or of its bursts alone, as the run on the
 * other n8n version writes them).
 */
export function goalsOf(
	benchmarks: Record<string, Benchmark>,
	ratios: Record<string, number>,
	n8nVersion: string,
): Goal[] {
	const goals: Goal[] = [];
	const creates = benchmarks.creates?.candidates;
	if (creates) {
		const toHttp = ratios[CREATES_TO_HTTP];
		goals.push({
			goal: `19: creates at the default Concurrency: this node / HTTP Request without a credential ≤ 1.2`,
			figure: `${toHttp.toFixed(2)} (${Math.round(creates[CREATE_DEFAULT].median_ms)} ms / ${Math.round(creates[CREATE_HTTP_UNBATCHED].median_ms)} ms)`,
			met: toHttp <= 1.2,
		});
		const ours = [creates[CREATE_CONCURRENCY_ONE], creates[CREATE_DEFAULT]];
		goals.push({
			goal: `19: creates still bounded in flight (≤ ${DEFAULT_CONCURRENCY}), 0 lost, 0 duplicated (this node, every run)`,
			figure: `at most ${creates[CREATE_DEFAULT].max_in_flight} in flight; ${ours.reduce((sum, figures) => sum + figures.lost, 0)} lost, ${ours.reduce((sum, figures) => sum + figures.duplicated, 0)} duplicated`,
			met:
				creates[CREATE_DEFAULT].max_in_flight <= DEFAULT_CONCURRENCY &&
				creates[CREATE_CONCURRENCY_ONE].max_in_flight <= 1 &&
				ours.every((figures) => figures.lost === 0 && figures.duplicated === 0),
		});
		const speedUp = ratios[SPEED_UP];
		goals.push({
			goal: `10: 1,000 creates: default (${DEFAULT_CONCURRENCY}) ≥ 8× faster than Concurrency 1`,
			figure: `${speedUp.toFixed(1)}× (${Math.round(creates[CREATE_CONCURRENCY_ONE].median_ms)} ms → ${Math.round(creates[CREATE_DEFAULT].median_ms)} ms)`,
			met: speedUp >= 8,
		});
	}
	if (benchmarks.list) {
		const toFloor = ratios[LIST_TO_FLOOR];
		const toHttp = ratios[LIST_TO_HTTP];
		const toRaw = ratios[LIST_TO_RAW];
		goals.push({
			goal: '19: Return All 20,000, Output Raw: this node / the floor ≤ 1.1',
			figure: toFloor.toFixed(2),
			met: toFloor <= 1.1,
		});
		goals.push({
			goal: '19 and 10: Return All, Output Raw: this node / (HTTP Request + Split Out) ≤ 0.5',
			figure: toHttp.toFixed(2),
			met: toHttp <= 0.5,
			bound: `the floor (n8n's authenticated helper and nothing else) / (HTTP Request + Split Out) is ${ratios[FLOOR_TO_HTTP].toFixed(2)}, and this node / the floor ${toFloor.toFixed(2)}`,
		});
		goals.push({
			goal: '10: Return All: this node / raw fetch loop ≤ 1.3',
			figure: toRaw.toFixed(2),
			met: toRaw <= 1.3,
		});
	}
	for (const key of Object.keys(benchmarks)) {
		const size = burstSizeOf(key);
		if (size !== undefined) goals.push(...burstGoals(benchmarks[key].candidates, size, ratios, n8nVersion));
	}
	for (const [key, label] of [
		['queueOne', QUEUE_ONE],
		['queueTwo', QUEUE_TWO],
	]) {
		const candidates = benchmarks[key]?.candidates;
		for (const [name, how] of [
			[BURST_TRIGGER, 'trigger'],
			[BURST_TRIGGER_LAZY, 'trigger, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true'],
		]) {
			const trigger = candidates?.[name];
			if (!trigger) continue;
			goals.push({
				goal: `19: queue mode, ${label}: 0 acknowledgements over 10 s, 0 lost (${how}, every round)`,
				figure: burstFigure(trigger),
				met: (trigger.late ?? 0) === 0 && trigger.lost === 0,
				bound: queueBound(benchmarks, key),
			});
		}
	}
	return goals;
}
