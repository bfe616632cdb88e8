/** What the console's pages share: their request, the site shown, the page layout, what an event reached. */
import type { World } from '../api';
import { notFound } from '../http';
import type { WebhookEvent } from '../model';
import type { MultipartPart } from '../multipart';
import type { RoutePattern } from '../router';
import type { Table } from '../store';
import { rejectionKey, subscribes } from '../webhooks';
import { aftermathOf, awaitedOf, awaitingValue, AWAITING_PARAM } from './aftermath';
import type { AftermathSources } from './aftermath';
import { redirectWithNotice } from './forms';
import type { ConsoleReply, FormFields } from './forms';
import { html, Html, page } from './html';
import type { Section } from './html';

export const CONSOLE_PATH = '/console';

export interface ConsoleContext extends AftermathSources {
	world: World;
}

export interface ConsoleRequest {
	params: Record<string, string>;
	query: URLSearchParams;
	form: FormFields;
	/** The files of a multipart form. */
	files: MultipartPart[];
}

export interface ConsoleRoute extends RoutePattern {
	handler: (request: ConsoleRequest) => ConsoleReply | Promise<ConsoleReply>;
}

export function consoleRoute(method: string, pattern: string, handler: ConsoleRoute['handler']): ConsoleRoute {
	return { method, pattern: `${CONSOLE_PATH}${pattern}`, handler };
}

/** The site a list or form is about: `site` in the query or the form, else site 1. */
export function siteOf({ world }: ConsoleContext, request: ConsoleRequest): number {
	const text = request.form.site ?? request.query.get('site') ?? '1';
	const siteId = Number(text);
	if (!world.store.sites.has(siteId)) throw notFound(`Site ${text}`);
	return siteId;
}

/** A console page in the common layout. */
export function consolePage(
	context: ConsoleContext,
	request: ConsoleRequest,
	layout: { title: string; section: Section; siteId: number; errors?: string[] },
	content: Html,
): Html {
	const sites = [...context.world.store.sites.values()].map(({ site_id, name }) => ({ site_id, name }));
	const awaited = awaitedOf(request.query.get(AWAITING_PARAM));
	const aftermath = awaited ? aftermathOf(context, awaited) : undefined;
	return page(
		{
			...layout,
			sites,
			notice: request.query.get('notice') ?? undefined,
			progress: aftermath?.report,
			refreshSeconds: aftermath?.refreshSeconds,
		},
		content,
	);
}

/** The site's active hooks subscribed to the event. */
function hooksReached({ world }: ConsoleContext, siteId: number, event: WebhookEvent) {
	return world.store.hooks.forSite(siteId).filter((hook) => hook.status === 'active' && subscribes(hook, event));
}

/** What an event the console just caused reaches: the site's active hooks subscribed to it. */
export function eventReach(context: ConsoleContext, siteId: number, event: WebhookEvent): string {
	const hooks = hooksReached(context, siteId, event);
	if (hooks.length === 0) return `${event}: no active webhook of this site subscribes to it, so nothing was sent.`;
	const ids = hooks.map((hook) => hook.id).join(', ');
	return `${event} sent to ${hooks.length === 1 ? `webhook ${ids}` : `webhooks ${ids}`} (Webhooks shows each delivery).`;
}

/**
 * After a form's change that sends `event`: to `target`, with a notice saying what was done and what
 * the event reached; when it reached a webhook, the page then follows what came of it (aftermath.ts).
 */
export function redirectAfterEvent(
	context: ConsoleContext,
	{ siteId, event, resourceId }: { siteId: number; event: WebhookEvent; resourceId: number },
	target: string,
	done: string,
): ConsoleReply {
	const reply = redirectWithNotice(target, `${done} ${eventReach(context, siteId, event)}`);
	if (hooksReached(context, siteId, event).length === 0 || !('redirect' in reply)) return reply;
	const awaiting = awaitingValue({ event, resourceId, since: new Date().toISOString() });
	return { redirect: `${reply.redirect}&${AWAITING_PARAM}=${encodeURIComponent(awaiting)}` };
}

/** The record named by the page's `{id}`, or a 404 naming it. */
export function recordOf<T extends { site_id: number }>(table: Table<T>, request: ConsoleRequest, label: string): T {
	const record = table.get(Number(request.params.id));
	if (!record) throw notFound(`${label} ${request.params.id}`);
	return record;
}

const PAGE_SIZE = 50;

/**
 * One page of a list: the site's records newest first, those whose `searched` fields contain the
 * query `q` (any case), 50 at a time; with the search form (and `actions` beside it), the count,
 * and a link to the next page.
 */
export function listPage<T>(
	request: ConsoleRequest,
	{
		path,
		siteId,
		records,
		searched,
		noun,
		searchLabel,
		actions = html``,
	}: {
		path: string;
		siteId: number;
		records: readonly T[];
		searched: (record: T) => unknown[];
		noun: string;
		searchLabel: string;
		actions?: Html;
	},
): { shown: T[]; controls: Html; next: Html } {
	const search = (request.query.get('q') ?? '').trim().toLowerCase();
	const pageNumber = Math.max(1, Number(request.query.get('page')) || 1);
	const matching = [...records]
		.reverse()
		.filter((record) => !search || searched(record).join(' ').toLowerCase().includes(search));
	const end = pageNumber * PAGE_SIZE;
	const nextPage = `${path}?site=${siteId}&q=${encodeURIComponent(search)}&page=${pageNumber + 1}`;
	return {
		shown: matching.slice(end - PAGE_SIZE, end),
		controls: html`<form method="get" action="${path}">
				<input type="hidden" name="site" value="${siteId}" />
				<label><span>Search (${searchLabel})</span><input name="q" value="${search}" type="search" /></label>
				<button type="submit">Search</button>
				${actions}
			</form>
			<p class="muted">${matching.length} ${noun}${search ? html` matching “${search}”` : ''}, newest first.</p>`,
		next: matching.length > end ? html`<p><a href="${nextPage}">Next ${PAGE_SIZE}</a></p>` : html``,
	};
}

export function formatDate(utc: string | null | undefined): string {
	return utc ? utc.replace('T', ' ').replace('Z', ' UTC') : '';
}

/**
 * What the CRM shows on a record a receiver refused (a 422 to one of its deliveries): errored, with
 * the receiver's reason; nothing when it is not errored.
 */
export function rejectionNotice({ world }: ConsoleContext, resourceType: 'customer' | 'product', id: number): Html {
	const rejection = world.store.rejections.get(rejectionKey(resourceType, id));
	if (!rejection) return html``;
	return html`<div class="errors" role="alert" id="rejection">
		Errored: webhook ${rejection.hook_id} refused its ${rejection.event_type} delivery on ${formatDate(rejection.at)}
		(HTTP 422): “${rejection.reason}”. A later delivery the receiver takes clears it.
	</div>`;
}
