import type { IDataObject } from 'n8n-workflow';

import { finiteNumber } from '../../shared/values';

/**
 * The memory as the node's static data holds it: the states taken, and the progress. The states are
 * one text, a line per record taken, oldest first: n8n wraps each object of the static data to watch
 * for changes and writes it whole, and one text costs it one value where an array of entries cost it
 * a thousand (`npm run bench:profile -- burst`). A delivery looks one record up without splitting it.
 *
 * The progress says how far the trigger has taken Agency CRM's changes: a watermark, and what is
 * owed before it may move. Production suspends a hook without saying so (docs/assumptions.md), so
 * the trigger never waits to see a suspension: it knows up to when it took every change, and each
 * activation (and the first journal a process takes after n8n's start: n8n 2.x calls no trigger
 * then) replays what changed since. Every transition is a pure function, checked on generated runs
 * (test/unit/trigger/memory/watermark.test.ts).
 */

/** The records remembered, least recently taken forgotten first: about 80 KB of static data at most. */
export const REMEMBERED_RECORDS = 1000;

/** An event the workflow took a record's state with after a catch-up: any delivery of that state is a repeat. */
export const ANY_EVENT = '*';

/** What the workflow took of one record. */
export interface Seen {
	/** The record as fetched, nothing left out: the same fingerprint means nothing changed. */
	state: string;
	/** The record without the fields to ignore (Skip Unchanged Records), when that option is on. */
	compared?: string;
	/** The events it started the workflow for in this state (ANY_EVENT after a catch-up). */
	events: string[];
	/** When it was taken (ms since 1970): of two copies of an entry, the later wins. */
	at: number;
}

const MEMORY_KEY = 'memory';
/** What versions before kept: delivery ids (production sends none), bare fingerprints, entries as arrays; cleared. */
const FORMER_KEYS = ['seenDeliveries', 'seenRecords', 'seen'];

/**
 * A record's key in the memory: `customer:5`, `product:8`. In an id given as text, `%`, white space,
 * control characters and lone UTF-16 halves are written `%xxxx`, so that no id breaks the memory's
 * lines or throws (URI encoding throws on a lone half, which a notification's JSON may carry).
 */
