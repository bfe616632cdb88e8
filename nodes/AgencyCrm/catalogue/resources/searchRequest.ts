import { idList, stringList } from '../convert';
import { criteriaField, customerField, idInPath } from '../fields';
import { guess } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

/**
 * What a search request holds besides its criteria (spec section 2: "key points (pros/cons) and
 * search areas"; the key names are our guess, docs/assumptions.md "Search request").
 */
const searchRequestFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		property: { displayName: 'Title', name: 'title', type: 'string', default: '' },
	},
	{
		in: 'body',
		placement: 'collection',
		property: {
			displayName: 'Is Active',
			name: 'isActive',
			type: 'boolean',
			default: true,
			description: 'Whether new listings are matched against it automatically',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'key_points.pros',
		convert: stringList,
		property: {
			displayName: 'Pros',
			name: 'pros',
			type: 'string',
			default: '',
			placeholder: 'e.g. balcony, quiet street',
			description: 'Key points the buyer wants, comma-separated',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'key_points.cons',
		convert: stringList,
		property: {
			displayName: 'Cons',
			name: 'cons',
			type: 'string',
			default: '',
			placeholder: 'e.g. ground floor',
			description: 'Key points the buyer refuses, comma-separated',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: idList,
		property: {
			displayName: 'Area Names or IDs',
			name: 'areas',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getZones' },
			default: [],
			description:
				'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	},
];

/** On update, criteria are not merged: the ones given become the whole list (spec section 4). */
const replacingCriteria = criteriaField('searchRequest');
replacingCriteria.property = {
	...replacingCriteria.property,
	description: 'The new criteria: they replace all the current criteria of the search request',
};

export const searchRequestEndpoints: Endpoint[] = [
	{
		resource: 'searchRequest',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a search request',
			description:
				'Record what a contact is looking for, as criteria, key points and areas; active requests are matched against new listings',
		},
		method: 'POST',
		path: '/customers/{customerId}/search-requests',
		record: { id: 'search_request_id' },
		packs: ['Customers'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a search request with criteria": a second send makes a second search request, matched against new listings twice.',
		},
		fields: [
			customerField('path'),
			// Spec section 4: "Creates a search request with criteria"; whether criteria may be empty is not shown.
			criteriaField('searchRequest', { placement: 'top', required: guess('a search request has criteria') }),
			...searchRequestFields,
		],
	},
	{
		resource: 'searchRequest',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a search request',
			description:
				'Change only the fields given. Criteria, when given, replace all the existing criteria of the search request.',
		},
		method: 'PATCH',
		path: '/customers/{customerId}/search-requests/{searchRequestId}',
		record: { id: 'search_request_id' },
		packs: ['Customers'],
		fields: [
			customerField('path'),
			idInPath({
				displayName: 'Search Request ID',
				name: 'searchRequestId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 42',
				description: 'The search_request_id of the search request',
			}),
			replacingCriteria,
			...searchRequestFields,
		],
	},
];
