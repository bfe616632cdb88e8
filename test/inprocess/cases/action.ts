import type { EndpointCase } from './types';
import { rl } from './types';

export const actionCases: EndpointCase[] = [
	{
		endpoint: 'GET /products/{productId}/actions',
		parameters: {
			resource: 'action',
			operation: 'getManyForProduct',
			productId: rl(5002),
			returnAll: true,
			filters: {},
		},
		request: { method: 'GET', path: '/products/5002/actions', query: { per_page: '200' } },
	},
	{
		endpoint: 'POST /products/{productId}/actions',
		parameters: {
			resource: 'action',
			operation: 'createForProduct',
			productId: rl(5002),
			actionTypeId: 1,
			additionalFields: { comment: 'Visit booked' },
		},
		request: { method: 'POST', path: '/products/5002/actions', body: { action_type_id: 1, comment: 'Visit booked' } },
	},
	{
		endpoint: 'GET /customers/{customerId}/actions',
		title: 'offset carried in cursor',
		parameters: {
			resource: 'action',
			operation: 'getManyForCustomer',
			customerId: rl(10003),
			returnAll: false,
			limit: 4,
			filters: {},
		},
		request: { method: 'GET', path: '/customers/10003/actions', query: { per_page: '4', cursor: '0' } },
	},
	{
		endpoint: 'POST /customers/{customerId}/actions',
		parameters: {
			resource: 'action',
			operation: 'createForCustomer',
			customerId: rl(10003),
			actionTypeId: 2,
			additionalFields: { date: '2026-11-20T14:30:00Z' },
		},
		request: {
			method: 'POST',
			path: '/customers/10003/actions',
			body: { action_type_id: 2, date: '2026-11-20T14:30:00Z' },
		},
	},
	{
		endpoint: 'GET /actions/types',
		parameters: { resource: 'action', operation: 'getTypes' },
		request: { method: 'GET', path: '/actions/types' },
	},
];