export const recordKey = (resourceType: string, resourceId: string | number) =>
	`${resourceType}:${String(resourceId).replace(/[%\s\p{Cc}\p{Cs}]/gu, (unit) => `%${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;

export function seenLine(key: string, { state, compared, events, at }: Seen): string {
	return `${key} ${state} ${compared ?? '-'} ${events.join(',')} ${at.toString(36)}`;
}

function parsedLine(line: string): [string, Seen] | undefined {
	const [key, state, compared, events, at, ...rest] = line.split(' ');
	const time = parseInt(at ?? '', 36);
	if (rest.length || !key || !state || !compared || events === undefined || !Number.isFinite(time)) return undefined;
	const seen = { state, compared: compared === '-' ? undefined : compared, events: events.split(',').filter(Boolean) };
	return [key, { ...seen, at: time }];
}

/** The memory's text in the static data; empty when unreadable. */
export function storedText(staticData: IDataObject): string {
	const text = staticData[MEMORY_KEY];
	return typeof text === 'string' ? text : '';
}

/** The entry of one record in the memory's text, without reading the others. */
export function storedSeen(text: string, key: string): Seen | undefined {
	const from = text.startsWith(`${key} `) ? 0 : text.indexOf(`\n${key} `) + 1;
	if (from === 0 && !text.startsWith(`${key} `)) return undefined;
	const end = text.indexOf('\n', from);
	return parsedLine(text.slice(from, end === -1 ? undefined : end))?.[1];
}

/** Every entry of the memory's text, oldest first; lines that cannot be read are left out. */
export function storedEntries(text: string): Map<string, Seen> {
	const entries = text.split('\n').map(parsedLine);
	return new Map(entries.filter((entry): entry is [string, Seen] => entry !== undefined));
}

/**
 * Of two entries of a record, the later; when both hold the same state, with the events of both
 * (each taken by another process, say).
 */
export function laterOf(a: Seen, b: Seen): Seen {
	const [earlier, later] = a.at > b.at ? [b, a] : [a, b];
	if (earlier.state !== later.state) return later;
	return { ...later, events: [...new Set([...later.events, ...earlier.events])] };
}

/**
 * Writes `added` into the static data's memory: an entry replaces the stored one only when it is
 * later (their events joined when the state is the same); the least recently taken are forgotten beyond the bound. `keepCompared` false drops every
 * Skip Unchanged fingerprint, so that the option turned on again compares with nothing older.
 * Returns whether the static data changed (so that n8n saves it).
 */
export function writeSeen(staticData: IDataObject, added: Map<string, Seen>, keepCompared: boolean): boolean {
	const before = staticData[MEMORY_KEY];
	const merged = storedEntries(storedText(staticData));
	for (const [key, seen] of added) {
		const current = merged.get(key);
		merged.delete(key);
		merged.set(key, current ? laterOf(current, seen) : seen);
	}
	const kept = [...merged]
		.sort(([, a], [, b]) => a.at - b.at)
		.slice(-REMEMBERED_RECORDS)
		.map(([key, seen]) => seenLine(key, keepCompared ? seen : { ...seen, compared: undefined }));
	const text = kept.join('\n');
	const former = FORMER_KEYS.filter((name) => name in staticData);
	for (const name of former) delete staticData[name];
	if (text === before && !former.length) return false;
	staticData[MEMORY_KEY] = text;
	return true;
}

/** Forgets every record: both options are off, and workflows ran meanwhile on records it did not see. */
export function forgetSeen(staticData: IDataObject): boolean {
	const present = [MEMORY_KEY, ...FORMER_KEYS].filter((name) => name in staticData);
	for (const name of present) delete staticData[name];
	return present.length > 0;
}

/** A delivery answered 200 and not taken yet: under way, or its record could not be read (`failed`). */
export interface OwedDelivery {
	event: string;
	id: string | number;
	/** When it came (ms). */
	at: number;
	failed?: boolean;
}

export interface Progress {
	/** Every change made before this time (ms, n8n's clock) was taken, but the owed deliveries. Undefined: never followed. */
	watermark?: number;
	/** Since when the trigger follows (its first activation, or the replay turned on again): nothing before is owed. */
	followedFrom?: number;
	/** A replay of the changes from the watermark to `until` (ms) not yet complete: until it is, the watermark waits. */
	replaying?: { until: number; attempts: number };
	owed: OwedDelivery[];
}

/** The window a replay looks in: the changes made from `since` to `until` (ms), and how many replays it had. */
export type ReplayWindow = { since: number; followedFrom?: number } & NonNullable<Progress['replaying']>;

/** The deliveries owed that are kept: beyond, the oldest are left to the window. */
export const OWED_DELIVERIES = 200;
/** A delivery under way longer than this is no longer read (a read gives up within 6 minutes: docs/reliability.md). */
export const UNDER_WAY_MS = 10 * 60_000;

const PROGRESS_KEY = 'progress';

export const owedOf = (value: unknown): OwedDelivery[] =>
	(Array.isArray(value) ? value : []).flatMap((entry) => {
		const { event, id, at, failed } = (entry ?? {}) as IDataObject;
		const known = typeof event === 'string' && (typeof id === 'string' || typeof id === 'number');
		if (!known || finiteNumber(at) === undefined) return [];
		return [{ event, id, at: at as number, ...(failed === true ? { failed } : {}) }];
	});

/** The progress the static data holds; what cannot be read counts as never followed. */
export function progressOf(staticData: IDataObject): Progress {
	const stored = (staticData[PROGRESS_KEY] ?? {}) as IDataObject;
	const replaying = (stored.replaying ?? {}) as IDataObject;
	const until = finiteNumber(replaying.until);
	return {
		watermark: finiteNumber(stored.watermark),
		followedFrom: finiteNumber(stored.followedFrom),
		replaying: until === undefined ? undefined : { until, attempts: finiteNumber(replaying.attempts) ?? 1 },
		owed: owedOf(stored.owed),
	};
}

/** Writes the progress into the static data; whether it changed (so that n8n saves it). */
export function writeProgress(staticData: IDataObject, progress: Progress): boolean {
	const written = JSON.parse(JSON.stringify(progress)) as IDataObject;
	if (JSON.stringify(staticData[PROGRESS_KEY] ?? {}) === JSON.stringify(written)) return false;
	staticData[PROGRESS_KEY] = written;
	return true;
}

const later = (a: number | undefined, b: number) => (a === undefined ? b : Math.max(a, b));
const sameDelivery = (a: OwedDelivery, b: OwedDelivery) =>
	a.event === b.event && String(a.id) === String(b.id) && a.at === b.at;

/** The window from the watermark to `until`, with the progress that waits for it. */
function opened(
	progress: Progress & { watermark: number },
	until: number,
): { progress: Progress; window: ReplayWindow } {
	const replaying = { until, attempts: (progress.replaying?.attempts ?? 0) + 1 };
	const window = { since: progress.watermark, followedFrom: progress.followedFrom, ...replaying };
	return { progress: { ...progress, replaying }, window };
}

/**
 * An activation: the window to replay (from the watermark to now), and the progress that waits for
 * it. Never followed, or with the replay off, there is nothing to replay: followed from now on (the
 * owed deliveries dropped with the replay off, for the log).
 */
export function activated(
	progress: Progress,
	{ now, enabled }: { now: number; enabled: boolean },
): { progress: Progress; window?: ReplayWindow; dropped: OwedDelivery[] } {
	const { watermark } = progress;
	if (!enabled || watermark === undefined) {
		const owed = enabled ? progress.owed : [];
		return { progress: { watermark: now, followedFrom: now, owed }, dropped: enabled ? [] : progress.owed };
	}
	return { ...opened({ ...progress, watermark }, now), dropped: [] };
}

/**
 * n8n's start, seen at the first journal a process takes (n8n 2.x calls no trigger at its start):
 * the changes from the watermark to the start are replayed, unless an activation since the start
 * is replaying them already.
 */
export function restarted(progress: Progress, startedAt: number): { progress: Progress; window?: ReplayWindow } {
	const { watermark, replaying } = progress;
	if (watermark === undefined || watermark >= startedAt || (replaying && replaying.until >= startedAt)) {
		return { progress };
	}
	return opened({ ...progress, watermark }, startedAt);
}

/**
 * The owed deliveries no process is still reading: those whose read failed, those that came before
 * this process started (n8n stopped while they were under way), or longer ago than a read can take.
 */
export const owedDue = ({ owed }: Progress, startedAt: number, now: number) =>
	owed.filter((delivery) => delivery.failed || delivery.at < Math.max(startedAt, now - UNDER_WAY_MS));

/**
 * Deliveries were taken up to `takenUpTo` by a process (its journal): the watermark moves on, but
 * never past a replay still owed, whose window it opens.
 */
export function followed(progress: Progress, takenUpTo: number): Progress {
	if (progress.replaying || progress.watermark === undefined) return progress;
	return { ...progress, watermark: later(progress.watermark, takenUpTo) };
}

/** A window replayed in full (every change answered): the watermark moves to its end. */
export function windowReplayed(progress: Progress, until: number): Progress {
	const replaying = progress.replaying && progress.replaying.until > until ? progress.replaying : undefined;
	return { ...progress, watermark: later(progress.watermark, until), replaying };
}

/** Deliveries owed (under way, or their read failed): each once, the oldest forgotten beyond the bound. */
export function owe(progress: Progress, deliveries: OwedDelivery[]): Progress {
	const kept = progress.owed.filter((owed) => !deliveries.some((delivery) => sameDelivery(owed, delivery)));
	return { ...progress, owed: [...kept, ...deliveries].slice(-OWED_DELIVERIES) };
}

/** Owed deliveries taken (or found already taken): no longer owed. */
export function settle(progress: Progress, deliveries: OwedDelivery[]): Progress {
	const owed = progress.owed.filter((owed) => !deliveries.some((delivery) => sameDelivery(owed, delivery)));
	return { ...progress, owed };
}
