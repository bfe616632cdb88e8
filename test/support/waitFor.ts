import { isNoAnswer } from '../../tools/n8n/network';

/**
 * Polls `probe` until it gives a value (not undefined or false), or fails after `timeoutMs`. A probe that
 * throws because the server gave no answer (a connection refused or reset by a busy n8n) means
 * "not yet"; any other error is thrown at once. On timeout, the last such failure is named.
 */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 20_000,
	intervalMs = 200,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastNoAnswer: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			if (!isNoAnswer(error)) throw error;
			lastNoAnswer = error;
		}
		if (Date.now() > deadline) {
			const cause = lastNoAnswer ? ` (last connection failure: ${String((lastNoAnswer as Error).message)})` : '';
			throw new Error(`Timed out waiting for ${what}${cause}`);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}
