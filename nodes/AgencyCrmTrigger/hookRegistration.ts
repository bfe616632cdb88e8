import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { apiRequest, responseData } from '../shared/transport';
import { hookRequests } from './api';
import { SECRET_HEADER, secretDigest } from './secret';
import type { TriggerSettings } from './settings';

/** What the API says of a hook (spec section 2 "Webhook"), and the suspension keys it may add. */
export interface Hook {
	id: number;
	url: string;
	origines: string[];
	headers: IDataObject | null;
	status?: unknown;
	active?: unknown;
	is_active?: unknown;
	suspended?: unknown;
}

/**
 * Whether the API says the hook is suspended. The spec names no such field (section 2): the sandbox's
 * `status` and the usual spellings are read (docs/assumptions.md); a hook that says nothing counts as
 * active, and is reactivated by every activation anyway.
 */
function isSuspended(hook: Hook): boolean {
	return (
		(typeof hook.status === 'string' && hook.status.toLowerCase() === 'suspended') ||
		hook.suspended === true ||
		hook.active === false ||
		hook.is_active === false
	);
}

/**
 * What a workflow keeps between activation and delivery: in the database, not in memory. Of the
 * secret only its digest: n8n copies static data into execution records (1.x) and exports, and the
 * secret itself is back in the hook's headers (GET /hooks) whenever the hook is registered again.
 */
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

/** The digest deliveries are checked against: the registration's, or that of the secret 0.1.0 kept. */
export function expectedSecretDigest(registration: Registration): string | undefined {
	if (registration.secretDigest) return registration.secretDigest;
	return typeof registration.secret === 'string' ? secretDigest(registration.secret) : undefined;
}

type Slot = 'production' | 'test';

/**
 * The URL the hook delivers to: the trigger's answering webhook when the workflow answers
 * (`responseNode`), else its default one (answered at once).
 */
function deliveryUrl(context: Pick<IHookFunctions, 'getNodeWebhookUrl'>, settings: TriggerSettings): string {
	return context.getNodeWebhookUrl(settings.answeredByWorkflow ? ANSWERING_WEBHOOK : 'default') as string;
}

/** The trigger's webhook whose deliveries the workflow answers (n8n's "setup" name is free for it). */
export const ANSWERING_WEBHOOK = 'setup';

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

function clear(registration: Registration) {
	delete registration.hookId;
	delete registration.secretDigest;
	delete registration.webhookUrl;
	delete registration.secret;
}

async function listHooks(context: IHookFunctions): Promise<Hook[]> {
	const data = responseData(await apiRequest(context, hookRequests.list()));
	return Array.isArray(data) ? (data as Hook[]) : [];
}

function secretOf(hook: Hook | undefined): string | undefined {
	const headers = hook?.headers ?? {};
	const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === SECRET_HEADER);
	return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

/** What an activation found and left: whether a hook of this workflow was there (and suspended), and its secret. */
export interface Registered {
	hookId: number;
	url: string;
	secret: string;
	events: string[];
	/** Whether a hook this workflow registered before (or one for its URL) was there. */
	existed: boolean;
	/** Whether the API said it was suspended (so deliveries were lost), before this activation reactivated it. */
	wasSuspended: boolean;
}

/**
 * Makes exactly one hook point here: the one this workflow registered before (even under an old
 * URL), else one already registered for this URL, updated with PUT; a new one only when neither
 * exists. The PUT carries the URL, which reactivates a suspended hook (spec section 3): the spec
 * shows no field that tells a suspended hook from an active one, so every activation sends it.
 * The secret is the one the hook already carries, else a new one; the registration keeps its digest
 * (of the hook's answer: ours, unless a lost answer made us adopt another's).
 */
export async function registerHook(context: IHookFunctions, settings: TriggerSettings): Promise<Registered> {
	const { events } = settings;
	const url = deliveryUrl(context, settings);
	const registration = registrationOf(context, url);
	const hooks = await listHooks(context);
	const existing = hooks.find((hook) => hook.id === registration.hookId) ?? hooks.find((hook) => hook.url === url);
	const secret = secretOf(existing) ?? randomBytes(32).toString('hex');
	const body: IDataObject = {
		url,
		origines: events,
		headers: { ...(existing?.headers ?? {}), [SECRET_HEADER]: secret },
	};
	// A POST whose answer was lost (a reset, a 502, a 504) may have registered the hook: it is looked
	// for by its URL before the POST is sent again, which would deliver every event twice.
	const registeredMeanwhile = async () => {
		const hook = (await listHooks(context)).find((candidate) => candidate.url === url);
		return hook && { statusCode: 200, body: { data: hook }, headers: {} };
	};
	const response = existing
		? await apiRequest(context, hookRequests.update(existing.id, body))
		: await apiRequest(context, { ...hookRequests.create(body), lookUpOutcome: registeredMeanwhile });
	const hook = responseData(response) as Hook;
	const kept = secretOf(hook) ?? secret;
	Object.assign(registration, {
		hookId: hook.id ?? existing?.id,
		secretDigest: secretDigest(kept),
		webhookUrl: url,
	});
	delete registration.secret;
	return {
		hookId: registration.hookId as number,
		url,
		secret: kept,
		events,
		existed: existing !== undefined,
		wasSuspended: existing !== undefined && isSuspended(existing),
	};
}

/** Removes the hook; one already gone (404) counts as removed. Failures are logged, not hidden. */
export async function unregisterHook(context: IHookFunctions, settings: TriggerSettings): Promise<boolean> {
	const registration = registrationOf(context, deliveryUrl(context, settings));
	if (registration.hookId === undefined) return true;
	try {
		await apiRequest(context, hookRequests.remove(registration.hookId));
	} catch (error) {
		const status = Number((error as { httpCode?: string }).httpCode);
		if (status !== 404) {
			context.logger.error(`Agency CRM Trigger: could not delete webhook ${registration.hookId}`, {
				error: (error as Error).message,
			});
			return false;
		}
	}
	clear(registration);
	return true;
}
