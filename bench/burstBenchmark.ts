import { admin, counters } from '../test/support/sandbox/admin';
import { waitFor } from '../test/support/waitFor';
import type { Api } from './n8nBench';
import { executionsAfter, inRounds, latestExecutionId } from './n8nBench';
import type { Benchmark } from './report';
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

interface BurstAnswer {
	data: {
		sent: number;
		delivered: number;
		failed: number;
		latency_ms: { p99: number };
		deliveries: Array<{ resource_id: number; status: number | null; ack_ms: number | null }>;
	};
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
		const started = Date.now();
		const { data } = await admin<BurstAnswer>(sandbox.origin, 'POST', '/deliveries/burst', {
			hook_id: target.hookId,
			count: warmUp ? 20 : size,
			event_type: 'CUSTOMER_UPDATE',
			resource_ids: freshCustomerIds(warmUp ? 20 : size),
		});
		// Counted without their data while they run (cheap for n8n), read with it once all are saved.
		await waitFor(
			`${data.delivered} executions of ${name}`,
			async () => {
				const fresh = await executionsAfter(target.api, target.workflowId, before, false);
				// A second at least, so that an execution more than expected is seen too.
				const done = fresh.filter((execution) => execution.stoppedAt).length >= data.delivered;
				return done && Date.now() - started > 1000 ? true : undefined;
			},
			180_000,
			500,
		);
		const settledMs = Date.now() - started;
		const executions = await executionsAfter(target.api, target.workflowId, before, true);
		if (warmUp) return undefined;
		const seen = await counters(sandbox.origin);
		const runResourceIds = executions.map((execution) => {
			const [runData] = Object.values(execution.data?.resultData?.runData ?? {});
			return target.resourceIdOf(runData?.[0]?.data?.main?.[0]?.[0]?.json ?? {});
		});
		const sentIds = data.deliveries.map((delivery) => delivery.resource_id);
		const ran = new Set(runResourceIds);
		const acks = data.deliveries.flatMap((delivery) => (delivery.ack_ms === null ? [] : [delivery.ack_ms]));
		const slowest = Math.max(...acks);
		return {
			ms: data.latency_ms.p99,
			requests: data.sent,
			maxInFlight: seen.in_flight.max,
			lost: sentIds.filter((id) => !ran.has(id)).length,
			duplicated: runResourceIds.length - ran.size,
			late: acks.filter((ms) => ms > ACK_LIMIT_MS).length,
			extra: {
				ack_p50_ms: percentile(acks, 50),
				ack_p95_ms: percentile(acks, 95),
				ack_max_ms: slowest,
				acks_per_s: (acks.length / slowest) * 1000,
				settled_s: settledMs / 1000,
				failed_deliveries: data.failed,
				successful_executions: executions.filter((execution) => execution.status === 'success').length,
			},
		};
	});
	return {
		title,
		timedBy:
			"the 99th percentile of the acknowledgement times the sandbox measured (`ack_ms`: from the delivery fully sent to n8n's answer), nearest rank",
		candidates: Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)])),
		notes: [
			'Sent by the sandbox (POST /_admin/deliveries/burst), one connection per delivery, to the production webhook of an active workflow; the sandbox waits up to a minute for each answer.',
			`acks over 10 s: acknowledgements later than the spec's 10 s (section 6), added up over the rounds; acks per s: deliveries / the slowest acknowledgement; settled: from the burst to the last execution finished. requests: deliveries sent; max in flight: the most API requests (the trigger's record fetches) the sandbox held at once; lost: deliveries acknowledged without an execution.`,
			...notes,
		],
	};
}
