/**
 * The admin's webhook burst (`POST /_admin/deliveries/burst`): N events sent at once to one hook,
 * or to the subscribed active hooks of a site, through the real delivery path (same payload, same
 * headers, same log, counters and suspension), answered with each delivery's acknowledgement
 * latency (`ack_ms`) and outcome once all have settled.
 */
import { invalidField, notFound, Reply } from './http';
import { WEBHOOK_EVENTS } from './model';
import type { Webhook, WebhookEvent } from './model';
import type { Store } from './store';
import { FieldReader, objectBody } from './validation';
import { subscribes, WebhookDispatcher } from './webhooks';

/** At most this many events per burst: the delivery log keeps 2,000 entries. */
export const MAX_BURST = 2000;

interface BurstTarget {
	hooks: Webhook[];
	event: WebhookEvent;
	siteId: number;
}

export async function sendBurst(store: Store, dispatcher: WebhookDispatcher, body: unknown): Promise<Reply> {
	const reader = new FieldReader(objectBody(body));
	const hookId = reader.optionalInteger('hook_id', { min: 1 }) ?? undefined;
	const siteId = reader.optionalInteger('site_id', { min: 1 }) ?? undefined;
	if (hookId !== undefined && siteId !== undefined) reader.fail('site_id', 'send hook_id or site_id, not both');
	const count = reader.requiredInteger('count', { min: 1, max: MAX_BURST });
	const eventType = reader.optionalOneOf('event_type', WEBHOOK_EVENTS) ?? undefined;
	const resourceIds = reader.optionalIntegerList('resource_ids') ?? undefined;
	if (resourceIds?.length === 0) reader.fail('resource_ids', 'must list at least one id');
	reader.throwIfInvalid();

	const target =
		hookId !== undefined ? hookTarget(store, hookId, eventType) : siteTarget(store, siteId ?? 1, eventType);
	const ids = resourceIds ?? demoResourceIds(store, target);
	if (ids.length === 0) throw invalidField('resource_ids', `site ${target.siteId} has no record to name`);
	const started = performance.now();
	const deliveries = await dispatcher.burst(
		target.hooks,
		Array.from({ length: count }, (_, index) => ({ event: target.event, resourceId: ids[index % ids.length] })),
	);
	const delivered = deliveries.filter((delivery) => delivery.outcome === 'delivered').length;
	return {
		status: 200,
		body: {
			data: {
				event_type: target.event,
				hook_ids: target.hooks.map((hook) => hook.id),
				sent: deliveries.length,
				delivered,
				failed: deliveries.length - delivered,
				latency_ms: latencySummary(deliveries.flatMap((delivery) => delivery.ack_ms ?? [])),
				wall_ms: Math.round((performance.now() - started) * 10) / 10,
				deliveries,
			},
		},
	};
}

/** One hook, active, subscribed to the event (by default its first subscribed event). */
function hookTarget(store: Store, hookId: number, eventType: WebhookEvent | undefined): BurstTarget {
	const hook = store.hooks.get(hookId);
	if (!hook) throw notFound(`Webhook ${hookId}`);
	if (hook.status !== 'active')
		throw invalidField('hook_id', `webhook ${hookId} is suspended; a PUT of its url reactivates it`);
	const event = eventType ?? WEBHOOK_EVENTS.find((candidate) => subscribes(hook, candidate));
	if (!event) throw invalidField('hook_id', `webhook ${hookId} subscribes to no event`);
	if (!subscribes(hook, event)) throw invalidField('event_type', `webhook ${hookId} does not subscribe to ${event}`);
	return { hooks: [hook], event, siteId: hook.site_id };
}

/** The active hooks of a site that subscribe to the event, which is then required. */
function siteTarget(store: Store, siteId: number, eventType: WebhookEvent | undefined): BurstTarget {
	if (!store.sites.has(siteId)) throw invalidField('site_id', `unknown site ${siteId}`);
	if (!eventType) throw invalidField('event_type', 'is required with site_id');
	const hooks = store.hooks.forSite(siteId).filter((hook) => hook.status === 'active' && subscribes(hook, eventType));
	if (hooks.length === 0)
		throw invalidField('site_id', `no active webhook of site ${siteId} subscribes to ${eventType}`);
	return { hooks, event: eventType, siteId };
}

/** The site's customers or products, ascending, for the events to name. */
function demoResourceIds(store: Store, { event, siteId }: BurstTarget): number[] {
	return event.startsWith('CUSTOMER')
		? store.customers.forSite(siteId).map((customer) => customer.customers_id)
		: store.products.forSite(siteId).map((product) => product.product_id);
}

/** Nearest-rank percentiles of latencies in ms; every figure is null when there is none. */
export function latencySummary(latencies: readonly number[]) {
	const sorted = [...latencies].sort((a, b) => a - b);
	if (sorted.length === 0) return { min: null, p50: null, p95: null, p99: null, max: null, mean: null };
	const rank = (percent: number) => sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)];
	const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
	return {
		min: sorted[0],
		p50: rank(50),
		p95: rank(95),
		p99: rank(99),
		max: sorted[sorted.length - 1],
		mean: Math.round(mean * 10) / 10,
	};
}
