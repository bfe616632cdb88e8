import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { listEntries, OFFSET_DATE_TIME_FORMAT } from '../../shared/values';
import { isAbsent } from './rules';
import type { Converter, ConvertEnv } from './types';

/**
 * Converters from what users enter to what the API expects. They never judge a value the API might
 * accept: a value they cannot convert is passed on as entered, for the rules to judge. They fail only
 * where no well-formed request could carry the value (text that is not JSON).
 */

/** A value converted as given: `{value}`, the shape of a converter's success. */
export const ok = (value: unknown) => ({ value });

const WHOLE_NUMBER = /^\d+$/;

/** A resource locator (`{__rl, mode, value}`) or a plain value → the value inside. */
function locatorValue(value: unknown): unknown {
	return typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
}

/** Digits → a number (ids travel as integers where they are numeric); anything else as entered, trimmed. */
export function idValue(value: unknown): unknown {
	if (isAbsent(value)) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number') return value;
	const text = String(value).trim();
	return WHOLE_NUMBER.test(text) ? Number(text) : text;
}

/** A resource locator or a plain value → the id, numeric when it is digits. */
export const id: Converter = (value) => ok(idValue(locatorValue(value)));

/**
 * A filter whose default in the editor, 0 or off, means no filter: at that default it sends nothing,
 * so that a filter added and left as it is filters nothing (a Maximum Price of 0 emptied every list).
 */
export const filterUnlessZeroOrOff: Converter = (value) =>
	ok(isAbsent(value) || value === false || (typeof value !== 'boolean' && Number(value) === 0) ? undefined : value);

/** Multi-select or "a, b" text → `a,b` (the API's comma-separated query values). */
export const commaList: Converter = (value) => {
	const entries = listEntries(value);
	return ok(entries.length ? entries.join(',') : undefined);
};

/** "1, 2, 3" or an array → [1, 2, 3]; entries that are not digits stay text. */
export const idList: Converter = (value) => {
	const entries = listEntries(value);
	return ok(entries.length ? entries.map(idValue) : undefined);
};

/** "a, b" or an array → ['a', 'b']. */
export const stringList: Converter = (value) => {
	const entries = listEntries(value);
	return ok(entries.length ? entries : undefined);
};

/** Parses JSON text; the failure names only the position, as the parser's message may quote a secret. */
export function parseJson(text: string): { value: unknown } | { problem: string } {
	try {
		return ok(JSON.parse(text) as unknown);
	} catch (error) {
		const position = /position (\d+)/.exec((error as Error).message)?.[1];
		return { problem: `must be valid JSON${position ? ` (error at character ${position})` : ''}` };
	}
}

/** A JSON text (or an object from an expression) → the parsed value. */
export const json: Converter = (value) => {
	if (isAbsent(value)) return ok(undefined);
	return typeof value === 'string' ? parseJson(value) : ok(value);
};

/**
 * Any date-time n8n or luxon understands, in the zone it was written in; one written without a
 * zone (n8n's date picker) is in the workflow's time zone, not the server's.
 */
function parseDateTime(value: unknown, env: ConvertEnv): DateTime | undefined {
	if (value instanceof Date) return validOrUndefined(DateTime.fromJSDate(value));
	if (DateTime.isDateTime(value)) return validOrUndefined(value);
	// A number is a Unix time: in seconds up to the year 5138, in milliseconds beyond.
	if (typeof value === 'number') return validOrUndefined(DateTime.fromMillis(value < 1e11 ? value * 1000 : value));
	const text = String(value).trim();
	const options = { zone: env.timezone, setZone: true };
	// ISO 8601 (the editor's date picker), SQL's `2026-05-01 10:00:00`, an email's RFC 2822 date, HTTP's.
	for (const parse of [DateTime.fromISO, DateTime.fromSQL, DateTime.fromRFC2822, DateTime.fromHTTP]) {
		const parsed = parse(text, options);
		if (parsed.isValid) return parsed;
	}
	return undefined;
}

const validOrUndefined = (parsed: DateTime) => (parsed.isValid ? parsed : undefined);

/** A date-time in UTC, written in `format` (luxon's); one it cannot read stays as entered. */
function inUtc(value: unknown, env: ConvertEnv, format: string): unknown {
	if (isAbsent(value)) return undefined;
	return parseDateTime(value, env)?.toUTC().toFormat(format) ?? value;
}

const toUtc = (value: unknown, env: ConvertEnv) => inUtc(value, env, "yyyy-MM-dd'T'HH:mm:ss'Z'");

