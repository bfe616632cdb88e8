import type { IDataObject, IWebhookFunctions, IWebhookResponseData, NodeApiError } from 'n8n-workflow';

import type { IdentifiedSubject } from './delivery';
import {
	DELETE_EVENT,
	deliveryItem,
	fetchRecord,
	isCatchUp,
	isIdentified,
	isPassingFailure,
	nameList,
	normalisedEventType,
	notificationOf,
	providedSecret,
	secretMatches,
	subjectOf,
} from './delivery';
import type { DeliveryMemory, Seen } from './deliveryMemory';
import { ANY_EVENT, memoryOf, recordFingerprint } from './deliveryMemory';
import { ANSWERING_WEBHOOK, eventsOf, expectedSecretDigest, registrationOf } from './hookRegistration';
import { DEFAULT_CONTACT_COMPARED, DEFAULT_IGNORED_FIELDS, DEFAULT_PROPERTY_COMPARED } from './parameters';
import { productionFetches, productionIncludes } from '../shared/relations';

/** Answered by the trigger, and no workflow started. */
const START_NOTHING: IWebhookResponseData = { noWebhookResponse: true };

/** The state remembered of a deleted record, which its fetch cannot show. */
const DELETED_STATE = 'deleted';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * The workflow to start with this item, answered by n8n (once it has stored the execution, n8n 2.x)
 * with `{received: true}`. n8n reads that body after it started the execution and before it saves
 * the static data, the one moment the memory can mark the data changed again (deliveryMemory.ts,
 * `markChangedAgain`): so the body is a getter.
 */
function start(item: IDataObject, memory?: DeliveryMemory): IWebhookResponseData {
	const started: IWebhookResponseData = { workflowData: [[{ json: item }]] };
	return Object.defineProperty(started, 'webhookResponse', {
		enumerable: true,
		get: () => {
			memory?.markChangedAgain();
			return { received: true };
		},
	});
}

function acknowledge(response: Response, body: IDataObject): IWebhookResponseData {
	response.status(200).json(body);
	return START_NOTHING;
}

/** What the user chose for a delivery of this kind of record. */
interface Settings {
	fetchFull: boolean;
	skipUnchanged: boolean;
	dropRepeats: boolean;
	/** Related data fetched: the chosen ones, and those Skip Unchanged Records compares. */
	relations: string[];
	ignored: string[];
}

function settingsOf(context: IWebhookFunctions, subject: IdentifiedSubject): Settings {
	const parameter = <T>(name: string, fallback: T) => context.getNodeParameter(name, fallback) as T;
	const fetchFull = parameter('fetchFullRecord', true);
	const skipUnchanged = fetchFull && parameter('skipUnchangedRecords', false);
	const contact = subject.resourceType === 'customer';
	const given = fetchFull ? nameList(parameter(contact ? 'customerInclude' : 'productFetch', [])) : [];
	// Workflows saved by 0.1.0 ask for values production does not know (`fetch` criteria, `include` search_requests).
	const chosen = contact ? productionIncludes(given) : productionFetches(given);
	const compared = skipUnchanged
		? nameList(
				contact
					? parameter('contactCompared', DEFAULT_CONTACT_COMPARED)
					: parameter('productCompared', DEFAULT_PROPERTY_COMPARED),
			)
		: [];
	return {
		fetchFull,
		skipUnchanged,
		dropRepeats: parameter('dropRepeatedDeliveries', false),
		relations: nameList([...chosen, ...compared]),
		ignored: nameList(parameter('ignoredFields', DEFAULT_IGNORED_FIELDS)),
	};
}

