/**
 * Webhook deliveries. Events are delivered after the API request that caused them has been
 * answered (setImmediate), each as one HTTP POST per subscribed active hook of the site. A
 * delivery fails when the receiver does not answer 200 within the timeout (a 422 to a customer
 * event counts as delivered); after N consecutive failures the hook is suspended.
 */
import { randomUUID } from 'node:crypto';
import http, { ClientRequest } from 'node:http';
import https from 'node:https';
import type { EventPublisher } from './api';
import { toUtc } from './http';
import { Metrics, Ring } from './metrics';
import type { Webhook, WebhookEvent } from './model';
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
	status: number | null;
	error: string | null;
	outcome: 'delivered' | 'failed';
	duration_ms: number;
}

export interface DeliveryOptions {
	timeoutMs: number;
	suspendAfterFailures: number;
}

const DELIVERY_LOG_SIZE = 2000;

function subscribes(hook: Webhook, event: WebhookEvent): boolean {
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
				this.deliver(hook, {
					delivery_id: randomUUID(),
					event_type: event,
					resource_type: event.startsWith('CUSTOMER') ? 'customer' : 'product',
					resource_id: resourceId,
					occurred_at: occurredAt,
					site_id: siteId,
				});
			}
		});
	}

	/** Stops delivering and aborts deliveries under way. */
	close(): void {
		this.closed = true;
		for (const request of this.inFlight) request.destroy();
	}

	private deliver(hook: Webhook, payload: DeliveryPayload): void {
		const body = JSON.stringify(payload);
		const target = hook.url;
		const url = new URL(target);
		const started = performance.now();
		let settled = false;
		const settle = (status: number | null, error: string | null) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			this.record(hook.id, target, payload, status, error, Math.round(performance.now() - started));
		};
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
		request.on('response', (response) => {
			response.resume();
			settle(response.statusCode ?? null, null);
		});
		request.on('error', (error) => settle(null, error.message));
		request.end(body);
	}

	private record(
		hookId: number,
		target: string,
		payload: DeliveryPayload,
		status: number | null,
		error: string | null,
		durationMs: number,
	): void {
		const refused = status === 422 && payload.resource_type === 'customer';
		const delivered = status === 200 || refused;
		this.metrics.countDelivery(payload.event_type, !delivered);
		this.log.push({
			at: toUtc(new Date()),
			delivery_id: payload.delivery_id,
			hook_id: hookId,
			url: target,
			event_type: payload.event_type,
			resource_id: payload.resource_id,
			status,
			error: error ?? (delivered ? null : `receiver answered ${status}, not 200`),
			outcome: delivered ? 'delivered' : 'failed',
			duration_ms: durationMs,
		});
		// The hook may have been deleted or re-pointed meanwhile; only the live record counts failures.
		const current = this.store.hooks.get(hookId);
		if (!current || current.url !== target) return;
		current.consecutive_failures = delivered ? 0 : current.consecutive_failures + 1;
		if (current.consecutive_failures >= this.options.suspendAfterFailures) current.status = 'suspended';
	}
}
