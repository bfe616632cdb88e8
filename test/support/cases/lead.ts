import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const leadCases: EndpointCase[] = [
	{
		endpoint: 'POST /leads/sellers',
		parameters: {
			resource: 'lead',
			operation: 'createSeller',
			agencyId: byId(101),
			transactionType: 'sale',
			propertyType: 'house',
			additionalFields: {
				lastname: 'Petit',
				email: 'paul.petit@example.com',
				price: 410000,
				requestNature: 'Valuation',
			},
		},
		request: {
			method: 'POST',
			path: '/leads/sellers',
			status: 201,
			after: [
				'GET /criterias/product/all',
				'GET /criterias/product/{criteriaId}/values',
				'GET /criterias/product/{criteriaId}/values',
			],
			body: {
				agency_id: 101,
				request_nature: 'Valuation',
				customer: { lastname: 'Petit', email: 'paul.petit@example.com' },
				product: {
					criteria: [
						{ id: 'TypeTransaction', value: 'Vente' },
						{ id: 'TypeBien', value: 'Maison' },
						{ id: 'Prix', value: 410000 },
					],
				},
			},
		},
	},
	{
		endpoint: 'POST /leads/buyers',
		parameters: {
			resource: 'lead',
			operation: 'createBuyer',
			agencyId: byId(102),
			additionalFields: {
				lastname: 'Moreau',
				phone: '0472000001',
				// A budget with a ceiling: real-n8n suites share one sandbox, and an open budget would match
				// the listing the examples test reprices (test/real-n8n/examples.test.ts, property update).
				criteria: {
					criterion: [
						{ id: 'Prix', operator: 'SUPERIEUR', value: '250000' },
						{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
					],
				},
			},
		},
		request: {
			method: 'POST',
			path: '/leads/buyers',
			status: 201,
			after: ['GET /criterias/search-requests'],
			body: {
				agency_id: 102,
				customer: { lastname: 'Moreau', phone: '0472000001' },
				search_requests: [
					{
						criteria: [
							{ id: 'Prix', operator: 'SUPERIEUR', value: '250000' },
							{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
						],
					},
				],
			},
		},
	},
];
