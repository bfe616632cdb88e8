/**
 * Webhook deliveries, as production makes them (docs/assumptions.md, "Production evidence"). Events
 * are delivered after the API request that caused them has been answered (setImmediate), each as
 * one HTTP POST of `{event_type, resource_id}` per subscribed active hook of the site. Only a 200
 * within the timeout acknowledges a delivery; a 422 refuses the record, which the CRM then marks as
 * errored with the reason the receiver gave; any other answer, or none, is retried after growing
 * delays, and when the last retry fails too the hook is suspended until its URL is updated. Events
 * of a suspended hook are not sent (the log says so). The admin's burst and the console's resend
 * send deliveries through the same path.
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

/** What a delivery carries: production sends these two keys and nothing else. */
export interface DeliveryPayload {
	event_type: WebhookEvent;
	resource_id: number;
}

/**
 * `delivered`: a 200 in time; `rejected`: a 422, the record marked errored, not retried;
 * `failed`: anything else, retried while retries are left; `not sent`: the hook was suspended,
 * deleted or re-pointed before the attempt.
 */
export type DeliveryOutcome = 'delivered' | 'rejected' | 'failed' | 'not sent';

/** One attempt of one delivery, as the log keeps it. */
export interface DeliveryLogEntry {
	at: string;
	/** The sandbox's own id of one event sent to one hook, shared by its attempts; never sent. */
	delivery_id: string;
	/** 1 for the first send, then 2, 3, 4 for the retries. */
	attempt: number;
	hook_id: number;
	url: string;
	event_type: WebhookEvent;
	resource_id: number;
	site_id: number;
	/** Whether the console sent this event again by hand. */
	resent: boolean;
	status: number | null;
	error: string | null;
	outcome: DeliveryOutcome;
	/** When the next attempt is due (a failed attempt with retries left); else null. */
	retry_at: string | null;
	/** Whether this failure suspended the hook (it was the last retry). */
	suspended: boolean;
	/** From starting the attempt (connection included) to the receiver's answer or the error, to 0.1 ms. */
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
	/** The delay before each retry of a delivery not acknowledged; production retries 3 times, growing. */
	retryDelaysMs: readonly number[];
	/** Whether a delivery whose retries all failed suspends its hook, as production does. */
	suspendUndelivered: boolean;
	/** Called after each attempt is recorded (its log entry, a hook's failures or a record's rejection changed). */
	onRecorded?: () => void;
}

/** Our guess of production's "growing delay" (the evidence gives no figures): 10 s, 1 min, 5 min. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000];

const DELIVERY_LOG_SIZE = 2000;
const RESPONSE_BODY_CHARACTERS = 2000;
const REASON_CHARACTERS = 500;

/** One event on its way to one hook, over its attempts. */
interface Delivery {
	id: string;
	hookId: number;
	siteId: number;
	payload: DeliveryPayload;
	resent: boolean;
}

/** What one attempt got back. */
interface Answer {
	url: string;
	status: number | null;
	error: string | null;
	responseBody: string | null;
	durationMs: number;
	ackMs: number | null;
}

export function subscribes(hook: Webhook, event: WebhookEvent): boolean {
	return hook.origines.includes(event) || (event === 'PRODUCT_UPDATE' && hook.origines.includes('property.updated'));
}

/** The key of a record's rejection in the store: `customer:10001`, `product:5001`. */
export function rejectionKey(resourceType: 'customer' | 'product', resourceId: number): string {
	return `${resourceType}:${resourceId}`;
}

export class WebhookDispatcher implements EventPublisher {
	readonly log = new Ring<DeliveryLogEntry>(DELIVERY_LOG_SIZE);
	private readonly inFlight = new Set<ClientRequest>();
	private readonly retries = new Set<NodeJS.Timeout>();
	/** Acknowledgements still to be counted as late (`POST /_admin/deliveries/late-acks`). */
	private lateAcks = 0;
	private closed = false;

	constructor(
		private readonly store: Store,
		private readonly metrics: Metrics,
		private readonly options: DeliveryOptions,
	) {}

