import { id, toUtcDateTime } from '../convert';
import { DATE_TIME_GUESS, customerField, productField, userField } from '../fields';
import { evidence } from '../rules';
import type { Endpoint, FieldSpec } from '../types';

/**
 * The body of both action-creation endpoints, as production takes it (docs/assumptions.md "Production
 * evidence"): the type from `GET /actions/types` under `action_id`, the text under `result`, the date
 * under `date_performed`, the agent under `user_id`. The parameter names are 0.1.0's, which saved
 * workflows hold.
 */
const actionFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'top',
		key: 'action_id',
		convert: id,
		required: evidence('an action names its type under action_id'),
		property: {
			displayName: 'Activity Type Name or ID',
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
		key: 'date_performed',
		convert: toUtcDateTime,
		rules: [DATE_TIME_GUESS],
		property: {
			displayName: 'Date Performed',
			name: 'date',
			type: 'dateTime',
			default: '',
			description: 'When the activity took place; now when left out',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'result',
		property: {
			displayName: 'Result',
			name: 'comment',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What came of it, e.g. what was said, or the message of the contact',
		},
	},
	userField('body'),
];

export const actionEndpoints: Endpoint[] = [
	{
		resource: 'action',
		operation: {
			name: 'Create for Contact',
			value: 'createForCustomer',
			action: 'Log an activity on a contact',
			description:
				'Log a call, visit, email or other activity on a contact, with its type, date and result. It always goes to the application log; the history shows it only if its action type allows it.',
		},
		method: 'POST',
		path: '/customers/{customerId}/actions',
		record: { id: 'id' },
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
			name: 'Create for Property',
			value: 'createForProduct',
			action: 'Log an activity on a property',
			description:
				'Log a call, visit, email or other activity on a property listing, with its type, date and result. It always goes to the application log; the history shows it only if its action type allows it.',
		},
		method: 'POST',
		path: '/products/{productId}/actions',
		record: { id: 'id' },
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
			name: 'Get Many for Contact',
			value: 'getManyForCustomer',
			action: 'Get many activities of a contact',
			description: 'List the activity history of a contact',
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
			name: 'Get Many for Property',
			value: 'getManyForProduct',
			action: 'Get many activities of a property',
			description: 'List the activity history of a property listing',
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
			action: 'Get activity types',
			description:
				"List the activity types of the site, the API's action types (their IDs are used when logging activities)",
		},
		method: 'GET',
		path: '/actions/types',
		packs: ['Customers'],
		fields: [],
	},
];
