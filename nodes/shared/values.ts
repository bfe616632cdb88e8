/**
 * Value shapes both nodes read and write: a list as users give it, and production's date-times.
 * The action node's converters (catalogue/convert.ts) and the trigger share them, so that each
 * choice is made once.
 */

/** The trimmed, non-empty entries of a multi-select, an array or a comma-separated text. */
export function listEntries(value: unknown): string[] {
	return (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter(Boolean);
}

/**
 * Luxon's format of production's `+00:00` date-times: its `last_modified` filters and consent dates
 * take `+00:00`, never `Z`, and no milliseconds (docs/assumptions.md, "Production evidence").
 */
export const OFFSET_DATE_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss'+00:00'";

/**
 * A time the API wrote (a record's `created_at`), as milliseconds; undefined when absent or
 * unreadable. One written without its zone is the API's, in UTC, not the n8n server's zone.
 */
export function apiTimeOf(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	const zoned = typeof value === 'number' || /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`;
	const time = new Date(typeof value === 'number' ? value : zoned).getTime();
	return Number.isNaN(time) ? undefined : time;
}

/** A finite number as it was stored, or undefined for anything else (static data read back). */
export const finiteNumber = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;
