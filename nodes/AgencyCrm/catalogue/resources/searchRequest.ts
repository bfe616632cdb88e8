import { idList, stringList } from '../convert';
import { SEARCH_REQUEST_CRITERIA, criteriaField } from '../criteria';
import { commentField, customerField, idInPath, isActiveField } from '../fields';
import { guess, rule } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

/** Production's lead router cuts a wording at 120 characters; no rule is seen elsewhere (docs/assumptions.md). */
const MAX_WORDING = 120;
const WORDING = guess('a search request wording of at most 120 characters');

/**
 * What a search request holds besides its criteria: production's `wording`, `alertEmail` and
 * `comment` (docs/assumptions.md "Production evidence"), and the spec's key points and search areas
 * (section 2; those keys are our guess, docs/assumptions.md "Search request").
 */
const searchRequestFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		key: 'wording',
		rules: [
			rule(WORDING, (value) =>
				String(value).length > MAX_WORDING
					? `is over ${MAX_WORDING} characters (it has ${String(value).length}): production's lead router cuts it there`
					: undefined,
			),
		],
		property: {
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: `What the search is called in the CRM (the API’s wording); ${MAX_WORDING} characters at most is safe`,
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'alertEmail',
		property: {
			displayName: 'Alert Email',
			name: 'alertEmail',
			type: 'boolean',
			default: false,
			description: 'Whether the contact is emailed the new listings that match',
		},
	},
	commentField(),
	isActiveField('body', 'Whether new listings are matched against it automatically'),
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
const replacingCriteria = criteriaField(SEARCH_REQUEST_CRITERIA, {
	description: 'The new criteria: they replace all the current criteria of the search request',
});

export const searchRequestEndpoints: Endpoint[] = [
	{
		resource: 'searchRequest',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a search request',
			description:
				'Record what a contact is looking for, as criteria of the site chosen by label; active requests are matched against new listings',
		},
		method: 'POST',
		path: '/customers/{customerId}/search-requests',
		record: { id: 'id' },
		packs: ['Customers'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a search request with criteria": a second send makes a second search request, matched against new listings twice.',
		},
		fields: [
			customerField('path'),
			// Spec section 4: "Creates a search request with criteria"; whether criteria may be empty is not shown.
			criteriaField(SEARCH_REQUEST_CRITERIA, { placement: 'top', required: guess('a search request has criteria') }),
			...searchRequestFields,
		],
		criteria: SEARCH_REQUEST_CRITERIA,
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
		record: { id: 'id' },
		packs: ['Customers'],
		fields: [
			customerField('path'),
			{
				...idInPath({
					displayName: 'Search Request ID',
					name: 'searchRequestId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 42',
					description: 'The ID of the search request',
				}),
				findWith: 'Contact → Get, with Include "searchRequests"',
			},
			replacingCriteria,
			...searchRequestFields,
		],
		criteria: SEARCH_REQUEST_CRITERIA,
	},
];
