import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { toOffsetDateTime } from '../AgencyCrm/catalogue/convert';
import { requestOf } from '../AgencyCrm/catalogue/requests';
import { isAbsent } from '../AgencyCrm/catalogue/rules';
import { PROPERTY_RECORD_EVENTS } from '../shared/events';
import { apiRequest, paginate, responseData } from '../shared/transport';
import { DELETE_EVENT, normalisedEventType } from './delivery';
import type { Progress } from './deliveryMemory';
import { memoryOf } from './deliveryMemory';
import type { Registered } from './hookRegistration';
import { SECRET_HEADER } from './hookRegistration';

/**
 * The catch-up: what changed while Agency CRM could not deliver (n8n down, the hook suspended after
 * failed deliveries: production then drops the events, docs/assumptions.md), replayed once, at
 * activation, without polling. Production's recommended sync does the same: a pass by
 * `last_modified` for what a suspension or downtime lost. Properties come from a search by
 * `last_modified`, new contacts from the contact search (newest first) down to the last id a
 * delivery named. Each change is replayed as a delivery to the trigger's own webhook, so that it
 * goes the way a delivery goes (in queue mode, through the webhook processors): its record fetched,
 * and dropped when the workflow already took that state.
 */

/** Changes this long before the last delivery are looked for too: the CRM's clock and n8n's may differ. */
const MARGIN_MS = 15 * 60_000;
/** How long a replay waits for n8n to serve the webhook it is activating (404 or no answer until then). */
const SERVED_WITHIN_MS = 60_000;
/** Properties per page of the search (production serves at most 100, evidence). */
const PROPERTY_PAGE = 100;

interface Missed {
	event: string;
	id: number | string;
}

/** A record's id, by the key our records and production's use. */
const idOf = (record: IDataObject, ownKey: string) =>
	(isAbsent(record[ownKey]) ? record.id : record[ownKey]) as number | string;

/** A time as production's `last_modified` filter takes it (`+00:00`). */
const since = (ms: number) =>
	(toOffsetDateTime(new Date(ms).toISOString(), { timezone: 'UTC' }) as { value: string }).value;

/** Names the workflow in the log. */
const workflowName = (context: IHookFunctions) =>
	`workflow "${context.getWorkflow().name ?? context.getWorkflow().id}"`;

/** The properties changed since `fromMs`: created since then (PRODUCT_CREATE) or changed (PRODUCT_UPDATE), as chosen. */
async function changedProperties(
	context: IHookFunctions,
	fromMs: number,
	lastModified: string,
	events: string[],
): Promise<Missed[]> {
	const request = requestOf('product:getAll', { body: { last_modified: lastModified } });
	const missed: Missed[] = [];
	for await (const page of paginate(context, request, 'cursor', undefined, PROPERTY_PAGE)) {
		for (const record of page) {
			const created = Date.parse(String(record.created_at ?? record.createdAt ?? ''));
			const event = created >= fromMs ? 'PRODUCT_CREATE' : 'PRODUCT_UPDATE';
			// A property created since, when only updates are chosen, is replayed as an update (and the other way).
			const chosen = events.includes(event) ? event : events.find((candidate) => candidate.startsWith('PRODUCT_'));
			if (chosen && chosen !== DELETE_EVENT) missed.push({ event: chosen, id: idOf(record, 'product_id') });
		}
	}
	return missed;
}

/** The contacts whose id is above `lastId`: the contact search lists the newest first (spec section 4). */
async function newContacts(context: IHookFunctions, lastId: number): Promise<Missed[]> {
	const missed: Missed[] = [];
	for await (const page of paginate(context, requestOf('customer:getAll'), 'cursor')) {
		const newer = page.filter((record) => Number(idOf(record, 'customers_id')) > lastId);
		missed.push(...newer.map((record) => ({ event: 'CUSTOMER_CREATE', id: idOf(record, 'customers_id') })));
		if (newer.length < page.length) break;
	}
	return missed;
}

/** The newest contact's id: where the contacts to replay will start after a suspension. */
async function newestContactId(context: IHookFunctions): Promise<number | undefined> {
	const page = responseData(await apiRequest(context, { ...requestOf('customer:getAll'), body: { per_page: 1 } }));
	const newest = Array.isArray(page) ? (page[0] as IDataObject | undefined) : undefined;
	const id = newest ? Number(idOf(newest, 'customers_id')) : NaN;
	return Number.isFinite(id) ? id : undefined;
}

