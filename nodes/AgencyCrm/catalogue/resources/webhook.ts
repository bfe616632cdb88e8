import type { INodeProperties } from 'n8n-workflow';

import { EVENT_OPTIONS } from '../../../shared/events';
import { keyValues, stringList, wholeNumber } from '../convert';
import { idInPath } from '../fields';
import { choices } from '../../../shared/choices';
import { guess, integer, integerId, isList, isObject, isText, rule, spec } from '../rules';
import type { Endpoint, FieldSpec, PreparedRequest } from '../types';

/** Spec section 4 "Webhooks", `PUT /hooks/{hookId}`: "Body (all nullable): url string, origines array …". */
const PUT_BODY =
	'section 4 "Webhooks", PUT /hooks/{hookId}: "Body (all nullable): url string, origines array (replaces the list entirely), headers object (replaces entirely), auth_id integer, format string"';

/** The create body is "not shown": it mirrors the update body (docs/assumptions.md "Webhooks and events"). */
const POST_BODY = guess('POST /hooks takes the PUT body');

function urlField(isCreate: boolean): FieldSpec {
	return {
		in: 'body',
		placement: isCreate ? 'top' : 'collection',
		required: isCreate ? POST_BODY : undefined,
		rules: isCreate ? [] : [rule(spec(PUT_BODY), isText)],
		property: {
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/agency-crm-events',
			description: 'Address that receives each event as an HTTP POST. Setting it reactivates a suspended webhook.',
		},
	};
}

/** Spec section 6: "The overview also names a `property.updated` event for product changes". */
const OVERVIEW_PROPERTY_EVENT = {
	name: 'Property Changed (property.updated)',
	value: 'property.updated',
	description:
		"The event the spec's overview names for property changes; how it relates to PRODUCT_UPDATE is not documented",
};

function eventsField(isCreate: boolean): FieldSpec {
	return {
		in: 'body',
		placement: isCreate ? 'top' : 'collection',
		required: isCreate ? POST_BODY : undefined,
		convert: stringList,
		rules: isCreate ? [] : [rule(spec(PUT_BODY), isList)],
		// Spec section 6 names these event types; it does not say they are all.
		values: guess('webhook event types beyond those the spec names'),
		property: {
			displayName: 'Events',
			name: 'origines',
			type: 'multiOptions',
			options: [...EVENT_OPTIONS, OVERVIEW_PROPERTY_EVENT].sort((a, b) => a.name.localeCompare(b.name)),
			default: [],
			description:
				'Events that trigger a delivery; they replace the current list entirely. Other event types can be given with an expression.',
		},
	};
}

/** The headers each delivery carries, name and value: they replace a hook's current headers entirely. */
const HEADERS: INodeProperties = {
	displayName: 'Headers',
	name: 'headers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Header',
	description:
		'Headers sent with each delivery, e.g. a secret the receiver checks; they replace the current headers entirely',
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
};

/** Headers, auth and format: the optional part of create and update. */
function deliveryFields(isCreate: boolean): FieldSpec[] {
	const stated = (test: (value: unknown) => string | undefined) => (isCreate ? [] : [rule(spec(PUT_BODY), test)]);
	return [
		{
			in: 'body',
			placement: 'collection',
			convert: keyValues,
			rules: stated(isObject),
			property: HEADERS,
		},
		{
			in: 'body',
			placement: 'collection',
			key: 'auth_id',
			convert: wholeNumber,
			convertsExtraBody: true,
			// The spec types it an integer for updates; for creates the body is a guess, but an id is an id.
			rules: [rule(isCreate ? POST_BODY : spec(PUT_BODY), integer())],
			// A text box, so that the field added and left empty sends nothing (a number box sent 0).
			property: {
				displayName: 'Auth ID',
				name: 'authId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3',
				description: 'Webhook auth configuration to use for the deliveries',
			},
		},
		{
			in: 'body',
			placement: 'collection',
			rules: stated(isText),
			property: {
				displayName: 'Format',
				name: 'format',
				type: 'string',
				default: '',
				description: 'Identifier of a custom payload format',
			},
		},
	];
}

/** What "Clear Fields" asks to empty: the spec makes these nullable, and null clears them. */
const clearFields: FieldSpec = {
	in: 'body',
	placement: 'collection',
	key: 'clear',
	convert: stringList,
	values: spec(PUT_BODY),
	property: {
		displayName: 'Clear Fields',
		name: 'clearFields',
		type: 'multiOptions',
		options: choices({ 'Auth ID': 'auth_id', Format: 'format', Headers: 'headers' }),
		default: [],
		description: 'Fields to empty: they are sent as null',
	},
};

/** "Clear Fields" becomes nulls in the body; the list itself is not an API field. */
function clearedToNull(request: PreparedRequest): PreparedRequest {
	const { clear, ...body } = request.body;
	if (!Array.isArray(clear)) return request;
	return { ...request, body: { ...Object.fromEntries(clear.map((key) => [String(key), null])), ...body } };
}

const hookId: FieldSpec = {
	...idInPath(
		{
			displayName: 'Webhook ID',
			name: 'hookId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12',
			description: 'The ID of the webhook',
		},
		[integerId('section 4 "Webhooks": "Path hookId integer"')],
	),
	findWith: 'Webhook → Get Many',
};

export const webhookEndpoints: Endpoint[] = [
	{
		resource: 'webhook',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a webhook',
			description: 'Subscribe a URL to contact or property events; returns the webhook with its ID',
		},
		method: 'POST',
		path: '/hooks',
		record: { id: 'id' },
		packs: ['Any'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Registers a subscription for chosen events": a second send registers a second subscription, and each event is delivered twice. The trigger resends its registration only after finding no hook with its URL (GET /hooks).',
		},
		fields: [urlField(true), eventsField(true), ...deliveryFields(true)],
	},
	{
		resource: 'webhook',
		operation: {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a webhook permanently',
			description: 'Remove a webhook for good (irreversible): no further deliveries',
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
			description: 'List the webhooks of the site with their URL, events and headers',
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
				'Change the fields given. Events and headers, when given, replace the current ones entirely; Clear Fields empties them. Setting the URL reactivates a suspended webhook.',
		},
		method: 'PUT',
		path: '/hooks/{hookId}',
		record: { id: 'id' },
		packs: ['Any'],
		fields: [hookId, urlField(false), eventsField(false), ...deliveryFields(false), clearFields],
		derive: clearedToNull,
	},
];
