import type { IDataObject } from 'n8n-workflow';

/**
 * The memory as the node's static data holds it: one text, a line per record taken, oldest first.
 * n8n loads the static data for every delivery, wraps each of its objects to watch for changes, and
 * writes it whole: one text costs it one value, where an array of entries cost it a thousand
 * (`npm run bench:profile -- burst`). A delivery looks one record up without splitting the text.
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
/** What versions before kept: delivery ids (production sends none), bare fingerprints, entries as arrays. */
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

/** Entries of 0.2.0's array form (`[key, state, compared, "EVENT EVENT", at]`), read once, as lines. */
function formerLines(entries: unknown): string[] {
	if (!Array.isArray(entries)) return [];
	return entries.flatMap((entry) => {
		const [key, state, compared, events, at] = Array.isArray(entry) ? (entry as unknown[]) : [];
		const valid =
			typeof key === 'string' &&
			typeof state === 'string' &&
			(compared === null || typeof compared === 'string') &&
			typeof events === 'string' &&
			typeof at === 'number';
		if (!valid) return [];
		return [seenLine(key, { state, compared: compared ?? undefined, events: events.split(' ').filter(Boolean), at })];
	});
}

/** The memory's text in the static data (0.2.0's array form read as lines); empty when unreadable. */
export function storedText(staticData: IDataObject): string {
	const text = staticData[MEMORY_KEY];
	return typeof text === 'string' ? text : formerLines(staticData.seen).join('\n');
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
 * Writes `added` into the static data's memory: an entry replaces the stored one only when it is
 * later; the least recently taken are forgotten beyond the bound. `keepCompared` false drops every
 * Skip Unchanged fingerprint, so that the option turned on again compares with nothing older.
 * Returns whether the static data changed (so that n8n saves it).
 */
export function writeSeen(staticData: IDataObject, added: Map<string, Seen>, keepCompared: boolean): boolean {
	const before = staticData[MEMORY_KEY];
	const merged = storedEntries(storedText(staticData));
	for (const [key, seen] of added) {
		const current = merged.get(key);
		if (current && current.at > seen.at) continue;
		merged.delete(key);
		merged.set(key, seen);
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
