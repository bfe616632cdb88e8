/**
 * Admin routes under `/_admin/` (no authentication): they drive and inspect the sandbox for tests
 * and demos. They are not part of the simulated API.
 */
import type { AnswerProfiles } from './answerProfiles';
import { describeProfiles } from './answerProfiles';
import type { World } from './api';
import type { TokenStore } from './auth';
import type { Faults } from './faults';
import { invalidField, notFound, Reply } from './http';
import type { Metrics } from './metrics';
import { REQUEST_LOG_SIZE } from './metrics';
import type { RoutePattern } from './router';
import { applyBodyAliases } from './aliases';
import { MAX_BURST, sendBurst } from './burst';
import { duplicateGroups } from './resources/customers/duplicates';
import { readCustomerChanges } from './resources/customers/fields';
import { createCustomer, customerView, updateCustomer } from './resources/customers/records';
import { hookView } from './resources/hooks';
import { editUser, userView } from './resources/users';
import {
	createProduct,
	deleteProduct,
	productView,
	readProductChanges,
	updateProduct,
	WRITTEN_FETCH,
} from './resources/products';
import { FieldReader, objectBody } from './validation';
import type { WebhookDispatcher } from './webhooks';

export interface AdminRequest {
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
}

export interface AdminRoute extends RoutePattern {
	summary: string;
	handler: (request: AdminRequest) => Reply | Promise<Reply>;
}

export interface AdminDependencies {
	world: World;
	tokens: TokenStore;
	faults: Faults;
	profiles: AnswerProfiles;
	metrics: Metrics;
	dispatcher: WebhookDispatcher;
}

const json = (body: unknown): Reply => ({ status: 200, body });

function adminRoute(method: string, pattern: string, summary: string, handler: AdminRoute['handler']): AdminRoute {
	return { method, pattern: `/_admin${pattern}`, summary, handler };
}

/** Faults and answer profiles alike: set for one client or for all, read back, cleared. */
interface ClientSetting {
	configure(body: unknown, knownClient: (clientId: string) => boolean): unknown;
	describe(): unknown;
	clear(): void;
}

function clientSettingRoutes(
	pattern: string,
	setting: ClientSetting,
	knownClient: (clientId: string) => boolean,
	summaries: { read: string; set: string; clear: string },
	readBack: () => unknown = () => setting.describe(),
): AdminRoute[] {
	return [
		adminRoute('GET', pattern, summaries.read, () => json({ data: readBack() })),
		adminRoute('POST', pattern, summaries.set, (request) =>
			json({ data: setting.configure(request.body, knownClient) }),
		),
		adminRoute('DELETE', pattern, summaries.clear, () => {
			setting.clear();
			return json({ data: setting.describe() });
		}),
	];
}

function readLimit(query: URLSearchParams, fallback: number): number {
	const reader = FieldReader.forQuery(query);
	const limit = reader.optionalInteger('limit', { min: 1, max: REQUEST_LOG_SIZE }) ?? fallback;
	reader.throwIfInvalid();
	return limit;
}

