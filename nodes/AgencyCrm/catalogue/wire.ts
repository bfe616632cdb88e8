import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { isAbsent } from './rules';
import type { WireEnv, WireTransform } from './types';

/** Returned (not thrown) by a transform that cannot convert a value; the caller adds the field name. */
export class Invalid {
	constructor(readonly message: string) {}
}

/** The first Invalid anywhere in a converted value (nested builders convert many parts). */
export function findInvalid(value: unknown): Invalid | undefined {
	if (value instanceof Invalid) return value;
	if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
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

const WHOLE_NUMBER = /^\d+$/;

/** A resource locator (`{__rl, mode, value}`) or a plain value → the numeric id. */
export const id = (value: unknown): unknown => {
	const raw =
		typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
	if (isAbsent(raw)) return undefined;
	return WHOLE_NUMBER.test(String(raw).trim())
		? Number(String(raw).trim())
		: new Invalid(`must be a whole-number ID (got "${String(raw)}")`);
};

/** The trimmed, non-empty entries of a multi-select, an array or a comma-separated text. */
export function listEntries(value: unknown): string[] {
	return (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter(Boolean);
}

/** Multi-select or "a, b" text → `a,b` (the API's comma-separated query values). */
export const commaList = (value: unknown): unknown => {
	const entries = listEntries(value);
	return entries.length ? entries.join(',') : undefined;
};

/** "1, 2, 3" or an array → [1, 2, 3]. */
export const idList = (value: unknown): unknown => {
	const entries = listEntries(value);
	const wrong = entries.find((entry) => !WHOLE_NUMBER.test(entry));
	if (wrong !== undefined) return new Invalid(`must be a list of whole-number IDs (got "${wrong}")`);
	return entries.length ? entries.map(Number) : undefined;
};

/** "a, b" or an array → ['a', 'b']. */
export const stringList = (value: unknown): unknown => {
	const entries = listEntries(value);
	return entries.length ? entries : undefined;
};

/** A JSON text (or an object from an expression) → the parsed value. */
export const json = (value: unknown): unknown => {
	if (isAbsent(value)) return undefined;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		// Only the position: the parser's message quotes the text, which may hold a password.
		const position = /position (\d+)/.exec((error as Error).message)?.[1];
		return new Invalid(`must be valid JSON${position ? ` (error at character ${position})` : ''}`);
	}
};

/**
 * Any date-time n8n or luxon understands, in the zone it was written in; one written without a
 * zone (n8n's date picker) is in the workflow's time zone, not the server's.
 */
function parseDateTime(value: unknown, env: WireEnv): DateTime | Invalid | undefined {
	if (isAbsent(value)) return undefined;
	let parsed: DateTime;
	if (value instanceof Date) parsed = DateTime.fromJSDate(value);
	else if (DateTime.isDateTime(value)) parsed = value;
	else parsed = DateTime.fromISO(String(value), { zone: env.timezone, setZone: true });
	return parsed.isValid
		? parsed
		: new Invalid(`must be a date-time such as 2026-05-01T09:30:00Z (got "${String(value)}")`);
}

/** Any date-time → UTC `YYYY-MM-DDTHH:MM:SSZ` (spec section 4 "Calendar"). */
export const toUtcDateTime: WireTransform = (value, env) => {
	const parsed = parseDateTime(value, env);
	return parsed === undefined || parsed instanceof Invalid
		? parsed
		: parsed.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
};

/** A date or date-time → its calendar date `YYYY-MM-DD`, as written (transaction billing dates). */
export const calendarDate: WireTransform = (value, env) => {
	const parsed = parseDateTime(value, env);
	return parsed === undefined || parsed instanceof Invalid ? parsed : parsed.toFormat('yyyy-MM-dd');
};

/** A list of date-times → UTC strings. */
export const utcDateTimeList: WireTransform = (value, env) => {
	const entries = listEntries(value);
	return entries.length ? entries.map((entry) => toUtcDateTime(entry, env)) : undefined;
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
export const criteria = (value: unknown): unknown => {
	if (Array.isArray(value)) return value;
	const rows = entriesOf(value, 'criterion').map((row) => ({ id: idValue(row.id), value: criterionValue(row.value) }));
	return rows.length ? rows : undefined;
};

/** Header rows → `{name: value}` (webhook custom headers). */
export const keyValues = (value: unknown): unknown => {
	const rows = entriesOf(value, 'header');
	return rows.length ? Object.fromEntries(rows.map((row) => [String(row.name), row.value])) : undefined;
};

/** Participant rows → `[{user_id, is_organizer, is_creator}]` (the spec's "the service" list). */
export const participants = (value: unknown): unknown => {
	if (Array.isArray(value)) return value;
	const rows = entriesOf(value, 'participant').map((row) => ({
		user_id: idValue(id(row.userId)),
		is_organizer: row.isOrganizer === true,
		is_creator: row.isCreator === true,
	}));
	return rows.length ? rows : undefined;
};

/** Latitude/longitude pair → `{lat, lng}`; a half-filled pair is left for the rule to report. */
export const geo = (value: unknown): unknown => {
	const point = entriesOf(value, 'point')[0];
	if (!point) return undefined;
	const coordinate = (entry: unknown) => (isAbsent(entry) ? undefined : Number(entry));
	return { lat: coordinate(point.lat), lng: coordinate(point.lng) };
};

/** Recurrence builder → the RFC 5545 object of spec section 4 (empty lists left out). */
export const recurrence: WireTransform = (value, env) => {
	const rule = entriesOf(value, 'rule')[0];
	if (!rule) return undefined;
	const numbers = (entry: unknown) => {
		const entries = listEntries(entry);
		const wrong = entries.find((text) => !/^-?\d+$/.test(text));
		if (wrong !== undefined) return new Invalid(`must be a list of whole numbers (got "${wrong}")`);
		return entries.length ? entries.map(Number) : undefined;
	};
	const pairs = (entry: unknown) => (json(entry) as unknown[] | undefined) ?? undefined;
	const object: Record<string, unknown> = {
		dtstart: toUtcDateTime(rule.dtstart, env),
		freq: rule.freq,
		interval: rule.interval === undefined || rule.interval === '' ? undefined : Number(rule.interval),
		count: rule.count === undefined || rule.count === '' || rule.count === 0 ? undefined : Number(rule.count),
		until: toUtcDateTime(rule.until, env),
		bymonth: numbers(rule.bymonth),
		bymonthday: numbers(rule.bymonthday),
		bynmonthday: numbers(rule.bynmonthday),
		byyearday: numbers(rule.byyearday),
		byweekno: numbers(rule.byweekno),
		byweekday: stringList(rule.byweekday),
		bynweekday: pairs(rule.bynweekday),
		bysetpos: numbers(rule.bysetpos),
		exdate: utcDateTimeList(rule.exdate, env),
	};
	return Object.fromEntries(Object.entries(object).filter(([, entry]) => entry !== undefined)) as IDataObject;
};
