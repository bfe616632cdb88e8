import type { Metrics } from '../../../sandbox/metrics';
import { waitFor } from '../waitFor';

/**
 * The sandbox's admin routes (`/_admin`, for tests and benchmarks: counters, faults, request log,
 * edits made in the CRM's own screens), for a sandbox in this process or another.
 */

/** Calls an admin route; an answer other than 2xx throws with its body. */
export async function admin<T = Record<string, unknown>>(
	origin: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${origin}/_admin${path}`, {
		method,
		headers: body === undefined ? undefined : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
	return (text ? JSON.parse(text) : {}) as T;
}

/** What `GET /_admin/counters` answers: token exchanges, requests by route, requests in flight, faults. */
export type SandboxCounters = ReturnType<Metrics['snapshot']>;

export const counters = (origin: string) => admin<SandboxCounters>(origin, 'GET', '/counters');

/** How many requests the sandbox answered on one route (`POST /hooks`) since its counters were reset. */
export const routeCount = async (origin: string, route: string) =>
	(await counters(origin)).requests_by_route[route] ?? 0;

/** An update made in the CRM's own screens: it emits the webhook events a user's edit would. */
export function editInCrm<T = Record<string, unknown>>(
	origin: string,
	resource: 'customer' | 'product',
	id: number,
	changes: Record<string, unknown>,
): Promise<T> {
	return admin<T>(origin, 'POST', '/simulate-edit', { resource, action: 'update', id, changes });
}

/** A webhook registration as the sandbox holds it. */
export interface SandboxHook {
	id: number;
	url: string;
	origines: string[];
	headers: Record<string, string> | null;
	status: string;
}

export const hooksOf = async (origin: string) => (await admin<{ data: SandboxHook[] }>(origin, 'GET', '/hooks')).data;

/**
 * n8n finishes (de)activating a trigger after its API has answered: waits until the sandbox holds
 * exactly `count` hooks, all active (and all for `url`, when given).
 */
export async function hooksSettleTo(origin: string, count: number, url?: string): Promise<SandboxHook[]> {
	return await waitFor(`${count} hook(s)${url ? ` for ${url}` : ''}`, async () => {
		const current = await hooksOf(origin);
		const settled =
			current.length === count &&
			current.every((hook) => hook.status === 'active' && (url === undefined || hook.url === url));
		return settled ? current : undefined;
	});
}

/** A contact created in the CRM's own screens (it sends CUSTOMER_CREATE): its id. */
export async function contactCreatedInCrm(origin: string, changes: Record<string, unknown>): Promise<number> {
	const created = await admin<{ data: { customers_id: number } }>(origin, 'POST', '/simulate-edit', {
		resource: 'customer',
		action: 'create',
		changes,
	});
	return created.data.customers_id;
}

/**
 * Deactivates a trigger's workflow while the API refuses the DELETE: the trigger keeps its hook
 * registered, and the deliveries to it fail (n8n serves an inactive workflow's webhook no more).
 */
export async function deactivateKeepingHook(origin: string, deactivate: () => Promise<unknown>): Promise<void> {
	const before = await routeCount(origin, 'DELETE /hooks/{hookId}');
	await admin(origin, 'POST', '/faults', { rate_5xx: 1, status_5xx: 500 });
	await deactivate();
	await waitFor('the refused DELETE', async () =>
		(await routeCount(origin, 'DELETE /hooks/{hookId}')) > before ? true : undefined,
	);
	await admin(origin, 'DELETE', '/faults');
}
