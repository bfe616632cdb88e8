/** Statuses worth sending again: throttling and transient gateway failures. */
export const RETRYABLE_STATUSES = [429, 502, 503, 504];

/**
 * The subset that says the request was not processed (throttled, or refused as unavailable), so a
 * create may be sent again. A 502 or 504 may come after the API did the work: creates are not resent.
 */
export const NOT_PROCESSED_STATUSES = [429, 503];

/** Socket-level failures worth sending again when the request is safe to repeat. */
export const RETRYABLE_NETWORK_CODES = [
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
];

/** Failures (resets, 5xx) an attempt may follow; a 429 is not one of them. */
export const MAX_RETRIES = 5;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/** A Retry-After beyond this is not waited for: the run fails with the API's answer instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How long one request waits in all for the API's 429s before it fails. A 429 says the request was
 * not processed and when to come back: it is the API pacing its clients, not a failure, so it uses
 * none of the MAX_RETRIES. Bounded by time instead, so that an API that never stops refusing still
 * ends the run with its answer.
 */
export const MAX_THROTTLED_MS = 300_000;

/** Exponential backoff for attempt 0, 1, 2…: 0.5 s, 1 s, 2 s, 4 s, 8 s, capped at 30 s. */
export function backoffDelayMs(attempt: number): number {
	return Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
}

/** Reads `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now: number = Date.now()): number | undefined {
	if (header === undefined || header === null || header === '') return undefined;
	const text = String(Array.isArray(header) ? header[0] : header).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before attempt `attempt + 1`: the server's Retry-After when given, else the backoff. */
export function retryDelayMs(attempt: number, retryAfterHeader: unknown): number {
	return retryAfterMs(retryAfterHeader) ?? backoffDelayMs(attempt);
}
