import { createHash } from 'crypto';
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import type { Seen } from './memory/store';
import { ANY_EVENT, recordKey } from './memory/store';
import type { Delivery, ResourceType, Subject } from './notification';
import type { TriggerSettings } from './settings';

/**
 * What a delivery leads to, decided from what the user chose, what the memory holds for its record,
 * the delivery and the record read: no I/O here (receive.ts does it around), so that every input can
 * be generated and the decision checked against a model of production's deliveries
 * (test/unit/trigger/decisionModel.test.ts).
 */

/** The value with object keys sorted and the ignored field names removed at every depth. */
function comparable(value: unknown, ignored: Set<string>): unknown {
	if (Array.isArray(value)) return value.map((entry) => comparable(entry, ignored));
	if (typeof value !== 'object' || value === null) return value;
	const object = value as IDataObject;
	return Object.fromEntries(
		Object.keys(object)
			.filter((name) => !ignored.has(name))
			.sort()
			.map((name) => [name, comparable(object[name], ignored)]),
	);
}

/**
 * A short digest of the record without the ignored fields (132 bits of SHA-256: a collision, which
 * would hide a change, is out of reach), so the memory stays small whatever the record's size. Key
 * order is no change.
 */
export function recordFingerprint(record: unknown, ignoredFields: string[]): string {
	const text = JSON.stringify(comparable(record, new Set(ignoredFields))) ?? 'undefined';
	return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** The state remembered of a record that no longer exists, which its read cannot show. */
export const GONE_STATE = 'deleted';

/**
 * How long after a state was taken a delivery of it is a repeat: production sends again only a
 * delivery whose answer it did not get, 3 times with growing delay (docs/assumptions.md); the
 * evidence gives no delays, and the sandbox's guess (10 s, 1 min, 5 min, each after a 10 s wait)
 * ends 6 min 20 s after the first attempt. Past this, the same state delivered again is a change
 * the record read does not show (a follow-up, an action), and starts the workflow.
 */
export const REPEAT_HORIZON_MS = 15 * 60_000;

/** What reading a delivery's record gave: the decision (decision.ts) takes each. */
export type Fetched =
	| { kind: 'notFetched' }
	| { kind: 'found'; record: IDataObject }
	/** The API answered 404: the record was deleted (PRODUCT_DELETE expects it). */
	| { kind: 'gone' }
	/** The id names no record a request can address (`../x`): nothing was sent. */
	| { kind: 'unaddressable'; message: string }
	/** No answer, a 5xx, 429s beyond the node's patience: it may work later. */
	| { kind: 'unavailable'; message: string; error: NodeApiError }
	/** Any other refusal (a missing right's 403…): Agency CRM's retries would meet it again. */
	| { kind: 'refused'; error: NodeApiError };

/** A subject whose record can be fetched. */
export type IdentifiedSubject = Subject & { resourceType: ResourceType; resourceId: string | number };

export function isIdentified(subject: Subject): subject is IdentifiedSubject {
	return subject.resourceType !== undefined && subject.resourceId !== undefined;
}

/** Production's event for a listing deleted: its record is gone, and only its id comes. */
export const DELETE_EVENT = 'PRODUCT_DELETE';

/**
 * The output item: what happened, to what, when it arrived, and the raw notification. When the
 * notification names no resource the spec's way or ours, `identified` is false and `warning`
 * says why, so that nothing is lost silently. A deleted record says so (`deleted`); a replay of a
 * change Agency CRM could not deliver says so (`caught_up`).
 */
function deliveryItem({ notification, subject, receivedAt, replay }: Delivery): IDataObject {
	const item: IDataObject = {
		event_type: subject.eventType ?? null,
		resource_type: subject.resourceType ?? null,
		resource_id: subject.resourceId ?? null,
		identified: isIdentified(subject),
		received_at: receivedAt,
		notification,
	};
	if (subject.eventType === DELETE_EVENT) item.deleted = true;
	if (replay) {
		item.caught_up = true;
		// The window the replay looked in, when it came from one (a delivery owed is replayed alone).
		if (typeof notification.window === 'object' && notification.window !== null)
			item.caught_up_window = notification.window;
	}
	if (!isIdentified(subject)) {
		item.warning =
			'The notification names no customer or product the trigger can recognise (looked for resource_type or ' +
			'event_type, and resource_id, customers_id, product_id or id), so no record was fetched. See "notification".';
	}
	return item;
}

/** A state the workflow takes, under its record's key. */
export interface Taken {
	key: string;
	seen: Seen;
}

export type Decision =
	/** An event this trigger does not listen to: answered 200, nothing started. */
	| { action: 'ignore' }
	/** The workflow starts with this item; `take`, when remembered, counts once n8n answered a success. */
	| { action: 'start'; item: IDataObject; take?: Taken }
	/** Answered 200, nothing started; `note`: a state taken at once (unchanged but for ignored fields; a repeat seen again). */
	| { action: 'drop'; reason: 'repeat' | 'unchanged' | 'gone'; note?: Taken }
	/** The record could not be read past the patience of a read: nothing started, the delivery owed (the memory keeps it). */
	| { action: 'owe'; message: string }
	/** The API refused the read: taken, and the execution fails naming the record. */
	| { action: 'refuse'; error: NodeApiError };

/** Whether the delivery's memory counts: one of the options that need it is on, outside test listening. */
export const remembers = (settings: TriggerSettings, delivery: Delivery) =>
	!delivery.test && (settings.dropRepeats || settings.skipUnchanged);

/** The hook carries only the chosen events; an unknown or missing type is let through. */
const listens = (settings: TriggerSettings, { subject }: Delivery) =>
	subject.eventType === undefined || settings.events.includes(subject.eventType);

/** What the decision needs read: nothing (an event not listened to, or nothing to fetch), or the record with these relations. */
export function recordNeeded(settings: TriggerSettings, delivery: Delivery): string[] | undefined {
	const { subject } = delivery;
	if (!listens(settings, delivery) || !isIdentified(subject)) return undefined;
	const deleted = subject.eventType === DELETE_EVENT;
	if (!settings.fetchFull && !(remembers(settings, delivery) && !deleted)) return undefined;
	return settings.relations[subject.resourceType];
}

/** The memory key of the delivery's record, when it names one. */
export const keyOf = ({ subject }: Delivery) =>
	isIdentified(subject) ? recordKey(subject.resourceType, subject.resourceId) : undefined;

/** The output item: the notification read, and the record (null when gone) with Fetch Full Record. */
function itemOf(settings: TriggerSettings, delivery: Delivery, fetched: Fetched): IDataObject {
	const { subject } = delivery;
	const item = deliveryItem(delivery);
	if (settings.fetchFull && isIdentified(subject)) item.record = fetched.kind === 'found' ? fetched.record : null;
	if (fetched.kind === 'gone' && subject.eventType !== DELETE_EVENT) {
		item.gone = true;
		item.warning = `Agency CRM answered 404 for ${String(subject.resourceType)} ${String(subject.resourceId)}: it was deleted after this change was sent.`;
	}
	return item;
}

/**
 * What Skip Unchanged Records compares: the record without the fields to ignore. A record gone is
 * compared as gone, so that a retry of its delivery is unchanged (found by the generator:
 * test/unit/trigger/decisionModel.test.ts).
 */
function comparedOf(settings: TriggerSettings, gone: boolean, record: IDataObject | null): string | undefined {
	if (!settings.skipUnchanged) return undefined;
	return gone ? GONE_STATE : recordFingerprint(record, settings.ignored);
}

/**
 * Whether a delivery of the state the workflow took is production sending it again: the same event
 * (any, after a replay took the state), within the horizon of production's retries of the last
 * delivery of that state.
 */
const repeats = (remembered: Seen, event: string, now: number) =>
	(remembered.events.includes(event) || remembered.events.includes(ANY_EVENT)) &&
	now - remembered.at < REPEAT_HORIZON_MS;

/**
 * The decision. A repeat is a state the workflow already took: delivered again under the same
 * event within the horizon of production's retries, or replayed (a replay looks for changes, and a
 * state taken is no change). An unchanged record (Skip Unchanged Records) is the last state taken
 * but for the fields to ignore. Whatever the memory cannot tell starts the workflow.
 */
export function decide(
	settings: TriggerSettings,
	remembered: Seen | undefined,
	delivery: Delivery,
	fetched: Fetched,
	now: number,
): Decision {
	if (!listens(settings, delivery)) return { action: 'ignore' };
	if (fetched.kind === 'unavailable') {
		// Without a memory nothing could be replayed: the execution fails naming the record, not a silent loss.
		return remembers(settings, delivery)
			? { action: 'owe', message: fetched.message }
			: { action: 'refuse', error: fetched.error };
	}
	if (fetched.kind === 'refused') return { action: 'refuse', error: fetched.error };
	if (fetched.kind === 'unaddressable') {
		const item = deliveryItem(delivery);
		return { action: 'start', item: { ...item, warning: `The record named could not be read: ${fetched.message}.` } };
	}
	const deleted = delivery.subject.eventType === DELETE_EVENT;
	if (fetched.kind === 'gone' && !deleted && settings.skipGone) return { action: 'drop', reason: 'gone' };
	const item = itemOf(settings, delivery, fetched);
	const key = keyOf(delivery);
	if (key === undefined || !remembers(settings, delivery)) return { action: 'start', item };

	const record = fetched.kind === 'found' ? fetched.record : null;
	const gone = deleted || fetched.kind === 'gone';
	const state = gone ? GONE_STATE : recordFingerprint(record, []);
	const compared = comparedOf(settings, gone, record);
	const event = String(delivery.subject.eventType);
	const { replay } = delivery;
	const sameState = remembered?.state === state;
	if (settings.dropRepeats && remembered && sameState && (replay || repeats(remembered, event, now))) {
		// Seen again: the horizon runs from this delivery, so that a retry schedule longer than thought still repeats.
		return { action: 'drop', reason: 'repeat', note: { key, seen: { ...remembered, at: now } } };
	}

	const events = replay ? [ANY_EVENT] : [event];
	const seen: Seen = {
		state,
		compared,
		events: sameState && remembered ? [...new Set([...remembered.events, ...events])] : events,
		at: now,
	};
	if (compared !== undefined && remembered?.compared === compared) {
		return { action: 'drop', reason: 'unchanged', note: { key, seen } };
	}
	return { action: 'start', item, take: { key, seen } };
}