	/** How long a receiver has to answer 200. */
	get timeoutMs(): number {
		return this.options.timeoutMs;
	}

	/** The delay before each retry. */
	get retryDelaysMs(): readonly number[] {
		return this.options.retryDelaysMs;
	}

	publish(siteId: number, event: WebhookEvent, resourceId: number): void {
		// Never delay the API answer: deliveries start once the current request is done.
		setImmediate(() => {
			if (this.closed) return;
			for (const hook of this.store.hooks.forSite(siteId)) {
				if (subscribes(hook, event)) void this.attempt(deliveryOf(hook, event, resourceId), 1);
			}
		});
	}

	/** Sends every event to every hook, all at once; resolves with each first attempt once all have settled. */
	burst(hooks: readonly Webhook[], events: readonly BurstEvent[]): Promise<DeliveryLogEntry[]> {
		return Promise.all(
			events.flatMap(({ event, resourceId }) =>
				hooks.map((hook) => this.attempt(deliveryOf(hook, event, resourceId), 1)),
			),
		);
	}

	/** Sends a logged delivery's event again, as a new delivery to its hook's current URL. */
	resend(entry: DeliveryLogEntry, hook: Webhook): Promise<DeliveryLogEntry> {
		return this.attempt({ ...deliveryOf(hook, entry.event_type, entry.resource_id), resent: true }, 1);
	}

	/** The next `count` acknowledgements count as late, as if they came after the timeout: each is retried. */
	countNextAcksAsLate(count: number): void {
		this.lateAcks = count;
	}

	/** Forgets the late acknowledgements still to count (with the log, on `POST /_admin/reset`). */
	reset(): void {
		this.log.clear();
		this.lateAcks = 0;
	}

	/** Stops delivering: retries due later are dropped and deliveries under way aborted. */
	close(): void {
		this.closed = true;
		for (const timer of this.retries) clearTimeout(timer);
		for (const request of this.inFlight) request.destroy();
	}

	/**
	 * One attempt to the hook's current URL, recorded once the receiver has answered, failed or timed
	 * out; a retry goes to the URL the hook has then, and is not sent when the hook is gone or suspended.
	 */
	private async attempt(delivery: Delivery, attempt: number): Promise<DeliveryLogEntry> {
		const hook = this.store.hooks.get(delivery.hookId);
		if (!hook) return this.notSent(delivery, attempt, '', `webhook ${delivery.hookId} was deleted`);
		if (hook.status !== 'active')
			return this.notSent(
				delivery,
				attempt,
				hook.url,
				`webhook ${hook.id} is suspended (a PUT of its url reactivates it)`,
			);
		const answer = await this.post(hook, delivery.payload);
		return this.record(delivery, attempt, answer);
	}