/** Sends one replay to the trigger's own webhook, as Agency CRM would have, while n8n has not started serving it. */
async function replay(context: IHookFunctions, registered: Registered, missed: Missed): Promise<void> {
	const started = Date.now();
	for (;;) {
		let problem: string;
		try {
			const answer = (await context.helpers.httpRequest({
				method: 'POST',
				url: registered.url,
				headers: { [SECRET_HEADER]: registered.secret },
				body: { event_type: missed.event, resource_id: missed.id, catch_up: true },
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as { statusCode: number };
			if (answer.statusCode < 400) return;
			problem = `n8n answered ${answer.statusCode}`;
			// Not served yet (the activation is under way), or a passing failure: tried again.
			if (![404, 500, 502, 503, 504].includes(answer.statusCode)) throw new Error(problem);
		} catch (error) {
			problem = (error as Error).message;
		}
		if (Date.now() - started > SERVED_WITHIN_MS) throw new Error(problem);
		await sleep(2000);
	}
}

type CatchUpReason = 'suspended' | 'restarted';

/**
 * Finds what changed since the progress the deliveries made, and replays it. Runs after the
 * activation (n8n must first serve the webhook); what it could not replay is logged by name.
 */
export async function catchUp(
	context: IHookFunctions,
	registered: Registered,
	progress: Progress,
	reason: CatchUpReason,
): Promise<void> {
	const workflow = workflowName(context);
	await sleep(2000);
	const events = registered.events.map((event) => normalisedEventType(event) as string);
	const missed: Missed[] = [];
	const fromMs = progress.deliveredAt === undefined ? undefined : progress.deliveredAt - MARGIN_MS;
	const from = fromMs === undefined ? undefined : since(fromMs);
	if (fromMs !== undefined && from !== undefined && events.some((event) => PROPERTY_RECORD_EVENTS.includes(event)))
		missed.push(...(await changedProperties(context, fromMs, from, events)));
	if (progress.lastContactId !== undefined && events.includes('CUSTOMER_CREATE'))
		missed.push(...(await newContacts(context, progress.lastContactId)));
	const looked = [
		from === undefined ? 'properties: no delivery seen yet' : `properties changed since ${from}`,
		progress.lastContactId === undefined ? 'contacts: none seen yet' : `contacts above ${progress.lastContactId}`,
	];
	context.logger.info(
		`Agency CRM Trigger: catch-up of ${workflow} (${reason === 'suspended' ? 'its webhook was suspended' : 'n8n started'}): ${missed.length} change(s) to replay (${looked.join('; ')}); those the workflow already took start nothing.`,
	);
	const failed: string[] = [];
	for (const change of missed) {
		try {
			await replay(context, registered, change);
		} catch (error) {
			failed.push(`${change.event} ${change.id} (${(error as Error).message})`);
		}
	}
	if (failed.length) {
		context.logger.error(
			`Agency CRM Trigger: catch-up of ${workflow} could not replay ${failed.length} change(s) through ${registered.url}: ${failed.join(', ')}. Activate the workflow again to retry.`,
		);
	}
}

/**
 * What follows an activation: the log says when the hook was found suspended; a hook registered
 * afresh starts the progress from now (it missed nothing); a catch-up runs, in the background, when
 * deliveries may have been lost (the hook was suspended, or n8n restarted) and the option is on.
 */
export async function afterActivation(context: IHookFunctions, registered: Registered): Promise<void> {
	// "Listen for test event": nothing to catch up, nothing to remember (n8n saves no test static data).
	if (context.getMode() === 'manual') return;
	const workflow = workflowName(context);
	if (registered.wasSuspended) {
		context.logger.warn(
			`Agency CRM Trigger: webhook ${registered.hookId} of ${workflow} was suspended by Agency CRM (its deliveries had failed); this activation reactivated it.`,
		);
	}
	const enabled =
		(context.getNodeParameter('dropRepeatedDeliveries', false) as boolean) &&
		(context.getNodeParameter('catchUp', false) as boolean);
	const memory = memoryOf(context);
	const restarted = ['init', 'leadershipChange'].includes(context.getActivationMode());
	const reason: CatchUpReason | undefined = registered.wasSuspended ? 'suspended' : restarted ? 'restarted' : undefined;
	// An ordinary activation of a live hook lost nothing.
	if (registered.existed && !reason) return;
	const progress = memory.progress;
	if (!registered.existed || !reason || progress.deliveredAt === undefined) {
		// A hook registered afresh, or one whose deliveries were never followed: counted from now.
		const wantsContacts = registered.events.includes('CUSTOMER_CREATE');
		memory.restart({
			deliveredAt: Date.now(),
			lastContactId: enabled && wantsContacts ? await newestContactId(context).catch(() => undefined) : undefined,
		});
		return;
	}
	if (!enabled) {
		if (registered.wasSuspended)
			context.logger.warn(
				`Agency CRM Trigger: the changes made while the webhook of ${workflow} was suspended were not delivered, and are not replayed ("Catch Up on Missed Changes" is off).`,
			);
		return;
	}
	// What the catch-up covers needs no second one: the next restart looks from now.
	memory.restart({ ...progress, deliveredAt: Date.now() });
	void catchUp(context, registered, progress, reason).catch((error: Error) =>
		context.logger.error(
			`Agency CRM Trigger: the catch-up of ${workflow} failed: ${error.message}. Changes made while Agency CRM could not deliver may be missing; activate the workflow again to retry.`,
		),
	);
}
