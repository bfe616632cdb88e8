import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { CatchUpPart, CatchUpWindow } from './catchUpProgress';
import type { Registered } from './hookRegistration';
import type { JournalSender } from './journal';
import { JOURNAL_KEY, writeNow } from './journal';
import type { Missed } from './missedChanges';
import { scopeMemory, scopeName } from './processMemory';
import { changedProperties, newContacts, sinceText } from './missedChanges';
import { SECRET_HEADER } from './secret';

/**
 * The catch-up: what changed while Agency CRM could not deliver (n8n down, the hook suspended after
 * failed deliveries: production then drops the events, docs/assumptions.md), replayed at activation,
 * without polling. Each change goes to the trigger's own webhook as a delivery (in queue mode,
 * through the webhook processors): its record fetched, dropped when the workflow already took that
 * state. A part of the window (catchUpProgress.ts) is reported replayed, by a journal, only once all
 * its changes were answered: otherwise it stays owed, for the next activation or n8n start.
 */

/** An activation's context, or a delivery's when a catch-up owed is resumed after n8n's start (resume.ts). */
export type CatchUpContext = IHookFunctions | IWebhookFunctions;

/** Where replays go, with what secret, for which events: the hook an activation registered, or a delivery's. */
export type ReplayTarget = Pick<Registered, 'url' | 'secret' | 'events'>;

/** How long a replay waits for n8n to serve the webhook it is activating (404 or no answer until then). */
const SERVED_WITHIN_MS = 60_000;

/** Names the workflow in the log. */
export const workflowName = (context: CatchUpContext) =>
	`workflow "${context.getWorkflow().name ?? context.getWorkflow().id}"`;

/** n8n's answers that may pass: not serving the webhook yet (the activation is under way), or a passing failure. */
const NOT_YET = [404, 500, 502, 503, 504];

/** Sends one body to the trigger's own webhook, as Agency CRM would have, while n8n has not started serving it. */
async function sendToWebhook(context: CatchUpContext, registered: ReplayTarget, body: object): Promise<void> {
	const started = Date.now();
	let problem = '';
	for (;;) {
		try {
			const answer = (await context.helpers.httpRequest({
				method: 'POST',
				url: registered.url,
				headers: { [SECRET_HEADER]: registered.secret },
				body,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as { statusCode: number };
			if (answer.statusCode < 400) return;
			problem = `n8n answered ${answer.statusCode}`;
			if (!NOT_YET.includes(answer.statusCode)) break;
		} catch (error) {
			problem = (error as Error).message;
		}
		if (Date.now() - started > SERVED_WITHIN_MS) break;
		await sleep(2000);
	}
	throw new Error(problem);
}

/** What one part looks for, in the log's words, and how it finds its changes. */
function partOf(context: CatchUpContext, window: CatchUpWindow, part: CatchUpPart, events: string[]) {
	return part === 'properties'
		? {
				looked: `properties changed since ${sinceText(window.propertiesSince!)}`,
				find: async () => await changedProperties(context, window.propertiesSince!, events),
			}
		: {
				looked: `contacts created above ${window.contactsAbove}`,
				find: async () => await newContacts(context, window.contactsAbove!),
			};
}

const named = (changes: Missed[]) => changes.map((change) => `${change.event} ${change.id}`).join(', ');

/** What one part's attempt did, in the log's words, and whether all of it was replayed. */
interface PartOutcome {
	said: string;
	complete: boolean;
}

/** Replays one part of the window; reports it replayed (a journal) only when every change was answered. */
async function replayPart(
	context: CatchUpContext,
	registered: ReplayTarget,
	window: CatchUpWindow,
	part: CatchUpPart,
): Promise<PartOutcome> {
	const { looked, find } = partOf(context, window, part, registered.events);
	let missed: Missed[];
	try {
		missed = await find();
	} catch (error) {
		return { said: `${looked}: could not look (${(error as Error).message}), nothing replayed`, complete: false };
	}
	const replayed: Missed[] = [];
	const failed: string[] = [];
	// This process's memory: the replays it took itself (not a queue-mode processor's) are written at once.
	const scope = scopeMemory(scopeName(context));
	const send: JournalSender = async (journal) =>
		await sendToWebhook(context, registered, { [JOURNAL_KEY]: journal }).then(
			() => true,
			() => false,
		);
	for (const change of missed) {
		try {
			await sendToWebhook(context, registered, { event_type: change.event, resource_id: change.id, catch_up: true });
			replayed.push(change);
			await writeNow(scope, send);
		} catch (error) {
			failed.push(`${change.event} ${change.id} (${(error as Error).message})`);
		}
	}
	const done = `${looked}: replayed ${replayed.length}${replayed.length ? ` (${named(replayed)})` : ''}`;
	if (failed.length) return { said: `${done}, could not replay ${failed.join(', ')}`, complete: false };
	const ids = missed.map(({ id }) => Number(id)).filter(Number.isFinite);
	const lastContactId = part === 'contacts' ? Math.max(window.contactsAbove!, ...ids) : undefined;
	try {
		const replayedPart = { openedAt: window.openedAt, part, lastContactId };
		await sendToWebhook(context, registered, { [JOURNAL_KEY]: { replayed: replayedPart } });
		return { said: done, complete: true };
	} catch (error) {
		return { said: `${done}, but could not write that it did (${(error as Error).message})`, complete: false };
	}
}

/**
 * Replays the window's parts in turn, after the activation (n8n must first serve the webhook), and
 * says in the log what was replayed, what failed, and what will be tried again.
 */
export async function catchUp(
	context: CatchUpContext,
	registered: ReplayTarget,
	window: CatchUpWindow,
	resumed = false,
): Promise<void> {
	const workflow = workflowName(context);
	const why = window.reason === 'suspended' ? 'its webhook was suspended' : 'n8n started';
	const reason = resumed ? `${why}, resumed at a delivery after n8n's start` : why;
	await sleep(2000);
	const parts = (['properties', 'contacts'] as const).filter((part) =>
		part === 'properties' ? window.propertiesSince !== undefined : window.contactsAbove !== undefined,
	);
	const outcomes: PartOutcome[] = [];
	for (const part of parts) outcomes.push(await replayPart(context, registered, window, part));
	const said = `Agency CRM Trigger: catch-up of ${workflow} (${reason}, attempt ${window.attempts}): ${outcomes.map((outcome) => outcome.said).join('; ')}. What the workflow already took started nothing.`;
	if (outcomes.every((outcome) => outcome.complete)) context.logger.info(said);
	else
		context.logger.error(
			`${said} What was not replayed stays owed: the next activation or n8n start looks for it again, and what this attempt replayed then starts nothing.`,
		);
}
