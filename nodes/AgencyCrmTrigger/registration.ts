import { createHash, timingSafeEqual } from 'crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * What a workflow keeps between activation and delivery (in the database, not in memory), and the
 * check of each delivery's secret against it. Of the secret only its digest is kept: n8n copies
 * static data into execution records (1.x) and exports, and the secret itself is back in the hook's
 * headers (GET /hooks) whenever the hook is registered again.
 */

/** Header carrying the per-hook secret on every delivery (docs/assumptions.md). */
export const SECRET_HEADER = 'x-agency-crm-secret';

export interface Registration {
	hookId?: number;
	secretDigest?: string;
	webhookUrl?: string;
	/**
	 * What 0.1.0 kept instead of the digest: a workflow activated under 0.1.0 keeps it through an
	 * update of the package (n8n does not activate it again), until its next activation.
	 */
	secret?: string;
}

/** The SHA-256 digest of a delivery secret, in hex: what a registration keeps and deliveries are checked against. */
export function secretDigest(secret: string): string {
	return createHash('sha256').update(secret).digest('hex');
}

type Slot = 'production' | 'test';

/**
 * Editor test listening ("Listen for test event") and the active workflow use different URLs and
 * must never share a hook, so each keeps its own registration. n8n removes test hooks in an
 * "internal" mode, so the registration is found by its URL first, and by the mode when the URL is
 * new (n8n's webhook URL changed since the hook was registered).
 */
export function registrationOf(
	context: Pick<IHookFunctions, 'getWorkflowStaticData' | 'getMode'>,
	url: string,
): Registration {
	const staticData = context.getWorkflowStaticData('node') as Partial<Record<Slot, Registration>>;
	const slots: Slot[] = ['production', 'test'];
	const slot =
		slots.find((candidate) => staticData[candidate]?.webhookUrl === url) ??
		(context.getMode() === 'manual' ? 'test' : 'production');
	staticData[slot] ??= {};
	return staticData[slot];
}

/** The secret a delivery carries, when it carries one as text. */
export function providedSecret(context: Pick<IWebhookFunctions, 'getHeaderData'>): string | undefined {
	const secret = context.getHeaderData()[SECRET_HEADER];
	return typeof secret === 'string' ? secret : undefined;
}

/**
 * Whether a delivery to `url` carries the secret registered for it (or the one 0.1.0 kept). The
 * digests are compared in constant time, so that the secret cannot be guessed from response times.
 */
export function isAuthentic(context: IWebhookFunctions, url: string, provided: string | undefined): boolean {
	const registration = registrationOf(context, url);
	const expected =
		registration.secretDigest ?? (typeof registration.secret === 'string' ? secretDigest(registration.secret) : '');
	if (!expected || provided === undefined) return false;
	const a = Buffer.from(expected);
	const b = Buffer.from(secretDigest(provided));
	return a.length === b.length && timingSafeEqual(a, b);
}
