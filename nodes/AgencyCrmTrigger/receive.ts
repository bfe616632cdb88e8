import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { ApiRequest } from '../shared/transport';
import { apiRequest, responseData, reuseRecentTokens } from '../shared/transport';
import type { Decision, Fetched, IdentifiedSubject } from './decision';
import { decide, keyOf, recordNeeded, remembers } from './decision';
import type { Settle } from './memory';
import { TriggerMemory, takeJournal } from './memory';
import type { Delivery } from './notification';
import { deliveryOf, recordRequest } from './notification';
import { isAuthentic, providedSecret } from './registration';
import { replay, workflowName } from './replay/catchUp';
import type { TriggerSettings } from './settings';
import { readSettings } from './settings';

/** Answered by the trigger, and no workflow started. */
const START_NOTHING: IWebhookResponseData = { noWebhookResponse: true };

/**
 * How long a workflow that answers (an Agency CRM Answer node) has, from the delivery's arrival:
 * production waits 10 s (spec section 8), and the answer must still cross the network.
 */
export const ANSWER_BUDGET_MS = 8000;

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** A delivery answered 200 at once, production's acknowledgement: its record is read after. */
const ACKNOWLEDGED = { received: true };

function answer(response: Response, status: number, body: IDataObject): IWebhookResponseData {
	if (!response.headersSent) response.status(status).json(body);
	return START_NOTHING;
}

/** A delivery refused before anything else: said in n8n's log, answered, nothing started. */
function refuse(context: IWebhookFunctions, status: number, error: string): IWebhookResponseData {
	context.logger.warn(`Agency CRM Trigger: a delivery to ${workflowName(context)} refused (${status}): ${error}.`);
	return answer(context.getResponseObject(), status, { error });
}

/**
 * n8n answers a workflow that answers once its Agency CRM Answer node (or its end) resolves it. When
 * the trigger answered first, in the workflow's place, those answers come too late: n8n's own send
 * would fail on an answer already sent and log an error, so the response takes no more writes.
 */
function answerInPlaceOfTheWorkflow(context: IWebhookFunctions): void {
	const response = context.getResponseObject();
	if (response.headersSent) return;
	response.status(200).json({ ...ACKNOWLEDGED, answered_by: 'trigger' });
	const ignored = () => response;
	Object.assign(response, {
		status: ignored,
		set: ignored,
		header: ignored,
		setHeader: ignored,
		json: ignored,
		send: ignored,
		end: ignored,
	});
	context.logger.warn(
		`Agency CRM Trigger: the workflow did not answer a delivery within ${ANSWER_BUDGET_MS / 1000} s: the trigger answered 200 in its place (Agency CRM waits 10 s).`,
	);
}

/**
 * Production's delivery is acknowledged as soon as it is authentic and understood, before its
 * record is read: nothing a slow, failing or throttled API does can make the answer late or
 * non-200 (each is one of production's strikes towards a silent suspension). A workflow that
 * answers itself has until the budget; then the trigger answers.
 */
function acknowledge(context: IWebhookFunctions, settings: TriggerSettings): void {
	if (!settings.answeredByWorkflow) {
		context.getResponseObject().status(200).json(ACKNOWLEDGED);
		return;
	}
	void sleep(ANSWER_BUDGET_MS).then(() => answerInPlaceOfTheWorkflow(context));
}

/**
 * One delivery: its secret and body checked, answered (a replay the trigger sent itself is
 * answered by n8n once it has stored its execution, so that the replay knows it was taken), its
 * record read when deciding needs it, with the action node's patience, the decision
 * (decision.ts), then what it says. A journal of the memory is written, and what falls due to
 * replay then, replayed in the background. Nothing here writes the static data: the memory writes
 * through journals (memory/scope.ts).
 */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const settings = readSettings(context);
	const url = context.getNodeWebhookUrl(context.getWebhookName() as 'default') as string;
	const secret = providedSecret(context);
	if (secret === undefined || !isAuthentic(context, url, secret)) {
		return refuse(context, 401, 'Missing or wrong webhook secret');
	}
	const now = Date.now();
	const delivery = deliveryOf(context.getBodyData(), now, context.getMode() === 'manual');
	if (delivery === undefined) return refuse(context, 400, 'The body is not a JSON notification');
	const due = takeJournal(context, delivery.notification, { url, secret });
	if (due) {
		const target = { url: context.getNodeWebhookUrl('default') as string, secret, events: settings.events };
		if (settings.catchUp && (due.window || due.owed.length)) void replay(context, target, due);
		// Answered by n8n once it has saved the static data the journal wrote.
		return { webhookResponse: ACKNOWLEDGED };
	}
	if (!delivery.replay) acknowledge(context, settings);
	const { subject } = delivery;
	// A live delivery is owed until taken; a replay is owed already, where it came from.
	const owed =
		delivery.replay || subject.eventType === undefined || subject.resourceId === undefined
			? undefined
			: { event: subject.eventType, id: subject.resourceId, at: now };
	const key = keyOf(delivery);
	const memory = remembers(settings, delivery) ? TriggerMemory.of(context, { url, secret, now, owed, key }) : undefined;
	const relations = recordNeeded(settings, delivery);
	const fetched: Fetched = relations
		? await fetchRecord(context, delivery.subject as IdentifiedSubject, relations)
		: { kind: 'notFetched' };
	const remembered = memory && key ? await memory.lastTaken(key) : undefined;
	const decision = decide(settings, remembered, delivery, fetched, Date.now());
	const settle = memory?.settled(decision, delivery.replay);
	return act(context, decision, delivery, settings, { memory, settle });
}

