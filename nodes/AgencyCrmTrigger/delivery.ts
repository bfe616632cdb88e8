import { timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, responseData } from '../shared/transport';
import { SECRET_HEADER } from './hookRegistration';

/** Constant-time comparison, so that the secret cannot be guessed from response times. */
export function secretMatches(expected: string | undefined, provided: unknown): boolean {
	if (!expected || typeof provided !== 'string') return false;
	const a = Buffer.from(expected);
	const b = Buffer.from(provided);
	return a.length === b.length && timingSafeEqual(a, b);
}

export function providedSecret(context: IWebhookFunctions): unknown {
	return context.getHeaderData()[SECRET_HEADER];
}

/** A notification (docs/assumptions.md: event_type, resource_type, resource_id, delivery_id…). */
export interface Notification extends IDataObject {
	event_type?: string;
	resource_type?: string;
	resource_id?: number | string;
	delivery_id?: string;
}

export function resourceTypeOf(notification: Notification): 'customer' | 'product' | undefined {
	const type =
		notification.resource_type ??
		String(notification.event_type ?? '')
			.split('_')[0]
			.toLowerCase();
	return type === 'customer' || type === 'product' ? type : undefined;
}

/** The output item: what happened, to what, when it arrived, and the raw notification. */
export function deliveryItem(notification: Notification, receivedAt: string): IDataObject {
	return {
		event_type: notification.event_type,
		resource_type: resourceTypeOf(notification),
		resource_id: notification.resource_id,
		delivery_id: notification.delivery_id,
		received_at: receivedAt,
		notification,
	};
}

/** Reference use case 2: the notification is thin, so the record itself is fetched. */
export async function fetchRecord(context: IWebhookFunctions, notification: Notification): Promise<IDataObject> {
	const type = resourceTypeOf(notification);
	const id = notification.resource_id;
	if (id === undefined || id === null || id === '') {
		throw new NodeApiError(
			context.getNode(),
			{ message: 'No resource id' },
			{
				message: `The ${String(notification.event_type)} notification carries no resource_id, so the ${type} cannot be fetched`,
				description: `Delivery ${String(notification.delivery_id ?? '(no delivery_id)')}. Turn off "Fetch Full Record" to receive the notification alone.`,
			},
		);
	}
	const path =
		type === 'customer'
			? `/customers/${encodeURIComponent(String(id))}`
			: `/products/${encodeURIComponent(String(id))}`;
	try {
		return responseData(await apiRequest(context, { method: 'GET', path, idempotent: true })) as IDataObject;
	} catch (error) {
		const cause = error as NodeApiError;
		throw new NodeApiError(
			context.getNode(),
			{ message: cause.message },
			{
				message: `Could not fetch ${type} ${String(id)} named by the ${String(notification.event_type)} notification: ${cause.message}`,
				description: cause.description ?? undefined,
				httpCode: cause.httpCode ?? undefined,
			},
		);
	}
}
