/**
 * Webhook deliveries. Events are delivered after the API request that caused them has been
 * answered (setImmediate), each as one HTTP POST per subscribed active hook of the site. A
 * delivery fails when the receiver does not answer 200 within the timeout (a 422 to a customer
 * event counts as delivered); after N consecutive failures the hook is suspended. The admin's
 * burst and the console's resend send deliveries through the same path.
 */
import { randomUUID } from 'node:crypto';
import http, { ClientRequest } from 'node:http';
import https from 'node:https';
import type { EventPublisher } from './api';
import { toUtc } from './http';
import { Metrics, Ring } from './metrics';
import type { Webhook, WebhookEvent } from './model';
import { suspendHook } from './resources/hooks';
import type { Store } from './store';

export interface DeliveryPayload {
	delivery_id: string;
	event_type: WebhookEvent;
	resource_type: 'customer' | 'product';
	resource_id: number;
	occurred_at: string;
	site_id: number;
}

export interface DeliveryLogEntry {
	at: string;
	delivery_id: string;
	hook_id: number;
	url: string;
	event_type: WebhookEvent;
	resource_id: number;
	/** The payload's: a resend sends the same. */
	occurred_at: string;
	site_id: number;
	/** Whether this is a delivery sent again (same payload, same `delivery_id`). */
	resent: boolean;
	status: number | null;
	error: string | null;
	outcome: 'delivered' | 'failed';
	/** From starting the delivery (connection included) to the receiver's answer or the error, to 0.1 ms. */
	duration_ms: number;
	/**
	 * The receiver's acknowledgement time: from the request fully sent to its answer (or the error),
	 * to 0.1 ms; null when the request could not be sent. Unlike `duration_ms` it leaves out the
	 * sandbox's own time to open connections, which grows when many deliveries start at once.
	 */
	ack_ms: number | null;
	/** What a receiver that did not acknowledge answered (its first 2,000 characters); else null. */
	response_body: string | null;
}

/** One event of a burst: its type and the id of its resource. */
export interface BurstEvent {
	event: WebhookEvent;
	resourceId: number;
}

export interface DeliveryOptions {
	timeoutMs: number;
	suspendAfterFailures: number;
	/** Called after each delivery is recorded (its log entry, and a hook's failure count, changed). */
	onRecorded?: () => void;
}

const DELIVERY_LOG_SIZE = 2000;
const RESPONSE_BODY_CHARACTERS = 2000;

export function subscribes(hook: Webhook, event: WebhookEvent): boolean {
	return hook.origines.includes(event) || (event === 'PRODUCT_UPDATE' && hook.origines.includes('property.updated'));
}

export class WebhookDispatcher implements EventPublisher {
	readonly log = new Ring<DeliveryLogEntry>(DELIVERY_LOG_SIZE);
	private readonly inFlight = new Set<ClientRequest>();
	private closed = false;

	constructor(
		private readonly store: Store,
		private readonly metrics: Metrics,
		private readonly options: DeliveryOptions,
	) {}

	publish(siteId: number, event: WebhookEvent, resourceId: number): void {
		const occurredAt = toUtc(new Date());
		// Never delay the API answer: deliveries start once the current request is done.
		setImmediate(() => {
			if (this.closed) return;
			for (const hook of this.store.hooks.forSite(siteId)) {
				if (hook.status !== 'active' || !subscribes(hook, event)) continue;
				void this.deliver(hook, payloadOf(siteId, event, resourceId, occurredAt));
			}
		});
	}

	/** Sends every event to every hook, all at once; resolves with each delivery once all have settled. */
	burst(hooks: readonly Webhook[], events: readonly BurstEvent[]): Promise<DeliveryLogEntry[]> {
		const occurredAt = toUtc(new Date());
		return Promise.all(
			events.flatMap(({ event, resourceId }) =>
				hooks.map((hook) => this.deliver(hook, payloadOf(hook.site_id, event, resourceId, occurredAt))),
			),
		);
	}

	/**
	 * Sends a logged delivery again, to its hook's current URL with the same payload (the same
	 * `delivery_id`, so a receiver that drops repeated deliveries acknowledges it and does nothing).
	 */
	resend(entry: DeliveryLogEntry, hook: Webhook): Promise<DeliveryLogEntry> {
		const { delivery_id, event_type, resource_id, occurred_at, site_id } = entry;
		const payload: DeliveryPayload = {
			delivery_id,
			event_type,
			resource_type: resourceTypeOf(event_type),
			resource_id,
			occurred_at,
			site_id,
		};
		return this.deliver(hook, payload, true);
	}

