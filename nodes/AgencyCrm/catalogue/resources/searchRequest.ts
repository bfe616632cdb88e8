import { criteriaField, customerField, idInPath } from '../fields';
import type { Endpoint, FieldSpec } from '../types';
import { idList, stringList } from '../wire';

/** What a search request holds besides its criteria (docs/assumptions.md "Search request"). */
const searchRequestFields: FieldSpec[] = [
	{ in: 'body', property: { displayName: 'Title', name: 'title', type: 'string', default: '' } },
	{
		in: 'body',
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
		key: 'key_points.pros',
		wire: stringList,
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
		key: 'key_points.cons',
		wire: stringList,
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
		wire: idList,
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
			description: 'Record what a contact is looking for, as criteria, key points and areas',
		},
		method: 'POST',
		path: '/customers/{customerId}/search-requests',
		packs: ['Customers'],
		fields: [customerField('path'), criteriaField('searchRequest', true), ...searchRequestFields],
		extraBodyJson: true,
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
		extraBodyJson: true,
	},
];
