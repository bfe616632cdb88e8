import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { apiRequest, responseData } from '../shared/transport';
import { hookRequests } from './api';
import type { Registration } from './registration';
import { SECRET_HEADER, registrationOf, secretDigest } from './registration';
import type { TriggerSettings } from './settings';

/** What the API says of a hook: production's record holds `id, url, headers, authId, format, origines`, nothing that tells a suspended hook (docs/assumptions.md). */
export interface Hook {
	id: number;
	url: string;
	origines: string[];
	headers: IDataObject | null;
}

/**
 * The URL the hook delivers to: the trigger's answering webhook when the workflow answers
 * (`responseNode`), else its default one (answered at once).
 */
function deliveryUrl(context: Pick<IHookFunctions, 'getNodeWebhookUrl'>, settings: TriggerSettings): string {
	return context.getNodeWebhookUrl(settings.answeredByWorkflow ? ANSWERING_WEBHOOK : 'default') as string;
}

/** The trigger's webhook whose deliveries the workflow answers (n8n's "setup" name is free for it). */
export const ANSWERING_WEBHOOK = 'setup';

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

/** What an activation found and left: whether a hook of this workflow was there, and its secret. */
export interface Registered {
	hookId: number;
	url: string;
	secret: string;
	events: string[];
	/** Whether a hook this workflow registered before (or one for its URL) was there: updated, not created. */
	existed: boolean;
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
	context.logger.info(
		`Agency CRM Trigger: deleted webhook ${registration.hookId}; what changes until the workflow is activated again is replayed then ("Catch Up on Missed Changes").`,
	);
	clear(registration);
	return true;
}
