import { createHash, timingSafeEqual } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

/** Header carrying the per-hook secret on every delivery (docs/assumptions.md). */
export const SECRET_HEADER = 'x-agency-crm-secret';

/** The SHA-256 digest of a delivery secret, in hex: what a registration keeps and deliveries are checked against. */
export function secretDigest(secret: string): string {
	return createHash('sha256').update(secret).digest('hex');
}

/**
 * Whether the provided secret is the registered one, given the registration's digest. The digests
 * are compared in constant time, so that the secret cannot be guessed from response times.
 */
export function secretMatches(expectedDigest: string | undefined, provided: unknown): boolean {
	if (!expectedDigest || typeof provided !== 'string') return false;
	const a = Buffer.from(expectedDigest);
	const b = Buffer.from(secretDigest(provided));
	return a.length === b.length && timingSafeEqual(a, b);
}

export function providedSecret(context: Pick<IWebhookFunctions, 'getHeaderData'>): unknown {
	return context.getHeaderData()[SECRET_HEADER];
}
