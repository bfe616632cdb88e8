import { admin, counters } from '../test/support/sandbox/admin';
import { waitFor } from '../test/support/waitFor';
import type { Api, Execution } from './n8nBench';
import { executionsAfter, inRounds, latestExecutionId } from './n8nBench';
import type { Benchmark, CandidateFigures, Run } from './report';
import { percentile, summarise } from './report';
import type { SandboxThread } from './sandboxThread';

/** The spec's limit for an acknowledgement (section 6): a delivery answered later counts as failed. */
export const ACK_LIMIT_MS = 10_000;

/** The first customer id of the bench's sandbox, and how many it has (listBenchmark.ts's CUSTOMERS). */
const FIRST_CUSTOMER_ID = 10001;
const CUSTOMER_IDS = 20_000;
let nextCustomer = 0;

/**
 * The ids of `count` customers no burst of this run named yet: each delivery of a burst names another
 * record, as a bulk import does, and never one the trigger already took in this state (version 2
 * drops a repeat, which would start nothing).
 */
export function freshCustomerIds(count: number): number[] {
	return Array.from({ length: count }, () => FIRST_CUSTOMER_ID + (nextCustomer++ % CUSTOMER_IDS));
}

/** What one candidate of a burst benchmark is: the hook the sandbox delivers to, and where its executions show. */
export interface BurstTarget {
	hookId: number;
	workflowId: string;
	/** The public API of the n8n (main instance) that lists the workflow's executions. */
	api: Api;
	/**
	 * The resource id a run's first item carries: production's deliveries carry no delivery id, and the
	 * burst names a different record in each delivery (the site's customers, ascending).
	 */
	resourceIdOf: (json: Record<string, unknown>) => unknown;
	/** Called before each of its bursts (queue mode: which webhook processors the load balancer sends to). */
	route?: () => void;
}

/** The sandbox's answer to a burst (POST /_admin/deliveries/burst), what the bench reads of it. */
export interface BurstAnswer {
	sent: number;
	delivered: number;
	failed: number;
	latency_ms: { p99: number };
	/** `duration_ms`: from the attempt started to the answer; `ack_ms`: from the delivery fully sent. */
	deliveries: Array<{ resource_id: number; status: number | null; ack_ms: number | null; duration_ms: number }>;
}

/** One counted burst of one candidate, as the bench saw it. */
export interface BurstOutcome {
	/** When the bench asked the sandbox for the burst (epoch ms): the sandbox starts every delivery then. */
	burstAt: number;
	answer: BurstAnswer;
	/** The executions the burst started (with their data), and the record each one's first item names. */
	executions: Execution[];
	resourceIdOf: BurstTarget['resourceIdOf'];
	/** From the burst asked for to its last execution finished. */
	settledMs: number;
	/** The most API requests the sandbox held at once. */
	maxInFlight: number;
}

/**
 * Each execution's start (n8n's `startedAt`) after its delivery was fully sent, in ms: the delivery
 * is the one naming the execution's record; the sandbox took `duration_ms − ack_ms` to send it.
 */
function executionStarts({ burstAt, answer, executions }: BurstOutcome, runResourceIds: unknown[]): number[] {
	const sentAt = new Map(
		answer.deliveries.flatMap((delivery) =>
			delivery.ack_ms === null ? [] : [[delivery.resource_id, burstAt + delivery.duration_ms - delivery.ack_ms]],
		),
	);
	return executions.flatMap((execution, index) => {
		const sent = sentAt.get(runResourceIds[index] as number);
		return sent === undefined ? [] : [Date.parse(execution.startedAt) - sent];
	});
}

/** The figures of one burst: its answers (acknowledgements), its executions' starts, what was lost or duplicated. */
export function burstRun(outcome: BurstOutcome): Run {
	const { answer, executions } = outcome;
	const runResourceIds = executions.map((execution) => {
		const [runData] = Object.values(execution.data?.resultData?.runData ?? {});
		return outcome.resourceIdOf(runData?.[0]?.data?.main?.[0]?.[0]?.json ?? {});
	});
	const ran = new Set(runResourceIds);
	const acks = answer.deliveries.flatMap((delivery) => (delivery.ack_ms === null ? [] : [delivery.ack_ms]));
	const slowest = Math.max(...acks);
	const starts = executionStarts(outcome, runResourceIds);
	return {
		ms: answer.latency_ms.p99,
		requests: answer.sent,
		maxInFlight: outcome.maxInFlight,
		lost: answer.deliveries.filter((delivery) => !ran.has(delivery.resource_id)).length,
		duplicated: runResourceIds.length - ran.size,
		late: acks.filter((ms) => ms > ACK_LIMIT_MS).length,
		extra: {
			ack_p50_ms: percentile(acks, 50),
			ack_p95_ms: percentile(acks, 95),
			ack_max_ms: slowest,
			acks_per_s: (acks.length / slowest) * 1000,
			settled_s: outcome.settledMs / 1000,
			failed_deliveries: answer.failed,
			successful_executions: executions.filter((execution) => execution.status === 'success').length,
			start_p50_ms: percentile(starts, 50),
			start_p99_ms: percentile(starts, 99),
			start_max_ms: Math.max(...starts),
		},
	};
}