export function adminRoutes({ world, tokens, faults, profiles, metrics, dispatcher }: AdminDependencies): AdminRoute[] {
	const { store } = world;
	const knownClient = (clientId: string) => store.clients.has(clientId);

	/** Internal records by kind, for tests to read back what the API wrote. */
	const recordReaders: Record<string, (id: string) => unknown> = {
		agency: (id) => store.agencies.get(Number(id)),
		customer: (id) => store.customers.get(Number(id)),
		consent: (id) => store.consents.get(Number(id)),
		search_request: (id) => store.searchRequests.get(Number(id)),
		follow_up: (id) => {
			const [customerId, productId] = id.split(/[:-]/).map(Number);
			return store.followUp(customerId, productId);
		},
		action: (id) => store.actions.get(Number(id)),
		product: (id) => store.products.get(Number(id)),
		transaction: (id) => store.transactions.get(Number(id)),
		mandate: (id) => store.mandates.get(Number(id)),
		user: (id) => store.users.get(Number(id)),
		calendar_event: (id) => store.calendarEvents.get(Number(id)),
		hook: (id) => store.hooks.get(Number(id)),
		rejection: (id) => store.rejections.get(id),
	};

	/** Applies a change as if made in the CRM's screens: same validation, same webhook events. */
	function simulateEdit(body: unknown): Reply {
		const reader = new FieldReader(objectBody(body));
		const resource = reader.requiredOneOf('resource', ['customer', 'product', 'user'] as const);
		const action = reader.requiredOneOf('action', ['create', 'update', 'delete'] as const);
		// Production sends PRODUCT_DELETE, and no event for a deleted contact.
		if (action === 'delete' && resource === 'customer') reader.fail('action', 'delete applies to products only');
		// A user is archived, hidden or given delegation in the CRM's screens; the API creates and deletes.
		if (action !== 'update' && resource === 'user') reader.fail('action', 'a user is only updated here');
		const id = action === 'create' ? undefined : reader.requiredInteger('id', { min: 1 });
		const siteId = reader.optionalInteger('site_id') ?? 1;
		if (!store.sites.has(siteId)) reader.fail('site_id', `unknown site ${siteId}`);
		const changesBody = reader.optionalObject('changes') ?? {};
		// Deprecated names are accepted here as on the customer endpoints.
		applyBodyAliases(changesBody, true);
		const changesReader = reader.nested(changesBody, 'changes');
		reader.throwIfInvalid();

		if (resource === 'user') {
			const user = store.users.get(id as number);
			if (!user) throw notFound(`User ${id}`);
			return json({ data: userView(editUser(user, changesReader)) });
		}
		if (resource === 'customer') {
			const existing = id === undefined ? undefined : store.customers.get(id);
			if (id !== undefined && !existing) throw notFound(`Customer ${id}`);
			const targetSite = existing?.site_id ?? siteId;
			const changes = readCustomerChanges(changesReader, store, targetSite, existing);
			if (changes.agency_id !== undefined && !store.agencyIdsOfSite(targetSite).includes(changes.agency_id))
				changesReader.fail('agency_id', `is not an agency of site ${targetSite}`);
			changesReader.throwIfInvalid();
			const customer = existing
				? updateCustomer(world, existing, changes)
				: createCustomer(world, targetSite, { lastname: 'Contact saisi dans le CRM', ...changes });
			return json({ data: customerView(store, customer) });
		}
		const existing = id === undefined ? undefined : store.products.get(id);
		if (id !== undefined && !existing) throw notFound(`Product ${id}`);
		if (existing && action === 'delete') {
			deleteProduct(world, existing);
			return json({ data: { product_id: existing.product_id, deleted: true } });
		}
		const targetSite = existing?.site_id ?? siteId;
		const changes = readProductChanges(changesReader, store, targetSite);
		if (changes.agency_id !== undefined && !store.agencyIdsOfSite(targetSite).includes(changes.agency_id))
			changesReader.fail('agency_id', `is not an agency of site ${targetSite}`);
		changesReader.throwIfInvalid();
		const product = existing ? updateProduct(world, existing, changes) : createProduct(world, targetSite, changes);
		return json({ data: productView(store, product, WRITTEN_FETCH) });
	}

	const routes: AdminRoute[] = [
		adminRoute('GET', '', 'this list', () =>
			json({ data: routes.map(({ method, pattern, summary }) => ({ method, path: pattern, summary })) }),
		),
		...clientSettingRoutes('/faults', faults, knownClient, {
			read: 'faults in force',
			set: 'set faults {client_id?, latency_ms?, rate_429?, retry_after_s?, rate_limit_per_s?, rate_5xx?, status_5xx?, reset_rate?, reset_after_rate?, revoke_token_every?, consent_proof_failure?, consent_dropped?, include_token?, only_route?, forbidden_routes?}',
			clear: 'clear every fault',
		}),
		...clientSettingRoutes(
			'/answer-profile',
			profiles,
			knownClient,
			{
				read: 'answer profiles in force, and what each changes',
				set: 'answer as the spec also allows {client_id?, profile}: one profile for a client, or for every client',
				clear: 'back to the default answers for every client',
			},
			() => ({ ...profiles.describe(), profiles: describeProfiles() }),
		),
		adminRoute('POST', '/revoke-tokens', 'revoke the live tokens {client_id?}', (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const clientId = reader.optionalString('client_id', { nullable: true }) ?? undefined;
			reader.throwIfInvalid();
			if (clientId !== undefined && !knownClient(clientId))
				throw invalidField('client_id', `unknown client ${clientId}`);
			return json({ revoked: tokens.revoke(clientId) });
		}),
		adminRoute(
			'GET',
			'/tokens',
			'every token issued ?limit=N (oldest first; revoked and expired ones too, with live)',
			(request) =>
				json({
					data: tokens.issued
						.latest(readLimit(request.query, 100))
						.map((entry) => ({ ...entry, live: tokens.isLive(entry.access_token) })),
				}),
		),
		adminRoute(
			'GET',
			'/counters',
			'token exchanges, requests by route, deliveries, requests in flight, injected faults',
			() => json(metrics.snapshot()),
		),
		adminRoute(
			'POST',
			'/reset',
			'reset counters, request and delivery logs, faults, late acknowledgements (not data)',
			() => {
				metrics.reset();
				dispatcher.reset();
				faults.clear();
				return json({ reset: true });
			},
		),
		adminRoute('GET', '/requests', 'request log ?limit=N (oldest first)', (request) =>
			json({ data: metrics.requests.latest(readLimit(request.query, 100)) }),
		),
		adminRoute('GET', '/hooks', 'every webhook of every site', () =>
			json({
				data: [...store.hooks.all()].map((hook) => ({
					...hookView(hook),
					status: hook.status,
					site_id: hook.site_id,
					consecutive_failures: hook.consecutive_failures,
				})),
			}),
		),
		adminRoute('GET', '/deliveries', 'webhook delivery log ?limit=N (oldest first)', (request) =>
			json({ data: dispatcher.log.latest(readLimit(request.query, 100)) }),
		),
		adminRoute(
			'POST',
			'/deliveries/burst',
			'send N webhook deliveries at once {hook_id? | site_id?, count, event_type?, resource_ids?}; answers each delivery and latency percentiles',
			(request) => sendBurst(store, dispatcher, request.body),
		),
		adminRoute(
			'POST',
			'/deliveries/late-acks',
			'count the next N acknowledgements as late, as if they came after the timeout {count}: each is retried',
			(request) => {
				const reader = new FieldReader(objectBody(request.body));
				const count = reader.requiredInteger('count', { min: 0, max: MAX_BURST });
				reader.throwIfInvalid();
				dispatcher.countNextAcksAsLate(count);
				return json({ data: { late_acks: count } });
			},
		),
		adminRoute(
			'GET',
			'/duplicate-contacts',
			'customers of a site that duplicate another (same e-mail or a phone in common) ?site_id=1',
			(request) => {
				const reader = FieldReader.forQuery(request.query);
				const siteId = reader.optionalInteger('site_id', { min: 1 }) ?? 1;
				if (!store.sites.has(siteId)) reader.fail('site_id', `unknown site ${siteId}`);
				reader.throwIfInvalid();
				const groups = duplicateGroups(store, siteId);
				return json({
					data: {
						site_id: siteId,
						customers: store.customers.forSite(siteId).length,
						duplicate_contacts: groups.reduce((sum, group) => sum + group.customers_ids.length - 1, 0),
						groups,
					},
				});
			},
		),
		adminRoute(
			'POST',
			'/simulate-edit',
			'edit in the CRM screens {resource: customer|product|user, action: create|update|delete (products), id?, site_id?, changes?}',
			(request) => simulateEdit(request.body),
		),
		adminRoute(
			'GET',
			'/records/{kind}/{id}',
			`read a record; kinds: ${Object.keys(recordReaders).join(', ')}`,
			(request) => {
				const { kind, id } = request.params;
				const read = recordReaders[kind];
				if (!read) throw notFound(`Record kind ${kind} (kinds: ${Object.keys(recordReaders).join(', ')})`);
				const record = read(id);
				if (record === undefined) throw notFound(`${kind} ${id}`);
				return json({ data: record });
			},
		),
	];
	return routes;
}
