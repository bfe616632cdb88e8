import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { WireTransform } from './types';

/** Returned (not thrown) by a transform that cannot convert a value; the caller adds the field name. */
export class Invalid {
	constructor(readonly message: string) {}
}

/** The first Invalid anywhere in a converted value (nested builders convert many parts). */
export function findInvalid(value: unknown): Invalid | undefined {
	if (value instanceof Invalid) return value;
	if (typeof value !== 'object' || value === null) return undefined;
	for (const entry of Object.values(value)) {
		const invalid = findInvalid(entry);
		if (invalid) return invalid;
	}
	return undefined;
}

/** Numeric ids travel as integers, anything else as the string entered. */
function idValue(value: unknown): unknown {
	const text = String(value).trim();
	return /^\d+$/.test(text) ? Number(text) : text;
}

/** A resource locator (`{__rl, mode, value}`) or a plain value → the id. */
export const id: WireTransform = (value) => {
	const raw =
		typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
	return raw === '' || raw === undefined || raw === null ? undefined : idValue(raw);
};

/** Multi-select or "a, b" text → `a,b` (the API's comma-separated query values). */
export const commaList: WireTransform = (value) => {
	const entries = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter(Boolean);
	return entries.length ? entries.join(',') : undefined;
};

/** "1, 2, 3" or an array → [1, 2, 3]. */
export const idList: WireTransform = (value) => {
	const entries = Array.isArray(value) ? value : String(value ?? '').split(',');
	const ids = entries
		.map((entry) => String(entry).trim())
		.filter(Boolean)
		.map(idValue);
	return ids.length ? ids : undefined;
};

/** "a, b" or an array → ['a', 'b']. */
export const stringList: WireTransform = (value) => {
	const entries = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter(Boolean);
	return entries.length ? entries : undefined;
};

/** A JSON text (or an object from an expression) → the parsed value. */
export const json: WireTransform = (value) => {
	if (value === '' || value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		return new Invalid(`must be valid JSON (${(error as Error).message})`);
	}
};

/** Any date-time n8n or luxon understands, in the zone it was written in (none: the system's). */
function parseDateTime(value: unknown): DateTime | Invalid | undefined {
	if (value === '' || value === undefined || value === null) return undefined;
	let parsed: DateTime;
	if (value instanceof Date) parsed = DateTime.fromJSDate(value);
	else if (DateTime.isDateTime(value)) parsed = value;
	else parsed = DateTime.fromISO(String(value), { setZone: true });
	return parsed.isValid
		? parsed
		: new Invalid(`must be a date-time such as 2026-05-01T09:30:00Z (got "${String(value)}")`);
}

/** Any date-time → UTC `YYYY-MM-DDTHH:MM:SSZ` (spec section 4 "Calendar"). */
export const utcDateTime: WireTransform = (value) => {
	const parsed = parseDateTime(value);
	return parsed === undefined || parsed instanceof Invalid
		? parsed
		: parsed.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
};

/** A date or date-time → its calendar date `YYYY-MM-DD`, as written (transaction billing dates). */
export const calendarDate: WireTransform = (value) => {
	const parsed = parseDateTime(value);
	return parsed === undefined || parsed instanceof Invalid ? parsed : parsed.toFormat('yyyy-MM-dd');
};

/** A list of date-times → UTC strings. */
export const utcDateTimeList: WireTransform = (value) => {
	const entries = stringList(value) as string[] | undefined;
	return entries?.map((entry) => utcDateTime(entry));
};

/** Items of a fixedCollection (`{group: [{…}]}`) → the array of entries. */
function entriesOf(value: unknown, group: string): IDataObject[] {
	const entries = (value as IDataObject | undefined)?.[group];
	if (Array.isArray(entries)) return entries as IDataObject[];
	return entries && typeof entries === 'object' ? [entries as IDataObject] : [];
}

/**
 * A criterion value typed in a text box → the JSON value its criterion type needs: `250000` a
 * number, `true` a boolean, `[2, 3]` a multiple choice; anything that is not JSON (`house`, `C`)
 * stays text, and `"123"` (quoted) is the text 123.
 */
function criterionValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}

/** Criteria rows → `[{id, value}]` (product and search-request criteria). */
export const criteria: WireTransform = (value) => {
	if (Array.isArray(value)) return value;
	const rows = entriesOf(value, 'criterion').map((row) => ({ id: idValue(row.id), value: criterionValue(row.value) }));
	return rows.length ? rows : undefined;
};

/** Header rows → `{name: value}` (webhook custom headers). */
export const keyValues: WireTransform = (value) => {
	const rows = entriesOf(value, 'header');
	return rows.length ? Object.fromEntries(rows.map((row) => [String(row.name), row.value])) : undefined;
};

/** Participant rows → `[{user_id, is_organizer, is_creator}]` (the spec's "the service" list). */
export const participants: WireTransform = (value) => {
	if (Array.isArray(value)) return value;
	const rows = entriesOf(value, 'participant').map((row) => ({
		user_id: idValue(id(row.userId)),
		is_organizer: row.isOrganizer === true,
		is_creator: row.isCreator === true,
	}));
	return rows.length ? rows : undefined;
};

/** Latitude/longitude pair → `{lat, lng}`; a half-filled pair is left for the rule to report. */
export const geo: WireTransform = (value) => {
	const point = entriesOf(value, 'point')[0];
	if (!point) return undefined;
	const coordinate = (entry: unknown) =>
		entry === '' || entry === undefined || entry === null ? undefined : Number(entry);
	return { lat: coordinate(point.lat), lng: coordinate(point.lng) };
};

/** Recurrence builder → the RFC 5545 object of spec section 4 (empty lists left out). */
export const recurrence: WireTransform = (value) => {
	const rule = entriesOf(value, 'rule')[0];
	if (!rule) return undefined;
	const numbers = (entry: unknown) => (idList(entry) as number[] | undefined)?.map(Number);
	const pairs = (entry: unknown) => (json(entry) as unknown[] | undefined) ?? undefined;
	const object: Record<string, unknown> = {
		dtstart: utcDateTime(rule.dtstart),
		freq: rule.freq,
		interval: rule.interval === undefined || rule.interval === '' ? undefined : Number(rule.interval),
		count: rule.count === undefined || rule.count === '' || rule.count === 0 ? undefined : Number(rule.count),
		until: utcDateTime(rule.until),
		bymonth: numbers(rule.bymonth),
		bymonthday: numbers(rule.bymonthday),
		bynmonthday: numbers(rule.bynmonthday),
		byyearday: numbers(rule.byyearday),
		byweekno: numbers(rule.byweekno),
		byweekday: stringList(rule.byweekday),
		bynweekday: pairs(rule.bynweekday),
		bysetpos: numbers(rule.bysetpos),
		exdate: utcDateTimeList(rule.exdate),
	};
	return Object.fromEntries(Object.entries(object).filter(([, entry]) => entry !== undefined)) as IDataObject;
};