const milliseconds = (ms: unknown) => `${Math.round(Number(ms))} ms`;

/** A candidate's figures in one line, as the bench prints them after its rounds. */
function burstLine(figures: CandidateFigures): string {
	return [
		`answer p50 ${milliseconds(figures.median_ack_p50_ms)}, p99 ${milliseconds(figures.median_ms)}, max ${milliseconds(figures.median_ack_max_ms)}, ${figures.late ?? 0} over 10 s`,
		`execution start p50 ${milliseconds(figures.median_start_p50_ms)}, p99 ${milliseconds(figures.median_start_p99_ms)}, max ${milliseconds(figures.median_start_max_ms)}`,
		`${figures.lost} lost, ${figures.duplicated} duplicated (medians of ${figures.runs} rounds; counts added up)`,
	].join('; ');
}

/**
 * Bursts of `size` signed deliveries sent at once by the sandbox (POST /_admin/deliveries/burst, one
 * connection each) to each target in turn, rounds alternating, after a warm-up burst of 20 that is
 * not counted; each round waits until the target's executions have finished (settled).
 */
export async function burstBenchmark(
	sandbox: SandboxThread,
	targets: Record<string, BurstTarget>,
	{ size, rounds, title, notes }: { size: number; rounds: number; title: string; notes: string[] },
): Promise<Benchmark> {
	const runs = await inRounds(rounds, Object.keys(targets), async (name, warmUp) => {
		const target = targets[name];
		target.route?.();
		const before = await latestExecutionId(target.api, target.workflowId);
		await admin(sandbox.origin, 'POST', '/reset');
		const burstAt = Date.now();
		const { data: answer } = await admin<{ data: BurstAnswer }>(sandbox.origin, 'POST', '/deliveries/burst', {
			hook_id: target.hookId,
			count: warmUp ? 20 : size,
			event_type: 'CUSTOMER_UPDATE',
			resource_ids: freshCustomerIds(warmUp ? 20 : size),
		});
		// Counted without their data while they run (cheap for n8n), read with it once all are saved.
		await waitFor(
			`${answer.delivered} executions of ${name}`,
			async () => {
				const fresh = await executionsAfter(target.api, target.workflowId, before, false);
				// A second at least, so that an execution more than expected is seen too.
				const done = fresh.filter((execution) => execution.stoppedAt).length >= answer.delivered;
				return done && Date.now() - burstAt > 1000 ? true : undefined;
			},
			180_000,
			500,
		);
		const settledMs = Date.now() - burstAt;
		const executions = await executionsAfter(target.api, target.workflowId, before, true);
		if (warmUp) return undefined;
		const seen = await counters(sandbox.origin);
		const { resourceIdOf } = target;
		return burstRun({ burstAt, answer, executions, resourceIdOf, settledMs, maxInFlight: seen.in_flight.max });
	});
	const candidates = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)]));
	for (const [name, figures] of Object.entries(candidates)) console.log(`  ${name}: ${burstLine(figures)}`);
	return {
		title,
		timedBy:
			"the 99th percentile of the acknowledgement times the sandbox measured (`ack_ms`: from the delivery fully sent to n8n's answer), nearest rank",
		candidates,
		notes: [
			'Sent by the sandbox (POST /_admin/deliveries/burst), one connection per delivery, to the production webhook of an active workflow; the sandbox waits up to a minute for each answer.',
			`acks over 10 s: acknowledgements later than the spec's 10 s (section 6), added up over the rounds; acks per s: deliveries / the slowest acknowledgement; settled: from the burst to the last execution finished. requests: deliveries sent; max in flight: the most API requests (the trigger's record fetches) the sandbox held at once; lost: deliveries acknowledged without an execution.`,
			"start p50, p99, max: from each delivery fully sent to its execution's start (n8n's `startedAt`), the execution found by the record it names; the delivery's send time is the bench's request for the burst plus the sandbox's own time to send it (its `duration_ms` − `ack_ms`), so each figure is at most a few ms over.",
			'Each figure of a candidate is the median of its rounds (acks over 10 s, lost and duplicated: the sum).',
			...notes,
		],
	};
}
