import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const followUpCases: EndpointCase[] = [
	{
		endpoint: 'GET /customers/{customerId}/follow-ups',
		parameters: {
			resource: 'followUp',
			operation: 'getAll',
			customerId: byId(10003),
			returnAll: false,
			limit: 5,
			filters: {},
		},
		request: { method: 'GET', path: '/customers/10003/follow-ups', query: { per_page: '5' } },
	},
	{
		endpoint: 'POST /customers/{customerId}/follow-ups/{productId}',
		parameters: {
			resource: 'followUp',
			operation: 'create',
			customerId: byId(10003),
			productId: byId(5003),
			additionalFields: { rating: 4 },
		},
		request: { method: 'POST', path: '/customers/10003/follow-ups/5003', body: { rating: 4 } },
	},
	{
		endpoint: 'PATCH /customers/{customerId}/follow-ups/{productId}',
		parameters: {
			resource: 'followUp',
			operation: 'update',
			customerId: byId(10003),
			productId: byId(5003),
			additionalFields: { rating: 5, comment: 'Loved it' },
		},
		request: { method: 'PATCH', path: '/customers/10003/follow-ups/5003', body: { rating: 5, comment: 'Loved it' } },
	},
	{
		endpoint: 'DELETE /customers/{customerId}/follow-ups/{productId}',
		parameters: { resource: 'followUp', operation: 'delete', customerId: byId(10003), productId: byId(5003) },
		title: 'found in its contact’s follow-ups first, so that a 404 after a lost answer is this removal',
		request: {
			method: 'DELETE',
			path: '/customers/10003/follow-ups/5003',
			after: ['GET /customers/{customerId}/follow-ups'],
		},
		verify: ({ output }) => expect(output[0]).toEqual({ deleted: true }),
	},
];
