import { idInPath } from '../fields';
import type { Endpoint } from '../types';

// Spec section 4 "Products": a criterion `id` "accepts an XML identifier among its accepted forms".
const criterionInPath = idInPath({
	displayName: 'Criterion Name or ID',
	name: 'criteriaId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getProductCriterionIds' },
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
});

export const criterionEndpoints: Endpoint[] = [
	{
		resource: 'criterion',
		operation: {
			name: 'Get Property Criteria',
			value: 'getProductCriteria',
			action: 'Get property criteria',
			description:
				"List the property criterion definitions (the API's product criteria) of the site: type, label, activation state and personalisation flags",
		},
		method: 'GET',
		path: '/criterias/product/all',
		packs: ['Any'],
		fields: [],
	},
	{
		resource: 'criterion',
		operation: {
			name: 'Get Property Criterion',
			value: 'getProductCriterion',
			action: 'Get a property criterion',
			description: 'Get one property criterion definition, by its ID or XML identifier, with its possible values',
		},
		method: 'GET',
		path: '/criterias/product/{criteriaId}',
		packs: ['Any'],
		fields: [criterionInPath],
	},
	{
		resource: 'criterion',
		operation: {
			name: 'Get Property Criterion Values',
			value: 'getProductCriterionValues',
			action: 'Get the values of a property criterion',
			description:
				'List the values of a list criterion (type, status…) with their label and code; a write sends the code, never the ID',
		},
		method: 'GET',
		// Served by production, though absent from the spec (docs/assumptions.md "Production evidence").
		path: '/criterias/product/{criteriaId}/values',
		packs: ['Any'],
		fields: [criterionInPath],
	},
	{
		resource: 'criterion',
		operation: {
			name: 'Get Search Request Criteria',
			value: 'getSearchRequestCriteria',
			action: 'Get search request criteria',
			description: 'List the criteria available to buyer search requests and buyer leads',
		},
		method: 'GET',
		path: '/criterias/search-requests',
		packs: ['Any'],
		fields: [],
	},
	{
		resource: 'criterion',
		operation: {
			name: 'Get Zones',
			value: 'getZones',
			action: 'Get zones',
			description: 'List the geographic zones of the site (values of the zone criterion, ID 30)',
		},
		method: 'GET',
		path: '/criterias/zone-list',
		packs: ['Any'],
		fields: [],
	},
	{
		resource: 'criterion',
		operation: {
			name: 'Get Category Criteria',
			value: 'getCategoryCriteria',
			action: 'Get the criteria of a category',
			description: 'List the criteria of one property category (property type)',
		},
		method: 'GET',
		path: '/criterias/categories/{categoryId}',
		packs: ['Any'],
		fields: [
			idInPath({
				displayName: 'Category Name or ID',
				name: 'categoryId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCategories' },
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			}),
		],
	},
];
