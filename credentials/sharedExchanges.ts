import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * How long a finished exchange keeps answering callers that still hold the token it replaced.
 * Requests and executions that saw the same 401 reach the credential one after another, each
 * holding the stale token it read before the new one was stored; they get the new token instead
 * of exchanging again.
 */
export const EXCHANGE_GRACE_MS = 30_000;

interface SharedExchange<T> {
	promise: Promise<T>;
	/** When the exchange succeeded (Date.now()); unset while it runs. */
	succeededAt?: number;
}

/**
 * Coalesces token exchanges inside one process: callers with the same key (same client, same stale
 * token) share one exchange in flight, and for `graceMs` after it succeeded get its result. Failures
 * are not remembered, so the next caller exchanges anew. Nothing else is kept: the token itself lives
 * in n8n's credential store.
 */
export class SharedExchanges<T> {
	private readonly exchanges = new Map<string, SharedExchange<T>>();

	constructor(
		private readonly graceMs: number = EXCHANGE_GRACE_MS,
		private readonly now: () => number = Date.now,
	) {}

	run(key: string, exchange: () => Promise<T>): Promise<T> {
		this.forgetExpired();
		const shared = this.exchanges.get(key);
		if (shared) return shared.promise;
		const entry: SharedExchange<T> = {
			promise: exchange().then(
				(result) => {
					entry.succeededAt = this.now();
					return result;
				},
				(error: unknown) => {
					if (this.exchanges.get(key) === entry) this.exchanges.delete(key);
					throw error;
				},
			),
		};
		this.exchanges.set(key, entry);
		return entry.promise;
	}

	private forgetExpired() {
		const now = this.now();
		for (const [key, entry] of this.exchanges) {
			if (entry.succeededAt !== undefined && now - entry.succeededAt >= this.graceMs) this.exchanges.delete(key);
		}
	}
}

/**
 * What makes two exchanges interchangeable: the same client (Auth URL, client id, secret, scope and
 * site or agency id) replacing the same token (or none). A hash, so that the key holds no secret; a
 * changed secret or id is a different key, which keeps the credential's Test button honest.
 */
export function exchangeKey(credentials: ICredentialDataDecryptedObject): string {
	const byAgency = credentials.scope === 'agency';
	const parts = [
		credentials.authUrl,
		credentials.clientId,
		credentials.clientSecret,
		byAgency ? 'agency' : 'site',
		byAgency ? credentials.agencyId : credentials.siteId,
		credentials.accessToken ?? '',
	].map((part) => String(part ?? ''));
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