	/** Stops delivering and aborts deliveries under way. */
	close(): void {
		this.closed = true;
		for (const request of this.inFlight) request.destroy();
	}

	/** Resolves with the delivery's log entry once the receiver has answered, failed or timed out. */
	private deliver(hook: Webhook, payload: DeliveryPayload, resent = false): Promise<DeliveryLogEntry> {
		const body = JSON.stringify(payload);
		const target = hook.url;
		return new Promise((resolve) => {
			const started = performance.now();
			let sent: number | undefined;
			let answered: number | undefined;
			let settled = false;
			const settle = (status: number | null, error: string | null, responseBody: string | null = null) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				const now = answered ?? performance.now();
				const outcome = {
					duration_ms: toTenths(now - started),
					ack_ms: sent === undefined ? null : toTenths(now - sent),
					response_body: responseBody,
					resent,
				};
				resolve(this.record(hook.id, target, payload, status, error, outcome));
			};
			const url = new URL(target);
			const request = (url.protocol === 'https:' ? https : http).request(url, {
				method: 'POST',
				// One connection per delivery: no pooled sockets left open towards receivers.
				agent: false,
				headers: {
					'Content-Type': 'application/json',
					'User-Agent': 'AgencyCrmSandbox-Webhooks/1.0',
					...hook.headers,
					'Content-Length': Buffer.byteLength(body),
				},
			});
			const timer = setTimeout(
				() => request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
				this.options.timeoutMs,
			);
			this.inFlight.add(request);
			request.on('close', () => this.inFlight.delete(request));
			request.on('finish', () => (sent = performance.now()));
			// Not acknowledged: the start of what the receiver said is kept, to show why.
			let failedAnswer: { status: number | null; text: string } | undefined;
			const settleFailedAnswer = () => {
				if (failedAnswer) settle(failedAnswer.status, null, failedAnswer.text.slice(0, RESPONSE_BODY_CHARACTERS));
			};
			request.on('response', (response) => {
				answered = performance.now();
				const status = response.statusCode ?? null;
				if (status === 200) {
					response.resume();
					settle(status, null);
					return;
				}
				failedAnswer = { status, text: '' };
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => {
					if (failedAnswer && failedAnswer.text.length < RESPONSE_BODY_CHARACTERS) failedAnswer.text += chunk;
				});
				response.on('end', settleFailedAnswer);
				response.on('close', settleFailedAnswer);
			});
			request.on('error', (error) => {
				// An error after a failed answer (the body cut short) keeps that answer's status.
				if (failedAnswer) settleFailedAnswer();
				else settle(null, error.message);
			});
			request.end(body);
		});
	}

	private record(
		hookId: number,
		target: string,
		payload: DeliveryPayload,
		status: number | null,
		error: string | null,
		outcome: Pick<DeliveryLogEntry, 'duration_ms' | 'ack_ms' | 'response_body' | 'resent'>,
	): DeliveryLogEntry {
		const refused = status === 422 && payload.resource_type === 'customer';
		const delivered = status === 200 || refused;
		this.metrics.countDelivery(payload.event_type, !delivered);
		const entry: DeliveryLogEntry = {
			at: toUtc(new Date()),
			delivery_id: payload.delivery_id,
			hook_id: hookId,
			url: target,
			event_type: payload.event_type,
			resource_id: payload.resource_id,
			occurred_at: payload.occurred_at,
			site_id: payload.site_id,
			status,
			error: error ?? (delivered ? null : `receiver answered ${status}, not 200`),
			outcome: delivered ? 'delivered' : 'failed',
			...outcome,
		};
		this.log.push(entry);
		// The hook may have been deleted or re-pointed meanwhile; only the live record counts failures.
		const current = this.store.hooks.get(hookId);
		if (current && current.url === target) {
			current.consecutive_failures = delivered ? 0 : current.consecutive_failures + 1;
			if (current.consecutive_failures >= this.options.suspendAfterFailures) suspendHook(current);
		}
		this.options.onRecorded?.();
		return entry;
	}
}

function toTenths(ms: number): number {
	return Math.round(ms * 10) / 10;
}

function payloadOf(siteId: number, event: WebhookEvent, resourceId: number, occurredAt: string): DeliveryPayload {
	return {
		delivery_id: randomUUID(),
		event_type: event,
		resource_type: resourceTypeOf(event),
		resource_id: resourceId,
		occurred_at: occurredAt,
		site_id: siteId,
	};
}

function resourceTypeOf(event: WebhookEvent): DeliveryPayload['resource_type'] {
	return event.startsWith('CUSTOMER') ? 'customer' : 'product';
}
