import type { EndpointCase } from './types';
import { plainGet } from './types';

export const criterionCases: EndpointCase[] = [
	plainGet('criterion', 'getProductCriteria', '/criterias/product/all'),
	{
		endpoint: 'GET /criterias/product/{criteriaId}',
		parameters: { resource: 'criterion', operation: 'getProductCriterion', criteriaId: 5 },
		request: { method: 'GET', path: '/criterias/product/5' },
	},
	{
		endpoint: 'GET /criterias/product/{criteriaId}/values',
		parameters: { resource: 'criterion', operation: 'getProductCriterionValues', criteriaId: 5 },
		request: { method: 'GET', path: '/criterias/product/5/values' },
		verify: ({ output }) =>
			expect(output).toContainEqual({ id: 4, model: 'LocalCommercial', label: 'Local commercial' }),
	},
	plainGet('criterion', 'getSearchRequestCriteria', '/criterias/search-requests'),
	plainGet('criterion', 'getZones', '/criterias/zone-list'),
	{
		endpoint: 'GET /criterias/categories/{categoryId}',
		parameters: { resource: 'criterion', operation: 'getCategoryCriteria', categoryId: 1 },
		request: { method: 'GET', path: '/criterias/categories/1' },
	},
];
