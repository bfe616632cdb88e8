import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { recordFingerprint } from './fingerprint';
import type { Seen } from './memoryStore';
import { ANY_EVENT, recordKey } from './memoryStore';
import type { Notification, Subject } from './notification';
import { DELETE_EVENT, deliveryItem, isCatchUp, isIdentified } from './notification';
import type { Fetched } from './recordFetch';
import type { TriggerSettings } from './settings';

/**
 * What a delivery leads to, decided from what the user chose, what the memory holds for its record,
 * the delivery and the record read: no I/O here (receive.ts does it around), so that every input can
 * be generated and the decision checked against a model of production's deliveries
 * (test/unit/trigger/decisionModel.test.ts).
 */

/** The state remembered of a record that no longer exists, which its read cannot show. */
export const GONE_STATE = 'deleted';

/** One delivery as the decision reads it. */
export interface Delivery {
	notification: Notification;
	subject: Subject;
	receivedAt: string;
	/** "Listen for test event": nothing is remembered (n8n saves no static data of test runs). */
	test: boolean;
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
	/** Answered 200, nothing started; `note`: a state taken at once (unchanged but for ignored fields). */
	| { action: 'drop'; reason: 'repeat' | 'unchanged' | 'gone'; note?: Taken }
	/** The record could not be read for a while: answered 503, so that Agency CRM sends it again. */
	| { action: 'retry'; message: string }
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
	const { notification, subject, receivedAt } = delivery;
	const item = deliveryItem(notification, subject, receivedAt);
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
 * The decision. A repeat is the same event for a record in the state the workflow already took
 * (any event after a catch-up replay took it); an unchanged record (Skip Unchanged Records) is the
 * last state taken but for the fields to ignore. Whatever the memory cannot tell starts the workflow.
 */
export function decide(
	settings: TriggerSettings,
	remembered: Seen | undefined,
	delivery: Delivery,
	fetched: Fetched,
	now: number,
): Decision {
	if (!listens(settings, delivery)) return { action: 'ignore' };
	if (fetched.kind === 'unavailable') return { action: 'retry', message: fetched.message };
	if (fetched.kind === 'refused') return { action: 'refuse', error: fetched.error };
	if (fetched.kind === 'unaddressable') {
		const item = deliveryItem(delivery.notification, delivery.subject, delivery.receivedAt);
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
	const replay = isCatchUp(delivery.notification);
	const sameState = remembered?.state === state;
	const eventTaken =
		remembered !== undefined && (replay || remembered.events.includes(event) || remembered.events.includes(ANY_EVENT));
	if (settings.dropRepeats && sameState && eventTaken) return { action: 'drop', reason: 'repeat' };

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
