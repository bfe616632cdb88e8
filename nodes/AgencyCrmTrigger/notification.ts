import type { IDataObject } from 'n8n-workflow';

import { requestOf } from '../AgencyCrm/catalogue/requests';
import { RECORD_KIND_OF_WORD, productionEventOf } from '../shared/events';
import type { ApiRequest } from '../shared/transport';

/**
 * A notification. The spec promises only `event_type` and "the identifier of the related
 * resource" (section 6), and production sends just `event_type` and `resource_id`; the other keys
 * read are our reading (docs/assumptions.md). `catch_up` marks the replays the trigger sends itself
 * (replay/catchUp.ts), with the `window` of changes they were found in.
 */
export type Notification = IDataObject;

/**
 * The delivery's body as a notification. n8n parses JSON itself (and answers malformed JSON sent as
 * JSON with 422 before the trigger runs); a body sent as text is read as JSON here. Text that is not
 * a JSON object names nothing: undefined, so that no workflow starts for it.
 */
function notificationOf(body: unknown): Notification | undefined {
	if (typeof body !== 'string') return (body ?? {}) as Notification;
	try {
		const parsed: unknown = JSON.parse(body);
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
			? (parsed as Notification)
			: undefined;
	} catch {
		return undefined;
	}
}

export type ResourceType = 'customer' | 'product';

/** What a delivery is about, read as leniently as the spec's silence requires. */
export interface Subject {
	/** `property.updated` (spec section 6) reads as PRODUCT_UPDATE (docs/assumptions.md). */
	eventType?: string;
	resourceType?: ResourceType;
	resourceId?: string | number;
}

/** Each kind's own identifier key (spec section 2: `customers_id`, `product_id`). */
const OWN_ID_KEY: Record<ResourceType, string> = { customer: 'customers_id', product: 'product_id' };

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function identifier(value: unknown): string | number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	return text(value);
}

/**
 * An event type as the trigger compares it: production's constant (`property.updated` reads as
 * PRODUCT_UPDATE, shared/events.ts), else the name upper-cased: a delivery of an unknown type is let
 * through, never dropped.
 */
export function normalisedEventType(value: unknown): string | undefined {
	const raw = text(value);
	return raw === undefined ? undefined : (productionEventOf(raw) ?? raw.toUpperCase());
}

function eventTypeOf(notification: Notification): string | undefined {
	return normalisedEventType(notification.event_type);
}

function resourceTypeOf(notification: Notification, eventType: string | undefined): ResourceType | undefined {
	const named = RECORD_KIND_OF_WORD.get(text(notification.resource_type)?.toLowerCase() ?? '');
	if (named) return named;
	const byEvent = RECORD_KIND_OF_WORD.get(eventType?.split('_')[0].toLowerCase() ?? '');
	if (byEvent) return byEvent;
	// No type given: the kind whose own identifier key is present, when only one is.
	const keyed = (Object.keys(OWN_ID_KEY) as ResourceType[]).filter(
		(type) => identifier(notification[OWN_ID_KEY[type]]) !== undefined,
	);
	return keyed.length === 1 ? keyed[0] : undefined;
}

/**
 * The event, the resource type and the id: `resource_id` first, then the kind's own key
 * (`customers_id` or `product_id`), then `id` (issue 9, defect 6).
 */
function subjectOf(notification: Notification): Subject {
	const eventType = eventTypeOf(notification);
	const resourceType = resourceTypeOf(notification, eventType);
	const keys = ['resource_id', ...(resourceType ? [OWN_ID_KEY[resourceType]] : []), 'id'];
	const resourceId = keys.map((key) => identifier(notification[key])).find((value) => value !== undefined);
	return { eventType, resourceType, resourceId };
}

const relationsQuery = (parameter: string, relations: string[]) =>
	relations.length ? { [parameter]: relations.join(',') } : undefined;

/**
 * The request that reads the record a delivery names, with its related data (spec section 4:
 * customers take `include`, products `fetch`). An id no request can address (`../x`) throws.
 */
export function recordRequest(
	{ resourceType, resourceId }: { resourceType: ResourceType; resourceId: string | number },
	relations: string[],
): ApiRequest {
	return resourceType === 'customer'
		? requestOf('customer:get', { pathParams: { customerId: resourceId }, qs: relationsQuery('include', relations) })
		: requestOf('product:get', { pathParams: { productId: resourceId }, qs: relationsQuery('fetch', relations) });
}

/** One delivery as the decision reads it. */
export interface Delivery {
	notification: Notification;
	subject: Subject;
	/** When it came, as the item says it. */
	receivedAt: string;
	/** A replay the trigger sent itself (replay/catchUp.ts): `catch_up`, which production never sends. */
	replay: boolean;
	/** "Listen for test event": nothing is remembered (n8n saves no static data of test runs). */
	test: boolean;
}

/** The delivery a body makes, at `now`; undefined for a body that is no notification. */
export function deliveryOf(body: unknown, now: number, test: boolean): Delivery | undefined {
	const notification = notificationOf(body);
	if (notification === undefined) return undefined;
	const replay = notification.catch_up === true;
	return { notification, subject: subjectOf(notification), receivedAt: new Date(now).toISOString(), replay, test };
}
