import { commentField, customerField, productField } from '../fields';
import { integer, oneOf } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

const FOLLOW_UP_STATUSES = ['new', 'contacted', 'visit_planned', 'visited', 'offer_made', 'closed'] as const;

/** The pair that identifies a follow-up: one contact, one listing. */
const pairFields = (): FieldSpec[] => [customerField('path'), productField('path')];

/** The body of follow-up create and update (docs/assumptions.md "Follow-up"). */
const followUpFields: FieldSpec[] = [
	{
		in: 'body',
		rules: [integer({ min: 0, max: 5 })],
		property: {
			displayName: 'Rating',
			name: 'rating',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 5 },
			default: 0,
			description: 'How well the listing suits the contact, from 0 to 5',
		},
	},
	{
		in: 'body',
		rules: [oneOf(FOLLOW_UP_STATUSES)],
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Closed', value: 'closed' },
				{ name: 'Contacted', value: 'contacted' },
				{ name: 'New', value: 'new' },
				{ name: 'Offer Made', value: 'offer_made' },
				{ name: 'Visit Planned', value: 'visit_planned' },
				{ name: 'Visited', value: 'visited' },
			],
			default: 'new',
			description: 'How far the relationship has progressed',
		},
	},
	commentField(),
];

export const followUpEndpoints: Endpoint[] = [
	{
		resource: 'followUp',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a follow-up',
			description:
				'Add a listing to the follow-up of a contact. Fails with error 409 when this contact already follows this listing: use Update then.',
		},
		method: 'POST',
		path: '/customers/{customerId}/follow-ups/{productId}',
		packs: ['Customers'],
		fields: [...pairFields(), ...followUpFields],
	},
	{
		resource: 'followUp',
		operation: {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a follow-up',
			description: 'Remove a listing from the follow-up of a contact',
		},
		method: 'DELETE',
		path: '/customers/{customerId}/follow-ups/{productId}',
		packs: ['Customers'],
		fields: pairFields(),
		output: 'deleted',
	},
	{
		resource: 'followUp',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many follow-ups',
			description: 'List the listings a contact follows, with rating and status',
		},
		method: 'GET',
		path: '/customers/{customerId}/follow-ups',
		packs: ['Customers'],
		pagination: 'cursor',
		fields: [customerField('path')],
	},
	{
		resource: 'followUp',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a follow-up',
			description: 'Change the rating, status or comment of the follow-up of a listing by a contact',
		},
		method: 'PATCH',
		path: '/customers/{customerId}/follow-ups/{productId}',
		packs: ['Customers'],
		fields: [...pairFields(), ...followUpFields],
	},
];
