import { EVENT_OPTIONS, EVENT_TYPES } from '../../../shared/events';
import { idInPath } from '../fields';
import { eachOneOf, integer } from '../rules';
import type { Endpoint, FieldSpec } from '../types';
import { id, keyValues, stringList } from '../wire';

/** Event types a webhook can subscribe to (spec section 6). */
function urlField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		property: {
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			required: isRequired,
			placeholder: 'https://example.com/agency-crm-events',
			description: 'Address that receives each event as an HTTP POST',
		},
	};
}

function eventsField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		wire: stringList,
		rules: [eachOneOf(EVENT_TYPES)],
		property: {
			displayName: 'Events',
			name: 'origines',
			type: 'multiOptions',
			options: EVENT_OPTIONS,
			default: [],
			required: isRequired,
			description: 'Events that trigger a delivery',
		},
	};
}

/** Headers, auth and format: the optional part of create and update. */
const deliveryFields: FieldSpec[] = [
	{
		in: 'body',
		wire: keyValues,
		property: {
			displayName: 'Headers',
			name: 'headers',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Header',
			description: 'Headers sent with each delivery, e.g. a secret the receiver checks',
			options: [
				{
					displayName: 'Header',
					name: 'header',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						{ displayName: 'Value', name: 'value', type: 'string', default: '' },
					],
				},
			],
		},
	},
	{
		in: 'body',
		key: 'auth_id',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Auth ID',
			name: 'authId',
			type: 'number',
			default: 0,
			description: 'Webhook auth configuration to use for the deliveries',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Format',
			name: 'format',
			type: 'string',
			default: '',
			description: 'Identifier of a custom payload format',
		},
	},
];

const hookId: FieldSpec = idInPath({
	displayName: 'Webhook ID',
	name: 'hookId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12',
	description: 'The ID of the webhook',
});

export const webhookEndpoints: Endpoint[] = [
	{
		resource: 'webhook',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a webhook',
			description: 'Subscribe a URL to customer or product events',
		},
		method: 'POST',
		path: '/hooks',
		packs: ['Any'],
		fields: [urlField(true), eventsField(true), ...deliveryFields],
	},
	{
		resource: 'webhook',
		operation: {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a webhook',
			description: 'Remove a webhook for good: no further deliveries',
		},
		method: 'DELETE',
		path: '/hooks/{hookId}',
		packs: ['Any'],
		fields: [hookId],
		output: 'deleted',
	},
	{
		resource: 'webhook',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many webhooks',
			description: 'List the webhooks of the site',
		},
		method: 'GET',
		path: '/hooks',
		packs: ['Any'],
		fields: [],
	},
	{
		resource: 'webhook',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a webhook',
			description:
				'Change the fields given. Events and headers, when given, replace the current ones entirely. Setting the URL reactivates a suspended webhook.',
		},
		method: 'PUT',
		path: '/hooks/{hookId}',
		packs: ['Any'],
		fields: [hookId, urlField(false), eventsField(false), ...deliveryFields],
	},
];
