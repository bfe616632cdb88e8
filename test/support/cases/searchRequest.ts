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
					{ id: '1', operator: 'INFERIEUR', value: '350000' },
					{ id: 'Secteur', listValue: 'Villeurbanne' },
				],
			},
			additionalFields: { title: 'T3 in Lyon' },
		},
		request: {
			method: 'POST',
			path: '/customers/10003/search-requests',
			after: [
				'GET /criterias/search-requests',
				'GET /criterias/product/all',
				'GET /criterias/product/{criteriaId}/values',
			],
			body: {
				criteria: [
					{ id: 'Prix', operator: 'INFERIEUR', value: '350000' },
					{ id: 'Secteur', operator: 'EGAL', value: 'Villeurbanne' },
				],
				wording: 'T3 in Lyon',
			},
		},
		verify: ({ output }) => expect(output[0].id).toBeGreaterThan(0),
		keep: (output, ids) => {
			ids.searchRequestId = output.id as number;
		},
	},
	{
		endpoint: 'PATCH /customers/{customerId}/search-requests/{searchRequestId}',
		parameters: ({ searchRequestId }) => ({
			resource: 'searchRequest',
			operation: 'update',
			customerId: byId(10003),
			searchRequestId: String(searchRequestId),
			additionalFields: { criteria: { criterion: [{ id: '3', operator: 'SUPERIEUR', value: '4' }] } },
		}),
		request: ({ searchRequestId }) => ({
			method: 'PATCH',
			path: `/customers/10003/search-requests/${searchRequestId}`,
			after: ['GET /criterias/search-requests'],
			body: { criteria: [{ id: 'NbPieces', operator: 'SUPERIEUR', value: '4' }] },
		}),
	},
];
