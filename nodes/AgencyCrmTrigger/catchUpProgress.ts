import type { IDataObject } from 'n8n-workflow';

import { PROPERTY_RECORD_EVENTS } from '../shared/events';
import { finiteNumber } from '../shared/values';
import type { Delivered } from './processMemory';

/**
 * How far the trigger followed Agency CRM, and the catch-up still owed: a small state machine whose
 * every transition is a pure function (tested one by one). Following, the progress moves with each
 * delivery. An activation that finds deliveries lost (the hook suspended, or n8n started) opens a
 * window; each part of it (the properties changed, the contacts created) closes only once all its
 * changes were replayed, so that a catch-up that fails or is interrupted keeps its window for the
 * next activation or n8n start, which replays it again, merged with any window opened since.
 */

/** Changes this long before the last delivery are looked for too: the CRM's clock and n8n's may differ. */
export const MARGIN_MS = 15 * 60_000;

export type CatchUpReason = 'suspended' | 'restarted';
export type CatchUpPart = 'properties' | 'contacts';

export interface CatchUpWindow {
	/** When the window was opened, or opened again (ms): what it covers ends there; live deliveries follow. */
	openedAt: number;
	reason: CatchUpReason;
	/** The properties changed since this time (ms) are owed. */
	propertiesSince?: number;
	/** The contacts created above this id are owed. */
	contactsAbove?: number;
	/** How many activations tried to replay it. */
	attempts: number;
}

export interface Progress extends Delivered {
	/** The catch-up owed, until each of its parts was replayed in full. */
	pending?: CatchUpWindow;
}

const PROGRESS_KEY = 'progress';

function windowOf(value: unknown): CatchUpWindow | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const window = value as IDataObject;
	const openedAt = finiteNumber(window.openedAt);
	if (openedAt === undefined) return undefined;
	return {
		openedAt,
		reason: window.reason === 'suspended' ? 'suspended' : 'restarted',
		propertiesSince: finiteNumber(window.propertiesSince),
		contactsAbove: finiteNumber(window.contactsAbove),
		attempts: finiteNumber(window.attempts) ?? 0,
	};
}

/** The progress the static data holds; what cannot be read counts as never followed. */
export function progressOf(staticData: IDataObject): Progress {
	const stored = (staticData[PROGRESS_KEY] ?? {}) as IDataObject;
	return {
		deliveredAt: finiteNumber(stored.deliveredAt),
		lastContactId: finiteNumber(stored.lastContactId),
		pending: windowOf(stored.pending),
	};
}

/** Writes the progress into the static data; whether it changed (so that n8n saves it). */
export function writeProgress(staticData: IDataObject, progress: Progress): boolean {
	const written = JSON.parse(JSON.stringify(progress)) as IDataObject;
	if (JSON.stringify(staticData[PROGRESS_KEY] ?? {}) === JSON.stringify(written)) return false;
	staticData[PROGRESS_KEY] = written;
	return true;
}

const hasPart = (window: CatchUpWindow) => window.propertiesSince !== undefined || window.contactsAbove !== undefined;
const earliest = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
const latest = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

/** Deliveries came: the progress moves on (never back). */
export function delivered(progress: Progress, { deliveredAt, lastContactId }: Delivered): Progress {
	return {
		...progress,
		deliveredAt: latest(progress.deliveredAt, deliveredAt),
		lastContactId: latest(progress.lastContactId, lastContactId),
	};
}

export interface Activation {
	now: number;
	/** Whether the hook was there already (else it was registered afresh: it missed nothing). */
	existed: boolean;
	/** Why deliveries may have been lost, if they may. */
	reason?: CatchUpReason;
	/** Catch Up on Missed Changes (with Drop Repeated Deliveries). */
	enabled: boolean;
	/** The events chosen: a part is owed only for events still chosen. */
	events: string[];
	/** The newest contact's id, looked up for a hook registered afresh that follows contacts created. */
	newestContactId?: number;
}

/** The window this activation opens: from the last delivery, for the events chosen. */
function openedWindow(progress: Progress, { now, existed, reason, events }: Activation): CatchUpWindow | undefined {
	if (!existed || !reason || progress.deliveredAt === undefined) return undefined;
	const properties = events.some((event) => PROPERTY_RECORD_EVENTS.includes(event));
	const contacts = events.includes('CUSTOMER_CREATE');
	const window: CatchUpWindow = {
		openedAt: now,
		reason,
		propertiesSince: properties ? progress.deliveredAt - MARGIN_MS : undefined,
		contactsAbove: contacts ? progress.lastContactId : undefined,
		attempts: 0,
	};
	return hasPart(window) ? window : undefined;
}

/** A window still owed and one just opened, as one: the earlier start of each part. */
function mergedWindow(owed: CatchUpWindow | undefined, opened: CatchUpWindow | undefined, activation: Activation) {
	if (!owed && !opened) return undefined;
	const properties = activation.events.some((event) => PROPERTY_RECORD_EVENTS.includes(event));
	const contacts = activation.events.includes('CUSTOMER_CREATE');
	const window: CatchUpWindow = {
		openedAt: activation.now,
		reason: opened?.reason ?? owed!.reason,
		propertiesSince: properties ? earliest(owed?.propertiesSince, opened?.propertiesSince) : undefined,
		contactsAbove: contacts ? earliest(owed?.contactsAbove, opened?.contactsAbove) : undefined,
		attempts: (owed?.attempts ?? 0) + 1,
	};
	return hasPart(window) ? window : undefined;
}

/**
 * An activation (or n8n's start): what the progress becomes, and the window to replay now, if any.
 * With the catch-up off, nothing is followed (turned on again, it starts from that activation), and
 * a window still owed is dropped (`dropped`, for the log). A hook registered afresh missed nothing:
 * followed from now. A window owed is replayed whatever else this activation found.
 */
export function activated(progress: Progress, activation: Activation) {
	if (!activation.enabled) return { progress: {} as Progress, dropped: progress.pending };
	const replay = mergedWindow(progress.pending, openedWindow(progress, activation), activation);
	const fresh = !activation.existed || progress.deliveredAt === undefined;
	const following: Progress = fresh
		? { deliveredAt: activation.now, lastContactId: activation.newestContactId }
		: {
				deliveredAt: activation.reason ? activation.now : progress.deliveredAt,
				lastContactId: progress.lastContactId,
			};
	return { progress: { ...following, pending: replay }, replay };
}

/**
 * One part of a window was replayed in full (every change answered): it is no longer owed; the
 * highest contact replayed moves the progress. A report of a window since opened again is ignored.
 */
export function replayed(
	progress: Progress,
	{ openedAt, part, lastContactId }: { openedAt: number; part: CatchUpPart; lastContactId?: number },
): Progress {
	const window = progress.pending;
	if (!window || window.openedAt !== openedAt) return progress;
	const rest: CatchUpWindow = {
		...window,
		propertiesSince: part === 'properties' ? undefined : window.propertiesSince,
		contactsAbove: part === 'contacts' ? undefined : window.contactsAbove,
	};
	return {
		...progress,
		lastContactId: latest(progress.lastContactId, lastContactId),
		pending: hasPart(rest) ? rest : undefined,
	};
}
