/**
 * The sandbox faults of issue 11's fault run, shared by the in-process bench (bench/fault-run.ts),
 * the real-n8n test (test/real-n8n/reliability.test.ts) and bench (bench/real-n8n-faults.ts).
 */

/**
 * Every fault of the sandbox, none permanent: issue 11's 10 % 429 (Retry-After 1 s), 5 % 503 and a
 * revocation every 200 requests, plus resets before and after processing. The 429s fall on every
 * 10th request whatever the time. Rates are exact, and a request due for two faults gets only the
 * first (reset, 429, 5xx): they are chosen not to align (0.05 would fall on every other 429).
 */
export const EVERY_10TH_THROTTLED = {
	latency_ms: 20,
	rate_429: 0.1,
	retry_after_s: 1,
	rate_5xx: 0.045,
	status_5xx: 503,
	reset_rate: 0.021,
	reset_after_rate: 0.019,
	revoke_token_every: 200,
};

/** The limit of the realistic profile: about half what the node sends at the default Concurrency in real n8n. */
export const LIMIT_PER_SECOND = 50;

/**
 * The same faults with the 429s of a limit as real APIs set one: at most `perSecond` requests per
 * clock second, every request past it refused until the second is over (Retry-After: 1).
 */
export function limitPerSecond(perSecond: number = LIMIT_PER_SECOND) {
	const { rate_429: _everyTenth, retry_after_s: _fixed, ...others } = EVERY_10TH_THROTTLED;
	return { ...others, rate_limit_per_s: perSecond };
}
