import { DateTime } from 'luxon';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { PROPERTY_RECORD_EVENTS } from '../../shared/events';
import { paginate } from '../../shared/transport';
import { OFFSET_DATE_TIME_FORMAT, apiTimeOf } from '../../shared/values';
import { changedPropertiesRequest, contactsRequest } from '../api';

/**
 * What a replay looks for: the properties changed since a time (a search by `last_modified`,
 * production's recommended sync) and the contacts created since (the contact search lists the
 * newest first, each with its creation time). Deleted properties and contact updates cannot be
 * found: the API offers no search for them (docs/trigger.md).
 */

type SearchContext = IHookFunctions | IWebhookFunctions;

/** A change to replay, as Agency CRM would have delivered it. */
export interface Missed {
	event: string;
	id: number | string;
}

/**
 * How much earlier than the watermark a replay looks: the CRM's clock and n8n's may differ, and
 * another n8n process may still have been reading a record when this one wrote the watermark (a
 * read's patience is 5 minutes at most: docs/reliability.md).
 */
export const MARGIN_MS = 15 * 60_000;

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

/** The properties changed since `since` (ms), each with the event it is replayed as; undefined when no property event is chosen. */
export async function changedProperties(context: SearchContext, since: number, events: string[]) {
	if (!events.some((event) => PROPERTY_RECORD_EVENTS.includes(event))) return undefined;
	const { request, pageSize } = changedPropertiesRequest(sinceText(since));
	const missed: Missed[] = [];
	for await (const page of paginate(context, request, 'cursor', undefined, pageSize)) {
		for (const record of page) {
			const event = propertyReplayEvent(record.created_at ?? record.createdAt, since, events)!;
			missed.push({ event, id: idOf(record, 'product_id') });
		}
	}
	return missed;
}

/**
 * The contacts created since `since` (ms), newest first; undefined when Contact Created is not
 * chosen. The search goes from the newest down to the first contact created before, or whose
 * creation time cannot be read.
 */
export async function newContacts(context: SearchContext, since: number, events: string[]) {
	if (!events.includes('CUSTOMER_CREATE')) return undefined;
	const missed: Missed[] = [];
	for await (const page of paginate(context, contactsRequest(), 'cursor')) {
		const newer = page.filter((record) => (apiTimeOf(record.created_at ?? record.createdAt) ?? -Infinity) >= since);
		missed.push(...newer.map((record) => ({ event: 'CUSTOMER_CREATE', id: idOf(record, 'customers_id') })));
		if (newer.length < page.length) break;
	}
	return missed;
}
