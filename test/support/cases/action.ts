import type { EndpointCase } from './types';
import { plainGet } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const actionCases: EndpointCase[] = [
	{
		endpoint: 'GET /products/{productId}/actions',
		parameters: {
			resource: 'action',
			operation: 'getManyForProduct',
			productId: byId(5002),
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
			productId: byId(5002),
			actionTypeId: 1,
			additionalFields: { comment: 'Visit booked' },
		},
		request: { method: 'POST', path: '/products/5002/actions', body: { action_id: 1, result: 'Visit booked' } },
	},
	{
		endpoint: 'GET /customers/{customerId}/actions',
		title: 'offset carried in cursor',
		parameters: {
			resource: 'action',
			operation: 'getManyForCustomer',
			customerId: byId(10003),
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
			customerId: byId(10003),
			actionTypeId: 2,
			additionalFields: { date: '2026-11-20T14:30:00Z' },
		},
		request: {
			method: 'POST',
			path: '/customers/10003/actions',
			body: { action_id: 2, date_performed: '2026-11-20T14:30:00Z' },
		},
	},
	plainGet('action', 'getTypes', '/actions/types'),
];
