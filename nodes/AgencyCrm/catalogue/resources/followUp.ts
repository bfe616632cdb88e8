import { commentField, customerField, productField } from '../fields';
import { choices } from '../../../shared/choices';
import { guess, integer, rule } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

/** The pair that identifies a follow-up: one contact, one listing (spec section 2 "Follow-up"). */
const pairFields = (): FieldSpec[] => [customerField('path'), productField('path')];

/** "It carries a rating and tracks the progression" (spec section 2); scale, keys and statuses are our guess. */
const FOLLOW_UP = guess('follow-up rating scale and statuses');

const followUpFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		rules: [rule(FOLLOW_UP, integer({ min: 0, max: 5 }))],
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
		placement: 'collection',
		values: FOLLOW_UP,
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: choices({
				Closed: 'closed',
				Contacted: 'contacted',
				New: 'new',
				'Offer Made': 'offer_made',
				'Visit Planned': 'visit_planned',
				Visited: 'visited',
			}),
			default: 'new',
			description: 'How far the relationship has progressed; another status can be given with an expression',
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
				'Add a listing to the follow-up of a contact, with a rating and status. When the contact already follows it, the output says so (outcome: existing) and nothing changes: use Update to change it.',
		},
		method: 'POST',
		path: '/customers/{customerId}/follow-ups/{productId}',
		packs: ['Customers'],
		// Spec section 4: "409 if it exists"; production's clients take it for "already there".
		conflictMeansExisting: true,
		// The path names the follow-up: of two items for one pair, the first in input order makes it.
		writes: (request) => [`path:${request.path}`],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a follow-up; 409 if it exists": after a first send that was processed, a second one answers 409 instead of the follow-up.',
		},
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
		// A contact follows a listing once (spec section 2: the pair identifies the follow-up).
		recordKeys: ['product_id'],
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
