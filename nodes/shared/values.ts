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
