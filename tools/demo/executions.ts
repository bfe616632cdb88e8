import type { ExecutionLinks } from '../../sandbox/console/aftermath';
import type { DeliveryLogEntry } from '../../sandbox/webhooks';
import { restClient } from '../n8n/launcher';

/**
 * The n8n execution each webhook delivery of the sandbox started, for the console beside the demo's
 * n8n (sandbox/console/aftermath.ts). Found through the editor's own REST routes, signed in as the
 * demo's owner: the workflow that serves the delivery's webhook path, its latest executions, and
 * the first one started since the delivery's attempt whose data names the delivery's record (the
 * payload is production's `{event_type, resource_id}`: no id of its own) and that no other delivery
 * took. A delivery is looked up in the background when the
 * console asks for it, at most every 2 s and 15 times in all (the console waits 30 s for a workflow),
 * and remembered once found.
 */

const RETRY_MS = 2_000;
const TRIES = 15;
/** The latest executions of the workflow searched for the delivery. */
const EXECUTIONS_SEARCHED = 10;

type Rest = Awaited<ReturnType<typeof restClient>>;

export function executionLinks(): ExecutionLinks & { connect(n8nUrl: string): void } {
	const found = new Map<string, string>();
	/** The executions linked to a delivery already. */
	const taken = new Set<string>();
	const tried = new Map<string, { at: number; times: number }>();
	let n8nUrl: string | undefined;
	let rest: Promise<Rest> | undefined;

	async function lookUp(delivery: DeliveryLogEntry): Promise<void> {
		if (!n8nUrl) return;
		rest ??= restClient({ url: n8nUrl }).catch((error: Error) => {
			rest = undefined;
			throw error;
		});
		const call = await rest;
		// n8n serves a trigger's production webhook at /webhook/<path>.
		const path = new URL(delivery.url).pathname.replace(/^\/webhook\//, '');
		const { data: webhook } = await call<{ workflowId?: string } | null>('POST', '/webhooks/find', {
			method: 'POST',
			path,
		});
		if (!webhook?.workflowId) return;
		const filter = encodeURIComponent(JSON.stringify({ workflowId: webhook.workflowId }));
		const { data: listed } = await call<{ results?: Array<{ id: string; startedAt?: string }> }>(
			'GET',
			`/executions?filter=${filter}&limit=${EXECUTIONS_SEARCHED}`,
		);
		// Oldest first, from a second before the attempt (n8n stamps its start as it takes the request).
		const since = Date.parse(delivery.at) - 1000;
		const candidates = (listed.results ?? [])
			.filter(({ id, startedAt }) => !taken.has(id) && Date.parse(startedAt ?? '') >= since)
			.reverse();
		// n8n keeps run data flattened (flatted): keys and numbers stay as written, strings become references.
		const namesRecord = `"resource_id":${delivery.resource_id}`;
		for (const { id } of candidates) {
			const { data: execution } = await call<{ data?: unknown }>('GET', `/executions/${id}`);
			const runData = typeof execution.data === 'string' ? execution.data : JSON.stringify(execution.data ?? null);
			if (runData.includes(namesRecord)) {
				taken.add(id);
				found.set(delivery.delivery_id, `${n8nUrl}/workflow/${webhook.workflowId}/executions/${id}`);
				return;
			}
		}
	}

	return {
		connect(url) {
			n8nUrl = url;
		},
		of(delivery) {
			const link = found.get(delivery.delivery_id);
			if (link || !n8nUrl || delivery.outcome !== 'delivered') return link;
			const now = Date.now();
			const before = tried.get(delivery.delivery_id) ?? { at: 0, times: 0 };
			if (now - before.at >= RETRY_MS && before.times < TRIES) {
				tried.set(delivery.delivery_id, { at: now, times: before.times + 1 });
				// Not found yet is not an error: the console asks again on its next refresh.
				lookUp(delivery).catch(() => undefined);
			}
			return undefined;
		},
	};
}
