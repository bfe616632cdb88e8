import type { IDataObject } from 'n8n-workflow';

import { RECORD_KIND_OF_WORD, productionEventOf } from '../shared/events';

/**
 * A notification. The spec promises only `event_type` and "the identifier of the related
 * resource" (section 6), and production sends just `event_type` and `resource_id`; the other keys
 * read are our reading (docs/assumptions.md). `catch_up` marks the replays the trigger sends itself
 * after a suspension or a restart (catchUp.ts).
 */
export type Notification = IDataObject;

/**
 * The delivery's body as a notification. n8n parses JSON itself (and answers malformed JSON sent as
 * JSON with 422 before the trigger runs); a body sent as text is read as JSON here. Text that is not
 * a JSON object names nothing: undefined, so that no workflow starts for it.
 */
export function notificationOf(body: unknown): Notification | undefined {
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
export function subjectOf(notification: Notification): Subject {
	const eventType = eventTypeOf(notification);
	const resourceType = resourceTypeOf(notification, eventType);
	const keys = ['resource_id', ...(resourceType ? [OWN_ID_KEY[resourceType]] : []), 'id'];
	const resourceId = keys.map((key) => identifier(notification[key])).find((value) => value !== undefined);
	return { eventType, resourceType, resourceId };
}

/** A subject whose record can be fetched. */
export type IdentifiedSubject = Subject & { resourceType: ResourceType; resourceId: string | number };

export function isIdentified(subject: Subject): subject is IdentifiedSubject {
	return subject.resourceType !== undefined && subject.resourceId !== undefined;
}

/** Production's event for a listing deleted: its record is gone, and only its id comes. */
export const DELETE_EVENT = 'PRODUCT_DELETE';

/** Whether the notification is a replay the trigger sent itself (catchUp.ts). */
export const isCatchUp = (notification: Notification) => notification.catch_up === true;

/**
 * The output item: what happened, to what, when it arrived, and the raw notification. When the
 * notification names no resource the spec's way or ours, `identified` is false and `warning`
 * says why, so that nothing is lost silently. A deleted record says so (`deleted`); a replay of a
 * change Agency CRM could not deliver says so (`caught_up`).
 */
export function deliveryItem(notification: Notification, subject: Subject, receivedAt: string): IDataObject {
	const item: IDataObject = {
		event_type: subject.eventType ?? null,
		resource_type: subject.resourceType ?? null,
		resource_id: subject.resourceId ?? null,
		identified: isIdentified(subject),
		received_at: receivedAt,
		notification,
	};
	if (subject.eventType === DELETE_EVENT) item.deleted = true;
	if (isCatchUp(notification)) item.caught_up = true;
	if (!isIdentified(subject)) {
		item.warning =
			'The notification names no customer or product the trigger can recognise (looked for resource_type or ' +
			'event_type, and resource_id, customers_id, product_id or id), so no record was fetched. See "notification".';
	}
	return item;
}