/** Any date-time → UTC `YYYY-MM-DDTHH:MM:SSZ` (the spec's format, section 4 "Calendar"). */
export const toUtcDateTime: Converter = (value, env) => ok(toUtc(value, env));

/**
 * Any date-time → UTC `YYYY-MM-DDTHH:MM:SS+00:00`: no milliseconds, `+00:00` rather than `Z`, as
 * production takes consent dates and `last_modified` filters (docs/assumptions.md "Production evidence").
 */
export const toOffsetDateTime: Converter = (value, env) => ok(inUtc(value, env, OFFSET_DATE_TIME_FORMAT));

/**
 * Any date-time → UTC `YYYY-MM-DDTHH:MM:SS` with no zone suffix, as production reads the periods of
 * the calendar's searches (in UTC unless asked otherwise; docs/assumptions.md "Production evidence").
 */
export const toZonelessUtc: Converter = (value, env) => ok(inUtc(value, env, "yyyy-MM-dd'T'HH:mm:ss"));

/** A date or date-time → its calendar date `YYYY-MM-DD`, as written (transaction billing dates). */
export const calendarDate: Converter = (value, env) => {
	if (isAbsent(value)) return ok(undefined);
	return ok(parseDateTime(value, env)?.toFormat('yyyy-MM-dd') ?? value);
};

/** Items of a fixedCollection (`{group: [{…}]}`, or one `{…}` when not multiple) → the entries. */
export function entriesOf(value: unknown, group: string): IDataObject[] {
	const entries = (value as IDataObject | undefined)?.[group];
	if (Array.isArray(entries)) return entries as IDataObject[];
	return entries && typeof entries === 'object' ? [entries as IDataObject] : [];
}

/** Header rows → `{name: value}` (webhook custom headers). */
export const keyValues: Converter = (value) => {
	const rows = entriesOf(value, 'header');
	return ok(rows.length ? Object.fromEntries(rows.map((row) => [String(row.name), row.value])) : undefined);
};

/**
 * Digit text → the whole number: spec integers given in forms, sheets and webhooks arrive as text in
 * n8n. Anything else is left as entered, for the field's integer rule to refuse.
 */
export const wholeNumber: Converter = (value) => {
	if (isAbsent(value)) return ok(undefined);
	const text = typeof value === 'string' ? value.trim() : undefined;
	return ok(text !== undefined && /^-?\d+$/.test(text) ? Number(text) : value);
};

/** A participant of a list given whole (an expression, the extra body): its `user_id` as an integer when it is digits. */
function participantOf(entry: unknown): unknown {
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
	const participant = entry as IDataObject;
	return 'user_id' in participant ? { ...participant, user_id: idValue(participant.user_id) } : participant;
}

/** Participant rows → `[{user_id, is_organizer, is_creator}]` (the spec's "the service" list). */
export const participants: Converter = (value) => {
	if (Array.isArray(value)) return ok(value.length ? value.map(participantOf) : undefined);
	const rows = entriesOf(value, 'participant').map((row) => ({
		user_id: idValue(locatorValue(row.userId)),
		is_organizer: row.isOrganizer,
		is_creator: row.isCreator,
	}));
	return ok(rows.length ? rows : undefined);
};

/** A number typed as text stays a number; anything else is left for the rules to judge. */
function numberValue(value: unknown): unknown {
	if (isAbsent(value)) return undefined;
	const number = Number(value);
	return typeof value !== 'boolean' && Number.isFinite(number) ? number : value;
}

/** A number, or text that reads as one → the number; anything else as entered. */
export const numeric: Converter = (value) => ok(numberValue(value));

/** "1, 15" or an array → [1, 15]; entries that are not numbers stay text. */
export const numberList: Converter = (value) => ok(listEntries(value).map(numberValue));

/** "2026-12-25T09:00:00Z, …" or an array → UTC date-times; entries it cannot read stay as typed. */
export const utcDateTimeList: Converter = (value, env) => ok(listEntries(value).map((entry) => toUtc(entry, env)));

/** A postal address → `{street, postal_code, city, country}` (docs/assumptions.md "Customer"). */
export const address: Converter = (value) => {
	const entry = entriesOf(value, 'address')[0];
	if (!entry) return ok(undefined);
	const fields = { street: entry.street, postal_code: entry.postalCode, city: entry.city, country: entry.country };
	return ok(Object.fromEntries(Object.entries(fields).filter(([, text]) => !isAbsent(text))));
};

/** Phone rows → `[{type, number}]` (docs/assumptions.md "Customer"). */
export const phoneList: Converter = (value) => {
	const rows = entriesOf(value, 'phone').map((row) => ({ type: row.type, number: row.number }));
	return ok(rows.length ? rows : undefined);
};
