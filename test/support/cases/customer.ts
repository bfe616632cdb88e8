import type { EndpointCase } from './types';
import { plainGet } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const customerCases: EndpointCase[] = [
	{
		endpoint: 'POST /customers',
		parameters: {
			resource: 'customer',
			operation: 'create',
			agencyId: byId(101),
			lastname: 'Durand',
			additionalFields: {
				firstname: 'Léa',
				email: 'lea.durand@example.com',
				mobilePhone: '0611223344',
				type: 'buyer',
			},
		},
		request: {
			method: 'POST',
			path: '/customers',
			body: {
				agency_id: 101,
				lastname: 'Durand',
				firstname: 'Léa',
				email: 'lea.durand@example.com',
				mobile_phone: '0611223344',
				type: 'buyer',
			},
		},
	},
	{
		endpoint: 'POST /customers',
		title: 'Create or Update: searched by email first, then created',
		parameters: {
			resource: 'customer',
			operation: 'upsert',
			agencyId: byId(101),
			lastname: 'Garnier',
			additionalFields: { email: 'hugo.garnier@example.com' },
		},
		request: {
			method: 'POST',
			path: '/customers',
			body: { agency_id: 101, lastname: 'Garnier', email: 'hugo.garnier@example.com', check_duplicate: true },
			after: ['POST /customers/search'],
		},
		verify: ({ output, requests }) => {
			expect(requests[0].body).toEqual({ email: 'hugo.garnier@example.com', per_page: 100 });
			expect(output[0]).toMatchObject({ lastname: 'Garnier', outcome: 'created' });
		},
	},
	{
		endpoint: 'POST /customers/search',
		parameters: {
			resource: 'customer',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { email: 'lea.durand@example.com' },
		},
		title: 'with the origin and groups every contact read loads',
		request: {
			method: 'POST',
			path: '/customers/search',
			query: { include: 'origin,groups' },
			body: { email: 'lea.durand@example.com', per_page: 10 },
		},
	},
	{
		endpoint: 'GET /customers/{customerId}',
		parameters: {
			resource: 'customer',
			operation: 'get',
			customerId: byId(10003),
			options: { include: ['groups', 'consent'] },
		},
		request: { method: 'GET', path: '/customers/10003', query: { include: 'origin,groups,consent' } },
	},
	{
		endpoint: 'PATCH /customers/{customerId}',
		parameters: {
			resource: 'customer',
			operation: 'update',
			customerId: byId(10003),
			additionalFields: { phone: '0478000000' },
		},
		request: { method: 'PATCH', path: '/customers/10003', body: { phone: '0478000000' } },
	},
	plainGet('customer', 'getGroups', '/customers/groups'),
	plainGet('customer', 'getOrigins', '/customers/origins'),
];
