import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const searchRequestCases: EndpointCase[] = [
	{
		endpoint: 'POST /customers/{customerId}/search-requests',
		parameters: {
			resource: 'searchRequest',
			operation: 'create',
			customerId: byId(10003),
			criteria: {
				criterion: [
					{ id: '1', value: '350000' },
					{ id: '30', value: '[1, 6]' },
				],
			},
			additionalFields: { title: 'T3 in Lyon' },
		},
		request: {
			method: 'POST',
			path: '/customers/10003/search-requests',
			body: {
				criteria: [
					{ id: 1, value: 350000 },
					{ id: 30, value: [1, 6] },
				],
				title: 'T3 in Lyon',
			},
		},
		verify: ({ output }) => expect(output[0].search_request_id).toBeGreaterThan(0),
		keep: (output, ids) => {
			ids.searchRequestId = output.search_request_id as number;
		},
	},
	{
		endpoint: 'PATCH /customers/{customerId}/search-requests/{searchRequestId}',
		parameters: ({ searchRequestId }) => ({
			resource: 'searchRequest',
			operation: 'update',
			customerId: byId(10003),
			searchRequestId: String(searchRequestId),
			additionalFields: { criteria: { criterion: [{ id: '3', value: '4' }] } },
		}),
		request: ({ searchRequestId }) => ({
			method: 'PATCH',
			path: `/customers/10003/search-requests/${searchRequestId}`,
			body: { criteria: [{ id: 3, value: 4 }] },
		}),
	},
];