function isPassingFailure(status: number): boolean {
	return !Number.isInteger(status) || status >= 500 || status === 429;
}

/**
 * Reference use case 2: the notification is thin, so the record itself is read, with the related
 * data asked, with the action node's patience (the delivery was answered before). Every outcome is
 * returned, none thrown: what it means is the decision's.
 */
export async function fetchRecord(
	context: IWebhookFunctions,
	subject: IdentifiedSubject,
	relations: string[],
): Promise<Fetched> {
	const { resourceType, resourceId, eventType } = subject;
	// Each delivery is a run of its own: the token of the last minute's deliveries saves this one a
	// credential read (a database read and a decryption, competing with a burst's acknowledgements).
	reuseRecentTokens(context);
	let request: ApiRequest;
	try {
		request = recordRequest(subject, relations);
	} catch (error) {
		return { kind: 'unaddressable', message: (error as Error).message };
	}
	try {
		return { kind: 'found', record: responseData(await apiRequest(context, request)) as IDataObject };
	} catch (failure) {
		const cause = failure as NodeApiError;
		const status = Number(cause.httpCode);
		if (status === 404) return { kind: 'gone' };
		const message = `Could not fetch ${resourceType} ${String(resourceId)} named by the ${String(eventType)} notification: ${cause.message}`;
		const error = new NodeApiError(
			context.getNode(),
			{ message: cause.message },
			{ message, description: cause.description ?? undefined, httpCode: cause.httpCode ?? undefined },
		);
		return isPassingFailure(status) ? { kind: 'unavailable', message, error } : { kind: 'refused', error };
	}
}

/** What the delivery is, in the log: `CUSTOMER_UPDATE customer 5`. */
const described = ({ subject }: Delivery) =>
	`${String(subject.eventType)} ${String(subject.resourceType)} ${String(subject.resourceId)}`;

const DROPPED = {
	repeat: {
		unit: 'repeat(s)',
		said: 'repeats a delivery already taken (the record is unchanged since): nothing started',
	},
	unchanged: {
		unit: 'unchanged record(s)',
		said: 'is unchanged but for the fields to ignore (Skip Unchanged Records): nothing started',
	},
	gone: {
		unit: 'gone record(s)',
		said: 'names a record that is gone (Agency CRM answered 404; When the Record Is Gone: Start Nothing): nothing started',
	},
} as const;

/** The I/O a decision asks for. */
function act(
	context: IWebhookFunctions,
	decision: Decision,
	delivery: Delivery,
	settings: TriggerSettings,
	{ memory, settle }: { memory?: TriggerMemory; settle?: Settle },
): IWebhookResponseData {
	const response = context.getResponseObject();
	const replayed = delivery.replay;
	switch (decision.action) {
		case 'ignore':
			return answer(response, 200, {
				...ACKNOWLEDGED,
				started: false,
				reason: 'an event this trigger does not listen to',
			});
		case 'owe': {
			const owed = replayed
				? 'It stays owed.'
				: settings.catchUp
					? 'It is owed: replayed in a minute, else at the next activation.'
					: 'It is owed, and not replayed ("Catch Up on Missed Changes" is off).';
			context.logger.warn(`Agency CRM Trigger: ${described(delivery)} not taken: ${decision.message}. ${owed}`);
			// A replay tells its sender it was not taken; production had its 200.
			return answer(response, replayed ? 503 : 200, { ...ACKNOWLEDGED, started: false, reason: decision.message });
		}
		case 'refuse':
			// A refusal Agency CRM's retries would meet again: the delivery is taken, and the execution fails naming the record.
			answer(response, 200, ACKNOWLEDGED);
			throw decision.error;
		case 'drop': {
			const { unit, said } = DROPPED[decision.reason];
			const count = memory?.droppedCount(decision.reason) ?? 1;
			context.logger.info(
				`Agency CRM Trigger: ${described(delivery)} ${said} (${count} ${unit} dropped by this n8n process).`,
			);
			return answer(response, 200, { ...ACKNOWLEDGED, started: false, reason: decision.reason });
		}
		case 'start': {
			const workflowData = [[{ json: decision.item }]];
			if (replayed) {
				// n8n answers once it has stored the execution: a 5xx means it could not, and the replay stays owed.
				response.once('finish', () => settle?.settle(response.statusCode));
				response.once('close', () => settle?.settle(200));
				return { workflowData, webhookResponse: ACKNOWLEDGED };
			}
			if (settings.answeredByWorkflow) {
				decision.item.answer_by = new Date(Date.parse(delivery.receivedAt) + ANSWER_BUDGET_MS).toISOString();
				return { workflowData };
			}
			return { ...START_NOTHING, workflowData };
		}
	}
}
