import type { EndpointCase } from './types';

export const mandateCases: EndpointCase[] = [
	{
		endpoint: 'GET /mandates',
		parameters: { resource: 'mandate', operation: 'getAll', returnAll: false, limit: 5, filters: {} },
		request: { method: 'GET', path: '/mandates', query: { per_page: '5' } },
	},
	{
		endpoint: 'GET /mandates/{mandateId}',
		parameters: { resource: 'mandate', operation: 'get', mandateId: '3001', options: {} },
		request: { method: 'GET', path: '/mandates/3001' },
	},
];
