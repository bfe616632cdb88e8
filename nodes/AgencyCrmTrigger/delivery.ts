import { timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { requestOf } from '../AgencyCrm/catalogue/requests';
import { apiRequest, responseData, reuseRecentTokens } from '../shared/transport';
import { SECRET_HEADER, secretDigest } from './hookRegistration';

/**
 * Whether the provided secret is the registered one, given the registration's digest. The digests
 * are compared in constant time, so that the secret cannot be guessed from response times.
 */
export function secretMatches(expectedDigest: string | undefined, provided: unknown): boolean {
	if (!expectedDigest || typeof provided !== 'string') return false;
	const a = Buffer.from(expectedDigest);
	const b = Buffer.from(secretDigest(provided));
	return a.length === b.length && timingSafeEqual(a, b);
}

export function providedSecret(context: IWebhookFunctions): unknown {
	return context.getHeaderData()[SECRET_HEADER];
}

/**
 * A notification. The spec promises only `event_type` and "the identifier of the related
 * resource" (section 6); the other keys are our reading (docs/assumptions.md).
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

/** Names a notification may give the resource type under (the spec's own words for both kinds). */
const RESOURCE_TYPE_NAMES = new Map<string, ResourceType>([
	['customer', 'customer'],
	['customers', 'customer'],
	['contact', 'customer'],
	['product', 'product'],
	['products', 'product'],
	['property', 'product'],
]);

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
 * An event type as the trigger compares it: upper case, `property.updated` read as PRODUCT_UPDATE
 * (spec section 6 names both for product changes). Deliveries and the events chosen are read the
 * same way, so that a chosen `property.updated` matches its deliveries whatever their spelling.
 */
export function normalisedEventType(value: unknown): string | undefined {
	const raw = text(value);
	if (raw === undefined) return undefined;
	return raw.toLowerCase() === 'property.updated' ? 'PRODUCT_UPDATE' : raw.toUpperCase();
}

function eventTypeOf(notification: Notification): string | undefined {
	return normalisedEventType(notification.event_type);
}

function resourceTypeOf(notification: Notification, eventType: string | undefined): ResourceType | undefined {
	const named = RESOURCE_TYPE_NAMES.get(text(notification.resource_type)?.toLowerCase() ?? '');
	if (named) return named;
	const byEvent = RESOURCE_TYPE_NAMES.get(eventType?.split('_')[0].toLowerCase() ?? '');
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

/**
 * The output item: what happened, to what, when it arrived, and the raw notification. When the
 * notification names no resource the spec's way or ours, `identified` is false and `warning`
 * says why, so that nothing is lost silently.
 */
export function deliveryItem(notification: Notification, subject: Subject, receivedAt: string): IDataObject {
	const deliveryId = identifier(notification.delivery_id);
	const item: IDataObject = {
		event_type: subject.eventType ?? null,
		resource_type: subject.resourceType ?? null,
		resource_id: subject.resourceId ?? null,
		identified: isIdentified(subject),
		delivery_id: deliveryId === undefined ? null : String(deliveryId),
		received_at: receivedAt,
		notification,
	};
	if (!isIdentified(subject)) {
		item.warning =
			'The notification names no customer or product the trigger can recognise (looked for resource_type or ' +
			'event_type, and resource_id, customers_id, product_id or id), so no record was fetched. See "notification".';
	}
	return item;
}

/**
 * A list of names as the user gave it: the editor's array, or an expression's array or
 * comma-separated text. Values are passed on unchanged (guesses never block).
 */
export function nameList(value: unknown): string[] {
	const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return [...new Set(values.map((entry) => String(entry).trim()).filter((entry) => entry !== ''))];
}

const relationsQuery = (parameter: string, relations: string[]) =>
	relations.length ? { [parameter]: relations.join(',') } : undefined;

/**
 * What a change of each kind can touch besides the record's own fields, fetched for Skip Unchanged
 * Records whatever Related Data says: a contact's address is written with it (spec section 2
 * "Customer"); a property's criteria and pictures are its own data (section 2 "Product"), and a
 * price drop is a criterion. Production's `fetch` values for them: the four criteria groups and the
 * photos (its lots have no `fetch` value).
 */
export const CHANGE_RELATIONS: Record<ResourceType, string[]> = {
	customer: ['address'],
	product: ['criteres_text', 'criteres_number', 'criteres_fulltext', 'criteres_flag', 'products_photos'],
};

/** Reference use case 2: the notification is thin, so the record itself is fetched. */
export async function fetchRecord(
	context: IWebhookFunctions,
	subject: IdentifiedSubject,
	relations: string[],
): Promise<IDataObject> {
	const { resourceType, resourceId } = subject;
	// Each delivery is a run of its own: the token of the last minute's deliveries saves this one a
	// credential read (a database read and a decryption, competing with a burst's acknowledgements).
	reuseRecentTokens(context);
	// Spec section 4: customers take `include`, products `fetch`, both comma-separated.
	const request =
		resourceType === 'customer'
			? requestOf('customer:get', { pathParams: { customerId: resourceId }, qs: relationsQuery('include', relations) })
			: requestOf('product:get', { pathParams: { productId: resourceId }, qs: relationsQuery('fetch', relations) });
	try {
		return responseData(await apiRequest(context, request)) as IDataObject;
	} catch (error) {
		const cause = error as NodeApiError;
		throw new NodeApiError(
			context.getNode(),
			{ message: cause.message },
			{
				message: `Could not fetch ${resourceType} ${String(resourceId)} named by the ${String(subject.eventType)} notification: ${cause.message}`,
				description: cause.description ?? undefined,
				httpCode: cause.httpCode ?? undefined,
			},
		);
	}
}
