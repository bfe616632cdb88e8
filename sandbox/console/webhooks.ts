/**
 * The console's webhooks: the hooks registered on the site, every attempt of every delivery sent to
 * them (event, URL, HTTP status, acknowledgement time, what a receiver answered when it did not
 * acknowledge, the retry due or the suspension it caused), resending a delivery, and suspending a
 * hook or reactivating it the way the spec says: by updating it with a corrected URL (spec
 * sections 3 and 6).
 */
import { invalidField, notFound } from '../http';
import type { Webhook } from '../model';
import type { DeliveryLogEntry } from '../webhooks';
import { readHookChanges, suspendHook, updateHook } from '../resources/hooks';
import { FieldReader } from '../validation';
import { consolePage, consoleRoute, formatDate, siteOf, recordOf } from './common';
import type { ConsoleContext, ConsoleRequest, ConsoleRoute } from './common';
import { executionLink } from './aftermath';
import { accepting, redirectWithNotice } from './forms';
import type { ConsoleReply } from './forms';
import { html, Html, table } from './html';

/** The deliveries shown, newest first. */
const DELIVERIES_SHOWN = 200;

export function webhookRoutes(context: ConsoleContext): ConsoleRoute[] {
	const { world, dispatcher } = context;
	const { store } = world;
	const webhooksPage = (siteId: number) => `/console/webhooks?site=${siteId}`;

	const hookOf = (request: ConsoleRequest) => recordOf(store.hooks, request, 'Webhook');

	const statusClass = (good: boolean) => (good ? 'status-ok' : 'status-failed');

	/** The outcome, with what follows from it: the retry due, the suspension, the record errored. */
	function outcomeOf(delivery: DeliveryLogEntry): string {
		// Entries saved before retries existed have no attempt number.
		const attempt = (delivery.attempt ?? 1) > 1 ? ` (retry ${delivery.attempt - 1})` : '';
		if (delivery.retry_at) return `${delivery.outcome}${attempt}; retry at ${formatDate(delivery.retry_at)}`;
		if (delivery.suspended) return `${delivery.outcome}${attempt}; last retry: webhook suspended`;
		if (delivery.outcome === 'rejected') return `rejected${attempt}: record marked errored`;
		return `${delivery.outcome}${attempt}`;
	}

	/** Suspend (an active hook), and a new URL, which reactivates a suspended one. */
	function hookActions(hook: Webhook): Html {
		const suspend = html`<form class="inline" method="post" action="/console/hooks/${hook.id}/suspend">
			<button type="submit">Suspend</button>
		</form>`;
		return html`${hook.status === 'active' ? suspend : ''}
			<form class="inline" method="post" action="/console/hooks/${hook.id}">
				<input name="url" size="50" value="${hook.url}" aria-label="URL of webhook ${hook.id}" />
				<button type="submit">${hook.status === 'active' ? 'Update URL' : 'Update URL and reactivate'}</button>
			</form>`;
	}

	function webhooks(request: ConsoleRequest, errors?: string[]): { status: number; page: Html } {
		const siteId = siteOf(context, request);
		const hooks = store.hooks.forSite(siteId);
		const deliveries = dispatcher.log
			.latest()
			.filter((delivery) => delivery.site_id === siteId)
			.reverse()
			.slice(0, DELIVERIES_SHOWN);
		const resourcePage = (type: string, id: number) =>
			type.startsWith('CUSTOMER') ? `/console/contacts/${id}` : `/console/properties/${id}`;
		const content = html` <p>
				Hooks are registered through the API: an n8n trigger registers one when its workflow is published. The trigger
				examples start unpublished: publish one in n8n first (<strong>Publish</strong> in n8n 2.x,
				<strong>Activate</strong> in 1.x), then receive a website lead or save a listing here. Each delivery carries
				only <code>event_type</code> and <code>resource_id</code>. Any answer but a 200 within
				${dispatcher.timeoutMs / 1000} s is retried ${dispatcher.retryDelaysMs.length}
				time${dispatcher.retryDelaysMs.length === 1 ? '' : 's'}, after
				${dispatcher.retryDelaysMs.map((delay) => `${delay / 1000} s`).join(', ')}; when the last retry fails, the hook
				is suspended, and events are not sent until its URL is updated (spec section 3). A 422 refuses the record: the
				CRM marks it as errored with the reason given. <a href="${webhooksPage(siteId)}">Refresh</a>
			</p>
			${table(
				'hooks',
				hooks,
				[
					{ label: 'ID', cell: (hook) => hook.id },
					{ label: 'URL', cell: (hook) => hook.url },
					{ label: 'Events', cell: (hook) => hook.origines.join(', ') },
					{ label: 'Headers', cell: (hook) => Object.keys(hook.headers ?? {}).join(', ') },
					{ label: 'Status', cell: (hook) => hook.status, className: (hook) => statusClass(hook.status === 'active') },
					{ label: 'Failures in a row', cell: (hook) => hook.consecutive_failures },
					{ label: '', cell: hookActions },
				],
				(hook) => html`data-hook="${hook.id}"`,
				'No webhook on this site yet: publish a workflow with the Agency CRM Trigger in n8n (a trigger example, say), and its hook appears here.',
			)}
			<h2>Deliveries (newest first)</h2>
			${table(
				'deliveries',
				deliveries,
				[
					{
						label: 'Sent',
						cell: (delivery) =>
							html`${formatDate(delivery.at)} ${delivery.resent ? html`<span class="muted">(resent)</span>` : ''}`,
					},
					{ label: 'Event', cell: (delivery) => delivery.event_type },
					{
						label: 'Resource',
						cell: (delivery) =>
							html`<a href="${resourcePage(delivery.event_type, delivery.resource_id)}">${delivery.resource_id}</a>`,
					},
					{ label: 'Hook', cell: (delivery) => delivery.hook_id },
					...(context.executions
						? [{ label: 'n8n', cell: (delivery: DeliveryLogEntry) => executionLink(context.executions, delivery) }]
						: []),
					{ label: 'URL', cell: (delivery) => delivery.url },
					{ label: 'HTTP status', cell: (delivery) => delivery.status ?? 'none', className: () => 'http-status' },
					{ label: 'Acknowledged in', cell: (delivery) => (delivery.ack_ms === null ? '' : `${delivery.ack_ms} ms`) },
					{
						label: 'Outcome',
						cell: outcomeOf,
						className: (delivery) => statusClass(delivery.outcome === 'delivered'),
					},
					{
						label: 'Error',
						cell: (delivery) =>
							html`${delivery.error}${delivery.response_body ? html`<pre>${delivery.response_body}</pre>` : ''}`,
					},
					{
						label: '',
						cell: (delivery) =>
							html`<form class="inline" method="post" action="/console/deliveries/${delivery.delivery_id}/resend">
								<button type="submit">Resend</button>
							</form>`,
					},
				],
				(delivery) => html`data-delivery="${delivery.delivery_id}" data-attempt="${delivery.attempt}"`,
				'No delivery yet: with a hook registered, receive a website lead (Contacts → New website lead) or save a listing, and each delivery shows here.',
			)}`;
		return {
			status: errors ? 422 : 200,
			page: consolePage(context, request, { title: 'Webhooks', section: 'webhooks', siteId, errors }, content),
		};
	}

	async function resend(request: ConsoleRequest): Promise<ConsoleReply> {
		const logged = dispatcher.log
			.latest()
			.reverse()
			.find((delivery) => delivery.delivery_id === request.params.deliveryId);
		if (!logged) throw notFound(`Delivery ${request.params.deliveryId}`);
		const hook = store.hooks.get(logged.hook_id);
		const back = webhooksPage(logged.site_id);
		if (!hook) return redirectWithNotice(back, `Not resent: webhook ${logged.hook_id} was deleted.`);
		if (hook.status !== 'active')
			return redirectWithNotice(back, `Not resent: webhook ${hook.id} is suspended; update its URL to reactivate it.`);
		const delivery = await dispatcher.resend(logged, hook);
		const answer =
			delivery.status === null ? `no answer (${delivery.error})` : `HTTP ${delivery.status} in ${delivery.ack_ms} ms`;
		return redirectWithNotice(
			back,
			`${delivery.event_type} ${delivery.resource_id} resent to webhook ${hook.id} as delivery ${delivery.delivery_id}: ${answer}, ${delivery.outcome}. The same payload: a trigger that drops repeated deliveries acknowledges it and starts nothing while the record is unchanged.`,
		);
	}

	function suspend(request: ConsoleRequest): ConsoleReply {
		const hook = hookOf(request);
		suspendHook(hook);
		return redirectWithNotice(
			webhooksPage(hook.site_id),
			`Webhook ${hook.id} suspended: no delivery until its URL is updated.`,
		);
	}

	function updateUrl(request: ConsoleRequest): Promise<ConsoleReply> {
		const hook = hookOf(request);
		const wasSuspended = hook.status === 'suspended';
		return accepting(
			() => {
				const reader = new FieldReader({ url: (request.form.url ?? '').trim() });
				const changes = readHookChanges(reader, false);
				if (reader.valid && !changes.url) throw invalidField('url', 'is required');
				reader.throwIfInvalid();
				updateHook(hook, changes);
				return redirectWithNotice(
					webhooksPage(hook.site_id),
					`Webhook ${hook.id} now delivers to ${hook.url}${wasSuspended ? ': reactivated' : ''}.`,
				);
			},
			{ url: `URL of webhook ${hook.id}` },
			(problems) => webhooks({ ...request, query: new URLSearchParams({ site: String(hook.site_id) }) }, problems).page,
		);
	}

	return [
		consoleRoute('GET', '/webhooks', (request) => webhooks(request)),
		consoleRoute('POST', '/hooks/{id}/suspend', suspend),
		consoleRoute('POST', '/hooks/{id}', updateUrl),
		consoleRoute('POST', '/deliveries/{deliveryId}/resend', resend),
	];
}
