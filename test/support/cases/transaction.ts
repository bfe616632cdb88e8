import type { EndpointCase } from './types';

/** The three searches send `include` in the query (spec section 9, version 1.4.0). */
function searchCase(operation: string, path: string): EndpointCase {
	return {
		endpoint: `POST ${path}`,
		title: 'include in the query',
		parameters: {
			resource: 'transaction',
			operation,
			returnAll: false,
			limit: 2,
			filters: { include: ['buyer', 'user'] },
		},
		request: { method: 'POST', path, query: { include: 'buyer,user' }, body: { per_page: 2 } },
	};
}

export const transactionCases: EndpointCase[] = [
	searchCase('getManyAgreements', '/transactions/agreement/search'),
	searchCase('getManyOffers', '/transactions/sales-offers/search'),
	searchCase('getManyLeases', '/transactions/leases/search'),
	{
		endpoint: 'GET /agreement/{compromisId}',
		parameters: { resource: 'transaction', operation: 'get', compromisId: '7001', options: { include: ['fees'] } },
		request: { method: 'GET', path: '/agreement/7001', query: { include: 'fees' } },
	},
	{
		endpoint: 'PUT /agreement/{compromisId}',
		title: 'billing fields only',
		parameters: {
			resource: 'transaction',
			operation: 'updateBilling',
			compromisId: '7001',
			additionalFields: { invoiceNumber: 'F-2026-118', feesAgency: 9000 },
		},
		request: { method: 'PUT', path: '/agreement/7001', body: { invoice_number: 'F-2026-118', fees_agency: 9000 } },
	},
];
