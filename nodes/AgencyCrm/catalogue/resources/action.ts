import { id, toUtcDateTime } from '../convert';
import { DATE_TIME_GUESS, commentField, customerField, productField, userField } from '../fields';
import { guess } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

/**
 * The body of both action-creation endpoints (docs/assumptions.md "Action"). Spec section 2 says
 * each action has a type from `GET /actions/types`; the key names are our guess.
 */
const actionFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'top',
		key: 'action_type_id',
		convert: id,
		required: guess('an action names its type as action_type_id'),
		property: {
			displayName: 'Action Type Name or ID',
			name: 'actionTypeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getActionTypes' },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: toUtcDateTime,
		rules: [DATE_TIME_GUESS],
		property: {
			displayName: 'Date',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: 'When the action took place; now when left out',
		},
	},
	commentField(),
	userField('body'),
];

export const actionEndpoints: Endpoint[] = [
	{
		resource: 'action',
		operation: {
			name: 'Create for Customer',
			value: 'createForCustomer',
			action: 'Log an action on a customer',
			description:
				'Log a call, visit, email or other activity on a contact, with its type, date and comment. It always goes to the application log; the history shows it only if its action type allows it.',
		},
		method: 'POST',
		path: '/customers/{customerId}/actions',
		record: { id: 'action_id' },
		packs: ['Customers'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Logs an action. Always written to the application journal": a second send logs the action twice.',
		},
		fields: [customerField('path'), ...actionFields],
	},
	{
		resource: 'action',
		operation: {
			name: 'Create for Product',
			value: 'createForProduct',
			action: 'Log an action on a product',
			description:
				'Log a call, visit, email or other activity on a property listing, with its type, date and comment. It always goes to the application log; the history shows it only if its action type allows it.',
		},
		method: 'POST',
		path: '/products/{productId}/actions',
		record: { id: 'action_id' },
		packs: ['Properties'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Logs an action. Always written to the application log": a second send logs the action twice.',
		},
		fields: [productField('path'), ...actionFields],
	},
	{
		resource: 'action',
		operation: {
			name: 'Get Many for Customer',
			value: 'getManyForCustomer',
			action: 'Get many actions of a customer',
			description: 'List the action history of a contact',
		},
		method: 'GET',
		path: '/customers/{customerId}/actions',
		packs: ['Customers'],
		pagination: 'cursorOffset',
		fields: [customerField('path')],
	},
	{
		resource: 'action',
		operation: {
			name: 'Get Many for Product',
			value: 'getManyForProduct',
			action: 'Get many actions of a product',
			description: 'List the action history of a property listing',
		},
		method: 'GET',
		path: '/products/{productId}/actions',
		packs: ['Properties', 'Websites'],
		pagination: 'cursor',
		fields: [productField('path')],
	},
	{
		resource: 'action',
		operation: {
			name: 'Get Types',
			value: 'getTypes',
			action: 'Get action types',
			description: 'List the action types of the site (their IDs are used when logging actions)',
		},
		method: 'GET',
		path: '/actions/types',
		packs: ['Customers'],
		fields: [],
	},
];