/**
 * One delivery, from its check to the decision: the secret, the body, the event; the record fetched
 * when the output or the memory needs it; a repeat or an unchanged record answered and dropped; else
 * the workflow started, and answered by n8n once it has stored the execution (or by the workflow,
 * when it answers). The memory counts a started delivery only once n8n's answer says it succeeded.
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const response = context.getResponseObject();
	const url = context.getNodeWebhookUrl(context.getWebhookName() as 'default') as string;
	if (!secretMatches(expectedSecretDigest(registrationOf(context, url)), providedSecret(context))) {
		response.status(401).json({ error: 'Missing or wrong webhook secret' });
		return START_NOTHING;
	}
	const notification = notificationOf(context.getBodyData());
	if (notification === undefined) {
		response.status(400).json({ error: 'The body is not a JSON notification' });
		return START_NOTHING;
	}
	const subject = subjectOf(notification);
	const events = eventsOf(context).map(normalisedEventType);
	// The hook only carries the chosen events; an unknown or missing type is let through.
	if (subject.eventType !== undefined && !events.includes(subject.eventType))
		return acknowledge(response, {
			received: true,
			started: false,
			reason: 'an event this trigger does not listen to',
		});

	const item = deliveryItem(notification, subject, new Date().toISOString());
	if (!isIdentified(subject)) return start(item);
	const settings = settingsOf(context, subject);
	// "Listen for test event" remembers nothing: n8n saves no static data of test runs.
	const manual = context.getMode() === 'manual';
	const remembers = !manual && (settings.dropRepeats || settings.skipUnchanged);
	const memory = memoryOf(context);
	// n8n ends an answer the workflow gives early when the static data changed (it writes the data
	// first, and its response node's end comes before: n8n 1.123), so a delivery the workflow answers
	// changes none: its decision stays in this process, written with the next answer the trigger gives.
	const answeredByWorkflow = context.getWebhookName() === ANSWERING_WEBHOOK;
	/** Writes what this delivery teaches into the static data: the progress, and the memory (`own`: this delivery's key). */
	const keep = (own: string[]) => {
		if (manual) return;
		const contactId = subject.eventType === 'CUSTOMER_CREATE' ? Number(subject.resourceId) : NaN;
		memory.advance({ deliveredAt: Date.now(), lastContactId: Number.isFinite(contactId) ? contactId : undefined });
		if (remembers) memory.persist(own, settings.skipUnchanged);
		else memory.forget();
	};
	const deleted = subject.eventType === DELETE_EVENT;
	const what = `${String(subject.eventType)} ${subject.resourceType} ${String(subject.resourceId)}`;

	let record: IDataObject | null = null;
	let refusal: NodeApiError | undefined;
	if (settings.fetchFull || (remembers && !deleted)) {
		try {
			record = await fetchRecord(context, subject, settings.relations, deleted);
		} catch (error) {
			if (!isPassingFailure(error)) refusal = error as NodeApiError;
			else {
				const message = (error as Error).message;
				context.logger.warn(
					`Agency CRM Trigger: ${what} not taken: ${message}. Answered 503, so that Agency CRM sends it again.`,
				);
				response.status(503).json({ error: `${message}. Send the delivery again.` });
				return START_NOTHING;
			}
		}
		if (settings.fetchFull) item.record = record;
	}
	if (refusal) {
		// A refusal Agency CRM's retries would meet again: the delivery is taken, and the execution fails naming the record.
		response.status(200).json({ received: true });
		throw refusal;
	}
	if (!remembers) {
		if (!answeredByWorkflow) keep([]);
		return start(item, memory);
	}

	const key = `${subject.resourceType}:${String(subject.resourceId)}`;
	const event = String(subject.eventType);
	const replayed = isCatchUp(notification);
	const state = deleted ? DELETED_STATE : recordFingerprint(record, []);
	const compared = settings.skipUnchanged && !deleted ? recordFingerprint(record, settings.ignored) : undefined;
	const last = await memory.lastTaken(key);
	const sameState = last?.state === state;
	const taken = (seen: Seen | undefined) =>
		seen !== undefined && (replayed || seen.events.includes(event) || seen.events.includes(ANY_EVENT));
	if (settings.dropRepeats && sameState && taken(last)) {
		const count = memory.countDropped('repeats');
		keep([]);
		context.logger.info(
			`Agency CRM Trigger: ${what} repeats a delivery already taken (the record is unchanged since): answered, nothing started (${count} repeat(s) dropped by this n8n process).`,
		);
		return acknowledge(response, { received: true, started: false, reason: 'repeat' });
	}
	const eventTaken = replayed ? ANY_EVENT : event;
	const seen: Seen = {
		state,
		compared,
		events: sameState && last ? [...new Set([...last.events, eventTaken])] : [eventTaken],
		at: Date.now(),
	};
	if (compared !== undefined && last?.compared === compared) {
		memory.note(key, seen);
		const count = memory.countDropped('unchanged');
		keep([]);
		context.logger.info(
			`Agency CRM Trigger: ${what} is unchanged but for the fields to ignore (Skip Unchanged Records): answered, nothing started (${count} unchanged record(s) dropped by this n8n process).`,
		);
		return acknowledge(response, { received: true, started: false, reason: 'unchanged' });
	}
	const decision = memory.take(key, seen);
	// n8n answers once it has stored the execution; a 5xx means it could not, and Agency CRM sends it again.
	response.once('finish', () => decision.settle(response.statusCode));
	// The sender gave up before the answer (a late acknowledgement): n8n goes on, and stores the execution.
	response.once('close', () => decision.settle(200));
	if (!answeredByWorkflow) keep([key]);
	return start(item, memory);
}
