import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ReplayPlan } from '../memory';
import type { Journal } from '../memory/scope';
import type { OwedDelivery, ReplayWindow } from '../memory/store';
import { SECRET_HEADER } from '../registration';
import type { Missed } from './missedChanges';
import { MARGIN_MS, changedProperties, newContacts, sinceText } from './missedChanges';

/**
 * The replay: what the workflow has not taken, started now, without polling. A window (the changes
 * made from the watermark to an activation, or to n8n's start) is looked for by the searches the API
 * offers (missedChanges.ts); deliveries whose record could not be read are replayed one by one. Each
 * goes to the trigger's own webhook as a delivery marked `catch_up`, which n8n answers once it has
 * stored the execution (in queue mode, through the webhook processors): its record read, and
 * dropped when the workflow already took that state. The window is reported replayed (a journal),
 * and the watermark moves to its end, only once every change in it was answered: otherwise it stays
 * owed, for the next activation or n8n start.
 */

/** An activation's context, or a delivery's (n8n 2.x's start, a record not read). */
export type ReplayContext = IHookFunctions | IWebhookFunctions;

/** Where replays go (the trigger's webhook answered at once), with what secret, for which events. */
export interface ReplayTarget {
	url: string;
	secret: string;
	events: string[];
}

/** How much earlier than the trigger's first activation a replay still looks. */
const FOLLOWED_TOLERANCE_MS = 5000;

/** How long a replay waits for n8n to serve the webhook it is activating (404 or no answer until then). */
const SERVED_WITHIN_MS = 60_000;

/** n8n's answers that may pass: not serving the webhook yet (the activation is under way), or a passing failure. */
const NOT_YET = [404, 500, 502, 503, 504];

/** Names the workflow in the log. */
export const workflowName = (context: ReplayContext) =>
	`workflow "${context.getWorkflow().name ?? context.getWorkflow().id}"`;

/** Sends one body to the trigger's own webhook, as Agency CRM would have, while n8n has not started serving it. */
async function sendToWebhook(context: ReplayContext, target: ReplayTarget, body: object): Promise<void> {
	const started = Date.now();
	let problem = '';
	for (;;) {
		try {
			const answer = (await context.helpers.httpRequest({
				method: 'POST',
				url: target.url,
				headers: { [SECRET_HEADER]: target.secret },
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

const isoOf = (ms: number) => new Date(ms).toISOString();
const named = (changes: Missed[]) => changes.map((change) => `${change.event} ${change.id}`).join(', ');

/**
 * The window's changes, found by the searches for the events chosen, from its start less the
 * margin, but never before the trigger followed (less the CRM's timestamps in whole seconds, and a
 * clock a few seconds off); what could not be looked for, said.
 */
async function windowChanges(context: ReplayContext, window: ReplayWindow, events: string[]) {
	const since = Math.max(window.since - MARGIN_MS, (window.followedFrom ?? -Infinity) - FOLLOWED_TOLERANCE_MS);
	const found: Missed[] = [];
	const said: string[] = [];
	let complete = true;
	for (const [looked, find] of [
		['properties changed', changedProperties],
		['contacts created', newContacts],
	] as const) {
		try {
			const changes = await find(context, since, events);
			if (changes === undefined) continue;
			found.push(...changes);
			said.push(`${looked} since ${sinceText(since)}: ${changes.length}`);
		} catch (error) {
			complete = false;
			said.push(`${looked}: could not look (${(error as Error).message})`);
		}
	}
	return { found, said, complete };
}

/** Replays each change in turn, writing what the process took before the next (n8n may stop meanwhile). */
async function replayEach(context: ReplayContext, target: ReplayTarget, changes: Missed[], plan: ReplayPlan) {
	const { window, write } = plan;
	const covered = window && { since: isoOf(window.since), until: isoOf(window.until) };
	const replayed: Missed[] = [];
	const failed: string[] = [];
	for (const change of changes) {
		// A delivery owed is replayed alone; a change the searches found says the window it was found in.
		const found = covered && !plan.owed.includes(change as OwedDelivery);
		try {
			await sendToWebhook(context, target, {
				event_type: change.event,
				resource_id: change.id,
				catch_up: true,
				...(found ? { window: covered } : {}),
			});
			replayed.push(change);
			await write();
		} catch (error) {
			failed.push(`${change.event} ${change.id} (${(error as Error).message})`);
		}
	}
	return { replayed, failed };
}

/**
 * Replays a plan, once its delay has passed, and says in n8n's log what was looked for, replayed,
 * failed, and what will be tried again. A window counts as replayed only when every change found in
 * it was answered; an owed delivery, once it was.
 */
export async function replay(context: ReplayContext, target: ReplayTarget, plan: ReplayPlan): Promise<void> {
	await sleep(plan.delayMs);
	const { window, owed } = plan;
	const searched = window
		? await windowChanges(context, window, target.events)
		: { found: [], said: [], complete: true };
	// A change owed and found again by the search is replayed once.
	const changes = [...owed, ...searched.found.filter((change) => !owed.some((delivery) => same(delivery, change)))];
	const { replayed, failed } = await replayEach(context, target, changes, plan);
	const journal: Journal = { settled: owed.filter((delivery) => replayed.includes(delivery)) };
	if (window && searched.complete && !failed.length) journal.replayedUntil = window.until;
	const written = await plan.write(journal);
	const said = [
		...searched.said,
		owed.length ? `deliveries owed (their record not read, or n8n stopped while reading it): ${owed.length}` : '',
		`replayed ${replayed.length}${replayed.length ? ` (${named(replayed)})` : ''}`,
		failed.length ? `could not replay ${failed.join(', ')}` : '',
		written ? '' : 'could not write that it did',
	].filter(Boolean);
	const unfindable = window ? ' Contact updates and deleted properties made meanwhile cannot be found again.' : '';
	const summary = `Agency CRM Trigger: replay of ${workflowName(context)} (${plan.why}): ${said.join('; ')}. What the workflow had already taken started nothing.${unfindable}`;
	if (written && !failed.length && (!window || searched.complete)) context.logger.info(summary);
	else
		context.logger.error(
			`${summary} What was not replayed stays owed: the next activation (or n8n's next start) replays it, and what was replayed then starts nothing.`,
		);
}

const same = (a: Missed, b: Missed) => a.event === b.event && String(a.id) === String(b.id);
