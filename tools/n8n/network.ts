/**
 * What a busy or restarting n8n does to a client on loopback: the connection is refused while it
 * (re)starts, or reset while it is overloaded. Neither is an answer: a poll reads it as "not yet",
 * and a request that surely was not processed may be sent again.
 */

/** Connection codes that say the server gave no answer (undici puts them on `cause`). */
const NO_ANSWER_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
]);

/** Whether `error` is a failed connection rather than an answer or a bug: `fetch failed` and its cause. */
export function isNoAnswer(error: unknown): boolean {
	const { message, code, cause } = (error ?? {}) as { message?: string; code?: string; cause?: unknown };
	if (code && NO_ANSWER_CODES.has(code)) return true;
	if (cause && cause !== error && isNoAnswer(cause)) return true;
	return message === 'fetch failed' || message === 'other side closed';
}

/** Whether a request that failed this way was certainly not processed: refused before it reached n8n. */
function surelyNotProcessed(error: unknown): boolean {
	const { code, cause } = (error ?? {}) as { code?: string; cause?: unknown };
	return code === 'ECONNREFUSED' || (cause !== undefined && cause !== error && surelyNotProcessed(cause));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `fetch` for test and tooling clients of n8n, bounded by `budgetMs`: a read (GET) is sent again
 * after any failed connection; any request after a refused connection or a 503 (n8n answers
 * "Database is not ready" under a burst), which say it was not processed. Other failures are thrown
 * or returned as they came.
 */
export async function fetchPatiently(url: string, init: RequestInit = {}, budgetMs = 30_000): Promise<Response> {
	const deadline = Date.now() + budgetMs;
	const isRead = (init.method ?? 'GET').toUpperCase() === 'GET';
	for (let attempt = 0; ; attempt++) {
		const wait = Math.min(250 * 2 ** attempt, 2_000);
		const more = () => Date.now() + wait < deadline;
		try {
			const response = await fetch(url, init);
			if (response.status !== 503 || !more()) return response;
			await response.arrayBuffer();
		} catch (error) {
			if (!more() || !isNoAnswer(error) || !(isRead || surelyNotProcessed(error))) throw error;
		}
		await pause(wait);
	}
}