	private post(hook: Webhook, payload: DeliveryPayload): Promise<Answer> {
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
				resolve({
					url: target,
					status,
					error,
					responseBody,
					durationMs: toTenths(now - started),
					ackMs: sent === undefined ? null : toTenths(now - sent),
				});
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
			// Not acknowledged: the start of what the receiver said is kept, to show why (a 422 says why it refuses).
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

	private record(delivery: Delivery, attempt: number, answer: Answer): DeliveryLogEntry {
		const late = answer.status === 200 && this.lateAcks > 0;
		if (late) this.lateAcks--;
		const outcome: DeliveryOutcome =
			answer.status === 200 && !late ? 'delivered' : answer.status === 422 ? 'rejected' : 'failed';
		const { event_type: event, resource_id: resourceId } = delivery.payload;
		this.metrics.countDelivery(event, outcome === 'failed');
		if (outcome === 'rejected') this.reject(delivery, answer.responseBody);
		// A guess: a receiver that takes the record later clears the error it had set.
		if (outcome === 'delivered') this.store.rejections.delete(rejectionKey(resourceTypeOf(event), resourceId));

		// The hook may have been deleted or re-pointed meanwhile; only the live record counts failures.
		const hook = this.store.hooks.get(delivery.hookId);
		const counts = hook !== undefined && hook.url === answer.url;
		if (counts) hook.consecutive_failures = outcome === 'failed' ? hook.consecutive_failures + 1 : 0;
		const retryDelay = outcome === 'failed' ? this.options.retryDelaysMs[attempt - 1] : undefined;
		const suspends = counts && outcome === 'failed' && retryDelay === undefined && this.options.suspendUndelivered;
		if (suspends) suspendHook(hook);
		if (retryDelay !== undefined) this.retryLater(delivery, attempt + 1, retryDelay);

		const entry = this.entryOf(delivery, attempt, answer.url, {
			status: answer.status,
			error:
				answer.error ??
				(late
					? `acknowledged after the timeout (counted late)`
					: outcome === 'failed'
						? `receiver answered ${answer.status}, not 200`
						: null),
			outcome,
			retry_at: retryDelay === undefined ? null : toUtc(new Date(Date.now() + retryDelay)),
			suspended: suspends,
			duration_ms: answer.durationMs,
			ack_ms: answer.ackMs,
			response_body: answer.responseBody,
		});
		this.log.push(entry);
		this.options.onRecorded?.();
		return entry;
	}

	/** The CRM marks the record as errored, with the reason the receiver gave. */
	private reject(delivery: Delivery, responseBody: string | null): void {
		const { event_type: event, resource_id: resourceId } = delivery.payload;
		this.store.rejections.set(rejectionKey(resourceTypeOf(event), resourceId), {
			resource_type: resourceTypeOf(event),
			resource_id: resourceId,
			site_id: delivery.siteId,
			event_type: event,
			hook_id: delivery.hookId,
			reason: rejectionReason(responseBody),
			at: toUtc(new Date()),
		});
	}

	private retryLater(delivery: Delivery, attempt: number, delayMs: number): void {
		if (this.closed) return;
		const timer = setTimeout(() => {
			this.retries.delete(timer);
			if (!this.closed) void this.attempt(delivery, attempt);
		}, delayMs);
		this.retries.add(timer);
	}

	private notSent(delivery: Delivery, attempt: number, url: string, reason: string): DeliveryLogEntry {
		const entry = this.entryOf(delivery, attempt, url, {
			status: null,
			error: `not sent: ${reason}`,
			outcome: 'not sent',
			retry_at: null,
			suspended: false,
			duration_ms: 0,
			ack_ms: null,
			response_body: null,
		});
		this.log.push(entry);
		this.options.onRecorded?.();
		return entry;
	}

	private entryOf(
		delivery: Delivery,
		attempt: number,
		url: string,
		result: Omit<
			DeliveryLogEntry,
			'at' | 'delivery_id' | 'attempt' | 'hook_id' | 'url' | 'event_type' | 'resource_id' | 'site_id' | 'resent'
		>,
	): DeliveryLogEntry {
		return {
			at: toUtc(new Date()),
			delivery_id: delivery.id,
			attempt,
			hook_id: delivery.hookId,
			url,
			event_type: delivery.payload.event_type,
			resource_id: delivery.payload.resource_id,
			site_id: delivery.siteId,
			resent: delivery.resent,
			...result,
		};
	}
}

/**
 * The reason a receiver gave for refusing a record: `reason`, `message` or `error` (text, or an
 * object's `message`) of a JSON body, else the body's text.
 */
export function rejectionReason(body: string | null): string {
	const text = (body ?? '').trim();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	const object = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
	const error = object.error;
	const candidates = [
		object.reason,
		object.message,
		error,
		typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : undefined,
	];
	const reason = candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
	return (reason ?? (text || '(no reason given)')).slice(0, REASON_CHARACTERS);
}

function toTenths(ms: number): number {
	return Math.round(ms * 10) / 10;
}

function deliveryOf(hook: Webhook, event: WebhookEvent, resourceId: number): Delivery {
	return {
		id: randomUUID(),
		hookId: hook.id,
		siteId: hook.site_id,
		payload: { event_type: event, resource_id: resourceId },
		resent: false,
	};
}

export function resourceTypeOf(event: WebhookEvent): 'customer' | 'product' {
	return event.startsWith('CUSTOMER') ? 'customer' : 'product';
}
