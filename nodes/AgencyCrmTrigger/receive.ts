import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { progressOf } from './catchUpProgress';
import type { Decision, Delivery } from './decision';
import { decide, keyOf, recordNeeded, remembers } from './decision';
import { DeliveryMemory } from './deliveryMemory';
import { expectedSecretDigest, registrationOf } from './hookRegistration';
import type { Journal } from './journal';
import { applyJournal, journalOf, journalSender, writeSoon } from './journal';
import type { IdentifiedSubject } from './notification';
import { notificationOf, subjectOf } from './notification';
import type { Dropped, ScopeMemory } from './processMemory';
import { scopeMemory, scopeName } from './processMemory';
import type { Fetched } from './recordFetch';
import { fetchRecord } from './recordFetch';
import { providedSecret, secretMatches } from './secret';
import { readSettings } from './settings';
import { resumeOwedCatchUp } from './resume';

/** Answered by the trigger, and no workflow started. */
const START_NOTHING: IWebhookResponseData = { noWebhookResponse: true };

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

function answer(response: Response, status: number, body: IDataObject): IWebhookResponseData {
	response.status(status).json(body);
	return START_NOTHING;
}

/** A journal (journal.ts): written into the static data, which n8n saves once the trigger has answered. */
function takeJournal(context: IWebhookFunctions, journal: Journal): IWebhookResponseData {
	applyJournal(context.getWorkflowStaticData('node'), journal);
	return answer(context.getResponseObject(), 200, { received: true, started: false, reason: 'journal' });
}

/** This process's memory of the trigger, and the journal that writes what it learns. */
function memoryFor(context: IWebhookFunctions, url: string, secret: string) {
	const scope = scopeMemory(scopeName(context));
	const send = journalSender(context.helpers, url, secret);
	const write = () => writeSoon(scope, send, context.logger);
	return { scope, write, memory: new DeliveryMemory(context.getWorkflowStaticData('node'), scope, write) };
}

/** Deliveries came: how far, for the catch-up (the last time, the highest contact created), written soon. */
function follow(context: IWebhookFunctions, scope: ScopeMemory, delivery: Delivery, write: () => void) {
	const { eventType, resourceId } = delivery.subject;
	const contactId = eventType === 'CUSTOMER_CREATE' ? Number(resourceId) : NaN;
	const moved = scope.advance(
		{ deliveredAt: Date.now(), lastContactId: Number.isFinite(contactId) ? contactId : undefined },
		progressOf(context.getWorkflowStaticData('node')),
	);
	if (moved) write();
}

/**
 * One delivery: its secret and body checked, the record read when deciding needs it, the decision
 * (decision.ts), then what it says: an answer, or the workflow started and answered by n8n once it
 * has stored the execution (or by the workflow, when it answers). Nothing here writes the static
 * data, whose write n8n would make the answer wait for: a journal does, soon after (journal.ts).
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const response = context.getResponseObject();
	const url = context.getNodeWebhookUrl(context.getWebhookName() as 'default') as string;
	const secret = providedSecret(context);
	if (!secretMatches(expectedSecretDigest(registrationOf(context, url)), secret)) {
		return answer(response, 401, { error: 'Missing or wrong webhook secret' });
	}
	const notification = notificationOf(context.getBodyData());
	if (notification === undefined) return answer(response, 400, { error: 'The body is not a JSON notification' });
	const journal = journalOf(notification);
	if (journal) return takeJournal(context, journal);

	const settings = readSettings(context);
	const subject = subjectOf(notification);
	const delivery: Delivery = {
		notification,
		subject,
		receivedAt: new Date().toISOString(),
		test: context.getMode() === 'manual',
	};
	const relations = recordNeeded(settings, delivery);
	const remembering = remembers(settings, delivery) ? memoryFor(context, url, secret as string) : undefined;
	const key = keyOf(delivery);
	// Both read what is there now, and the answer waits on both: side by side, not one after the other.
	const [fetched, remembered] = await Promise.all([
		relations ? fetchRecord(context, subject as IdentifiedSubject, relations) : ({ kind: 'notFetched' } as Fetched),
		remembering && key ? remembering.memory.lastTaken(key) : undefined,
	]);
	const decision = decide(settings, remembered, delivery, fetched, Date.now());
	if (remembering && settings.catchUp && (decision.action === 'start' || decision.action === 'drop')) {
		follow(context, remembering.scope, delivery, remembering.write);
		resumeOwedCatchUp(context, { url, secret: secret as string, events: settings.events });
	}
	return act(context, decision, delivery, remembering?.memory);
}

/** What the delivery is, in the log: `CUSTOMER_UPDATE customer 5`. */
const described = ({ subject }: Delivery) =>
	`${String(subject.eventType)} ${String(subject.resourceType)} ${String(subject.resourceId)}`;

const DROPPED: Record<'repeat' | 'unchanged' | 'gone', { counted: Dropped; unit: string; said: string }> = {
	repeat: {
		counted: 'repeats',
		unit: 'repeat(s)',
		said: 'repeats a delivery already taken (the record is unchanged since): answered, nothing started',
	},
	unchanged: {
		counted: 'unchanged',
		unit: 'unchanged record(s)',
		said: 'is unchanged but for the fields to ignore (Skip Unchanged Records): answered, nothing started',
	},
	gone: {
		counted: 'gone',
		unit: 'gone record(s)',
		said: 'names a record that is gone (Agency CRM answered 404; When the Record Is Gone: Start Nothing): answered, nothing started',
	},
};

/** The I/O a decision asks for. */
function act(
	context: IWebhookFunctions,
	decision: Decision,
	delivery: Delivery,
	memory: DeliveryMemory | undefined,
): IWebhookResponseData {
	const response = context.getResponseObject();
	switch (decision.action) {
		case 'ignore':
			return answer(response, 200, {
				received: true,
				started: false,
				reason: 'an event this trigger does not listen to',
			});
		case 'retry':
			context.logger.warn(
				`Agency CRM Trigger: ${described(delivery)} not taken: ${decision.message}. Answered 503, so that Agency CRM sends it again.`,
			);
			return answer(response, 503, { error: `${decision.message}. Send the delivery again.` });
		case 'refuse':
			// A refusal Agency CRM's retries would meet again: the delivery is taken, and the execution fails naming the record.
			response.status(200).json({ received: true });
			throw decision.error;
		case 'drop': {
			if (decision.note) memory?.note(decision.note.key, decision.note.seen);
			const { counted, unit, said } = DROPPED[decision.reason];
			const count = ++scopeMemory(scopeName(context)).dropped[counted];
			context.logger.info(
				`Agency CRM Trigger: ${described(delivery)} ${said} (${count} ${unit} dropped by this n8n process).`,
			);
			return answer(response, 200, { received: true, started: false, reason: decision.reason });
		}
		case 'start': {
			if (decision.take && memory) {
				const decided = memory.take(decision.take.key, decision.take.seen);
				// n8n answers once it has stored the execution; a 5xx means it could not, and Agency CRM sends it again.
				response.once('finish', () => decided.settle(response.statusCode));
				// The sender gave up before the answer (a late acknowledgement): n8n goes on, and stores the execution.
				response.once('close', () => decided.settle(200));
			}
			return { workflowData: [[{ json: decision.item }]], webhookResponse: { received: true } };
		}
	}
}
