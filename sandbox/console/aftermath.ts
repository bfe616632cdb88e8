/**
 * What came of the deliveries a console form just caused (a website lead, a saved contact or
 * listing): the page the form leads to says what each delivery's webhook answered, and whether the
 * workflow it started has acted yet, read from the API's request log (the requests clients made
 * after the change). Until then the page refreshes itself every 2 s (no script: a meta refresh),
 * saying what it waits for; once the workflow's requests have stopped for 2 s it shows their
 * result, and 30 s after the change it stops waiting, and says so. With n8n beside it (npm start),
 * each delivery links to the n8n execution it started.
 */
import type { RequestLogEntry, Ring } from '../metrics';
import type { DeliveryLogEntry, WebhookDispatcher } from '../webhooks';
import { html, Html } from './html';

/** Finds the n8n execution a delivery started (scripts/demo.ts gives one); unknown yet is undefined. */
export interface ExecutionLinks {
	of(delivery: DeliveryLogEntry): string | undefined;
}

/**
 * The query parameter a form's redirect carries: the event the change sent, the record's id and when
 * (`CUSTOMER_CREATE 10121 2026-11-26T20:14:01.518Z`), so that only this change's deliveries count.
 */
export const AWAITING_PARAM = 'awaiting';

export interface Awaited {
	event: string;
	resourceId: number;
	/** When the change was made, to the millisecond. */
	since: string;
}

export const awaitingValue = ({ event, resourceId, since }: Awaited) => `${event} ${resourceId} ${since}`;

export function awaitedOf(value: string | null): Awaited | undefined {
	const [event, resourceId, since] = (value ?? '').split(' ');
	return since && !Number.isNaN(Date.parse(since)) ? { event, resourceId: Number(resourceId), since } : undefined;
}

export const REFRESH_SECONDS = 2;
/** How long after the change the page waits for a workflow to act. */
const WAIT_MS = 30_000;
/** The quiet after a workflow's last request that counts as the workflow done. */
const QUIET_MS = 2_000;

export interface Aftermath {
	/** Set while the page should load itself again. */
	refreshSeconds?: number;
	report: Html;
}

/** The link to a delivery's execution, or nothing while it is not known (or there is no n8n). */
export function executionLink(links: ExecutionLinks | undefined, delivery: DeliveryLogEntry): Html {
	const address = links?.of(delivery);
	return address ? html`<a href="${address}" class="execution">n8n execution</a>` : html``;
}

const time = (at: number) => new Date(at).toISOString().slice(11, 19);
const requestCount = (count: number) => (count === 1 ? '1 request' : `${count} requests`);

/** What the console needs to tell: the deliveries, the API's request log, the n8n executions if any. */
export interface AftermathSources {
	dispatcher: WebhookDispatcher;
	requests: Ring<RequestLogEntry>;
	executions?: ExecutionLinks;
}

export function aftermathOf(sources: AftermathSources, awaited: Awaited, now = Date.now()): Aftermath {
	const start = Date.parse(awaited.since);
	const waited = now - start;
	// A delivery goes out a moment after its event, which was made a moment before `since`.
	const attempts = sources.dispatcher.log
		.latest()
		.filter(
			(delivery) =>
				delivery.event_type === awaited.event &&
				delivery.resource_id === awaited.resourceId &&
				!delivery.resent &&
				Date.parse(delivery.at) >= start - 1000,
		);
	// Each delivery by its latest attempt: a retry replaces the attempt it repeats.
	const deliveries = [...new Map(attempts.map((attempt) => [attempt.delivery_id, attempt])).values()];
	const waiting = (line: Html): Aftermath =>
		waited < WAIT_MS
			? {
					refreshSeconds: REFRESH_SECONDS,
					report: html`${line} This page refreshes itself every ${REFRESH_SECONDS} s.`,
				}
			: { report: html`${line} Nothing more came within ${WAIT_MS / 1000} s: refresh the page by hand.` };
	if (deliveries.length === 0) return waiting(html`Sending the webhook deliveries.`);
	const answers = deliveries.map(
		(delivery, index) =>
			html`${index ? ', webhook' : 'Webhook'} ${delivery.hook_id} answered
			${delivery.status === null ? `nothing (${delivery.error})` : `HTTP ${delivery.status}`}
			${delivery.retry_at ? `(sent again at ${time(Date.parse(delivery.retry_at))} UTC)` : ''}
			${executionLink(sources.executions, delivery)}`,
	);
	const acknowledged = deliveries.filter((delivery) => delivery.outcome === 'delivered');
	if (acknowledged.length === 0 && deliveries.some((delivery) => delivery.retry_at)) return waiting(html`${answers}.`);
	if (acknowledged.length === 0) return { report: html`${answers}. No workflow was started.` };
	// The workflow's requests: those of a client after the change (the deliveries went out after it).
	const acted = sources.requests
		.latest()
		.filter((request) => request.client_id !== null && Date.parse(request.at) >= start)
		.map((request) => Date.parse(request.at));
	if (acted.length === 0) {
		return waiting(
			html`${answers}. Waiting for the workflow to act (a trigger example acts once it is published in n8n).`,
		);
	}
	const last = Math.max(...acted);
	const unlinked = sources.executions && acknowledged.some((delivery) => !sources.executions?.of(delivery));
	if (unlinked && now - last >= QUIET_MS)
		return waiting(html`${answers}. The workflow has acted; looking up its n8n execution.`);
	if (now - last < QUIET_MS)
		return waiting(html`${answers}. The workflow is at work: ${requestCount(acted.length)} to the API so far.`);
	return {
		report: html`${answers}. The workflow has acted: ${requestCount(acted.length)} to the API, the last at ${time(last)}
		UTC. This page shows what they changed.`,
	};
}
