import type { EndpointCase } from './types';

export const criterionCases: EndpointCase[] = [
	{
		endpoint: 'GET /criterias/product/all',
		parameters: { resource: 'criterion', operation: 'getProductCriteria' },
		request: { method: 'GET', path: '/criterias/product/all' },
	},
	{
		endpoint: 'GET /criterias/product/{criteriaId}',
		parameters: { resource: 'criterion', operation: 'getProductCriterion', criteriaId: 5 },
		request: { method: 'GET', path: '/criterias/product/5' },
	},
	{
		endpoint: 'GET /criterias/search-requests',
		parameters: { resource: 'criterion', operation: 'getSearchRequestCriteria' },
		request: { method: 'GET', path: '/criterias/search-requests' },
	},
	{
		endpoint: 'GET /criterias/zone-list',
		parameters: { resource: 'criterion', operation: 'getZones' },
		request: { method: 'GET', path: '/criterias/zone-list' },
	},
	{
		endpoint: 'GET /criterias/categories/{categoryId}',
		parameters: { resource: 'criterion', operation: 'getCategoryCriteria', categoryId: 1 },
		request: { method: 'GET', path: '/criterias/categories/1' },
	},
];
