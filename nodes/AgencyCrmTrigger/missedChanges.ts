import { DateTime } from 'luxon';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { PROPERTY_RECORD_EVENTS } from '../shared/events';
import { apiRequest, paginate, responseData } from '../shared/transport';
import { OFFSET_DATE_TIME_FORMAT, apiTimeOf } from '../shared/values';
import { changedPropertiesRequest, contactsRequest } from './api';

/**
 * What the catch-up looks for: the properties changed since a time (a search by `last_modified`,
 * production's recommended sync) and the contacts created above an id (the contact search lists
 * the newest first). Deleted properties and contact updates cannot be found.
 */

type SearchContext = IHookFunctions | IWebhookFunctions;

/** A change to replay, as Agency CRM would have delivered it. */
export interface Missed {
	event: string;
	id: number | string;
}

/** A record's id, by the key our records and production's use. */
const idOf = (record: IDataObject, ownKey: string) =>
	(record[ownKey] === undefined || record[ownKey] === null ? record.id : record[ownKey]) as number | string;

/** A time as production's `last_modified` filter takes it (`+00:00`). */
export const sinceText = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toFormat(OFFSET_DATE_TIME_FORMAT);

/**
 * The event a property changed since `sinceMs` is replayed as: PRODUCT_CREATE when it was created
 * since, else PRODUCT_UPDATE; when that event is not chosen, the other of the two (a property created
 * meanwhile is a change an update listener wants too), never PRODUCT_DELETE, whatever the order of
 * the events chosen. Undefined when neither is chosen.
 */
export function propertyReplayEvent(createdAt: unknown, sinceMs: number, events: string[]): string | undefined {
	const created = apiTimeOf(createdAt);
	const event = created !== undefined && created >= sinceMs ? 'PRODUCT_CREATE' : 'PRODUCT_UPDATE';
	if (events.includes(event)) return event;
	return PROPERTY_RECORD_EVENTS.find((other) => events.includes(other));
}

/** The properties changed since `sinceMs`, each with the event it is replayed as. */
export async function changedProperties(context: SearchContext, sinceMs: number, events: string[]) {
	const { request, pageSize } = changedPropertiesRequest(sinceText(sinceMs));
	const missed: Missed[] = [];
	for await (const page of paginate(context, request, 'cursor', undefined, pageSize)) {
		for (const record of page) {
			const event = propertyReplayEvent(record.created_at ?? record.createdAt, sinceMs, events);
			if (event) missed.push({ event, id: idOf(record, 'product_id') });
		}
	}
	return missed;
}

/** The contacts whose id is above `lastId`, newest first. */
export async function newContacts(context: SearchContext, lastId: number): Promise<Missed[]> {
	const missed: Missed[] = [];
	for await (const page of paginate(context, contactsRequest(), 'cursor')) {
		const newer = page.filter((record) => Number(idOf(record, 'customers_id')) > lastId);
		missed.push(...newer.map((record) => ({ event: 'CUSTOMER_CREATE', id: idOf(record, 'customers_id') })));
		if (newer.length < page.length) break;
	}
	return missed;
}

/** The newest contact's id: where the contacts to replay will start after a suspension. */
export async function newestContactId(context: IHookFunctions): Promise<number | undefined> {
	const page = responseData(await apiRequest(context, contactsRequest(1)));
	const newest = Array.isArray(page) ? (page[0] as IDataObject | undefined) : undefined;
	const id = newest ? Number(idOf(newest, 'customers_id')) : NaN;
	return Number.isFinite(id) ? id : undefined;
}
