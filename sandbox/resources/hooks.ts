/** Webhook subscriptions of the site (`/hooks`), available to every client. */
import { createdAt, pathRecord, route } from '../api';
import type { ApiRoute, World } from '../api';
import { noContent, ok, utcNow } from '../http';
import { WEBHOOK_EVENTS } from '../model';
import type { Webhook } from '../model';
import { FieldReader, objectBody } from '../validation';

/** `property.updated` (named in the spec's overview) is accepted as the same event as PRODUCT_UPDATE. */
const ACCEPTED_ORIGINES: readonly string[] = [...WEBHOOK_EVENTS, 'property.updated'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A hook as the API shows it: production's record, `id, url, headers, authId, format, origines`,
 * nothing more. Its suspension is not shown (production's is silent): only the console and the
 * admin routes show it.
 */
export function hookView(hook: Webhook) {
	const { id, url, headers, authId, format, origines } = hook;
	return { id, url, headers, authId, format, origines };
}

export type HookChanges = Partial<Pick<Webhook, 'url' | 'origines' | 'headers' | 'authId' | 'format'>>;

/**
 * Reads a hook body. `url` and `origines` given as null leave the value unchanged; `headers`,
 * `auth_id` and `format` given as null clear it. An empty `origines` list subscribes to nothing
 * (the hook stays, and receives no delivery); registering a hook needs at least one event.
 */
export function readHookChanges(reader: FieldReader, isRegistration: boolean): HookChanges {
	const changes: HookChanges = {};
	const url = reader.optionalString('url', { nullable: true, maxLength: 2048 });
	if (url && isHttpUrl(url)) changes.url = url;
	else if (url) reader.fail('url', 'must be an absolute http or https URL');
	const origines = reader.optionalStringList('origines', { nullable: true });
	if (isRegistration && origines?.length === 0) reader.fail('origines', 'must list at least one event type');
	origines
		?.filter((origine) => !ACCEPTED_ORIGINES.includes(origine))
		.forEach((origine) =>
			reader.fail('origines', `unknown event type ${origine}; accepted: ${ACCEPTED_ORIGINES.join(', ')}`),
		);
	if (origines) changes.origines = [...new Set(origines)];
	const headers = reader.optionalObject('headers', { nullable: true });
	if (headers) {
		for (const [name, value] of Object.entries(headers)) {
			if (!HEADER_NAME.test(name)) reader.fail(`headers.${name}`, 'is not a valid header name');
			else if (typeof value !== 'string' || /[\r\n]/.test(value))
				reader.fail(`headers.${name}`, 'must be a single-line string');
		}
	}
	if (headers !== undefined) changes.headers = headers as Record<string, string> | null;
	const authId = reader.optionalInteger('auth_id', { nullable: true, min: 1 });
	if (authId !== undefined) changes.authId = authId;
	const format = reader.optionalString('format', { nullable: true, maxLength: 50 });
	if (format !== undefined) changes.format = format;
	return changes;
}

/** Applies an update (API or console); a new URL reactivates a suspended webhook (spec section 3). */
export function updateHook(hook: Webhook, changes: HookChanges): Webhook {
	Object.assign(hook, changes, { updated_at: utcNow() });
	if (changes.url) Object.assign(hook, { status: 'active', consecutive_failures: 0 });
	return hook;
}

/** What the CRM does after failed deliveries (sandbox/webhooks.ts), or its console by hand. */
export function suspendHook(hook: Webhook): Webhook {
	return Object.assign(hook, { status: 'suspended', updated_at: utcNow() });
}

function isHttpUrl(text: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(text).protocol);
	} catch {
		return false;
	}
}

export function hookRoutes({ store }: World): ApiRoute[] {
	return [
		route('GET', '/hooks', {}, (request) => ok(store.hooks.forSite(request.grant.siteId).map(hookView))),
		route('POST', '/hooks', {}, (request) => {
			const body = objectBody(request.body);
			const reader = new FieldReader(body);
			for (const key of ['url', 'origines'])
				if (body[key] === undefined || body[key] === null) reader.fail(key, 'is required');
			const changes = readHookChanges(reader, true);
			reader.throwIfInvalid();
			const now = utcNow();
			const hook: Webhook = {
				id: store.hooks.nextId(),
				site_id: request.grant.siteId,
				url: '',
				headers: null,
				authId: null,
				format: null,
				origines: [],
				status: 'active',
				consecutive_failures: 0,
				created_at: now,
				updated_at: now,
				...changes,
			};
			store.hooks.insert(hook);
			return createdAt(request, `/hooks/${hook.id}`, hookView(hook));
		}),
		route('PUT', '/hooks/{hookId}', {}, (request) => {
			const hook = pathRecord(request, store.hooks, 'hookId', 'Webhook');
			const reader = new FieldReader(objectBody(request.body));
			const changes = readHookChanges(reader, false);
			reader.throwIfInvalid();
			return ok(hookView(updateHook(hook, changes)));
		}),
		route('DELETE', '/hooks/{hookId}', {}, (request) => {
			const hook = pathRecord(request, store.hooks, 'hookId', 'Webhook');
			store.hooks.delete(hook.id);
			return noContent();
		}),
	];
}
