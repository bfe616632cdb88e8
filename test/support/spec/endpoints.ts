/**
 * Every endpoint of the Agency CRM API V2 specification (version 1.4.0, section 4 "Endpoints"), except
 * the token endpoint, written as the spec writes them, and those production serves where the spec says
 * "not shown" (docs/assumptions.md "Production evidence"), each under a section that says so. The one
 * list the guards compare against: the catalogue, the sandbox routes and the in-process cases must each
 * cover it exactly.
 */
export interface SpecEndpoint {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** Relative to `{base_url}`, placeholders as the spec names them. */
	path: string;
	/** The subsection of spec section 4 that lists it. */
	section: string;
}

/** The section of the endpoints production serves that the spec leaves out ("Other calendar endpoints … not shown"). */
export const EVIDENCE_CALENDAR = 'Calendar (production evidence)';

export const SPEC_ENDPOINTS: readonly SpecEndpoint[] = [
	{ method: 'GET', path: '/discovery', section: 'Discovery and agencies' },
	{ method: 'GET', path: '/agencies', section: 'Discovery and agencies' },
	{ method: 'GET', path: '/agencies/{agencyId}', section: 'Discovery and agencies' },
	{ method: 'POST', path: '/products', section: 'Products' },
	{ method: 'POST', path: '/products/search', section: 'Products' },
	{ method: 'GET', path: '/products/{productId}', section: 'Products' },
	{ method: 'PATCH', path: '/products/{productId}', section: 'Products' },
	{ method: 'GET', path: '/products/{productId}/lots', section: 'Products' },
	{ method: 'POST', path: '/products/{productId}/views', section: 'Products' },
	{ method: 'POST', path: '/products/{productId}/dpeGes', section: 'Products' },
	{ method: 'POST', path: '/products/{productId}/pictures/public', section: 'Products' },
	{ method: 'POST', path: '/products/{productId}/pictures/private', section: 'Products' },
	{ method: 'GET', path: '/products/{productId}/actions', section: 'Products' },
	{ method: 'POST', path: '/products/{productId}/actions', section: 'Products' },
	{ method: 'GET', path: '/criterias/product/all', section: 'Criterias' },
	{ method: 'GET', path: '/criterias/product/{criteriaId}', section: 'Criterias' },
	// Not in the spec: production serves it (docs/assumptions.md "Production evidence", list values by code).
	{ method: 'GET', path: '/criterias/product/{criteriaId}/values', section: 'Criterias' },
	{ method: 'GET', path: '/criterias/search-requests', section: 'Criterias' },
	{ method: 'GET', path: '/criterias/zone-list', section: 'Criterias' },
	{ method: 'GET', path: '/criterias/categories/{categoryId}', section: 'Criterias' },
	{ method: 'POST', path: '/customers', section: 'Customers' },
	{ method: 'POST', path: '/customers/search', section: 'Customers' },
	{ method: 'GET', path: '/customers/{customerId}', section: 'Customers' },
	{ method: 'PATCH', path: '/customers/{customerId}', section: 'Customers' },
	{ method: 'POST', path: '/customers/{customerId}/consent', section: 'Customers' },
	{ method: 'DELETE', path: '/customers/{customerId}/consent', section: 'Customers' },
	{ method: 'POST', path: '/customers/{customerId}/search-requests', section: 'Customers' },
	{ method: 'PATCH', path: '/customers/{customerId}/search-requests/{searchRequestId}', section: 'Customers' },
	{ method: 'GET', path: '/customers/{customerId}/follow-ups', section: 'Customers' },
	{ method: 'POST', path: '/customers/{customerId}/follow-ups/{productId}', section: 'Customers' },
	{ method: 'PATCH', path: '/customers/{customerId}/follow-ups/{productId}', section: 'Customers' },
	{ method: 'DELETE', path: '/customers/{customerId}/follow-ups/{productId}', section: 'Customers' },
	{ method: 'GET', path: '/customers/{customerId}/actions', section: 'Customers' },
	{ method: 'POST', path: '/customers/{customerId}/actions', section: 'Customers' },
	{ method: 'GET', path: '/customers/groups', section: 'Customers' },
	{ method: 'GET', path: '/customers/origins', section: 'Customers' },
	{ method: 'GET', path: '/actions/types', section: 'Customers' },
	{ method: 'POST', path: '/leads/sellers', section: 'Leads' },
	{ method: 'POST', path: '/leads/buyers', section: 'Leads' },
	{ method: 'POST', path: '/transactions/agreement/search', section: 'Transactions' },
	{ method: 'POST', path: '/transactions/sales-offers/search', section: 'Transactions' },
	{ method: 'POST', path: '/transactions/leases/search', section: 'Transactions' },
	{ method: 'GET', path: '/agreement/{compromisId}', section: 'Transactions' },
	{ method: 'PUT', path: '/agreement/{compromisId}', section: 'Transactions' },
	{ method: 'GET', path: '/users', section: 'Users' },
	{ method: 'POST', path: '/users', section: 'Users' },
	{ method: 'GET', path: '/users/{userId}', section: 'Users' },
	{ method: 'PATCH', path: '/users/{userId}', section: 'Users' },
	{ method: 'DELETE', path: '/users/{userId}', section: 'Users' },
	{ method: 'POST', path: '/users/{userId}/photo', section: 'Users' },
	{ method: 'DELETE', path: '/users/{userId}/photo', section: 'Users' },
	{ method: 'GET', path: '/users/groups', section: 'Users' },
	{ method: 'GET', path: '/users/types', section: 'Users' },
	{ method: 'GET', path: '/users/genders', section: 'Users' },
	{ method: 'GET', path: '/mandates', section: 'Mandates' },
	{ method: 'GET', path: '/mandates/{mandateId}', section: 'Mandates' },
	{ method: 'GET', path: '/hooks', section: 'Webhooks' },
	{ method: 'POST', path: '/hooks', section: 'Webhooks' },
	{ method: 'PUT', path: '/hooks/{hookId}', section: 'Webhooks' },
	{ method: 'DELETE', path: '/hooks/{hookId}', section: 'Webhooks' },
	{ method: 'GET', path: '/configs/listes/{listeId}/values', section: 'Configs' },
	{ method: 'POST', path: '/calendar/events', section: 'Calendar' },
	{ method: 'DELETE', path: '/calendar/events/{eventId}', section: 'Calendar' },
	{ method: 'GET', path: '/calendar/permanences/timeframe', section: 'Calendar' },
	{ method: 'GET', path: '/calendar/events/types', section: 'Calendar' },
	// Production serves these beyond the spec, as the n8n node generated from the vendor's reference names them.
	...[
		{ method: 'PATCH', path: '/calendar/events/{eventId}/status' },
		{ method: 'GET', path: '/calendar/events' },
		{ method: 'GET', path: '/calendar/events/{eventId}' },
		{ method: 'PATCH', path: '/calendar/events/{eventId}' },
		{ method: 'GET', path: '/calendar/users/{userId}/availability' },
		{ method: 'GET', path: '/calendar/users/{userId}/working-time' },
		{ method: 'GET', path: '/calendar/users/{userId}/shared-agenda' },
		{ method: 'GET', path: '/calendar/permanences/timeframe/users' },
	].map((endpoint) => ({ ...endpoint, section: EVIDENCE_CALENDAR }) as SpecEndpoint),
];

/** `METHOD /path` with placeholder names erased: ours may differ from the spec's (`listeId` → `listId`). */
export function endpointShape(method: string, path: string): string {
	return `${method} ${path.replace(/\{\w+\}/g, '{}')}`;
}
