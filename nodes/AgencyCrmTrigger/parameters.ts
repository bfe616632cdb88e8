import type { INodeProperties } from 'n8n-workflow';

import { ANSWER } from '../shared/answer';
import { CONTACT_EVENTS, EVENT_OPTIONS, PROPERTY_RECORD_EVENTS } from '../shared/events';
import { CUSTOMER_INCLUDE_OPTIONS, CUSTOMER_INCLUDES, PRODUCT_FETCHES, relationOptions } from '../shared/relations';

/**
 * The trigger's parameters, each shown only for the events it concerns. Version 2 starts with what
 * production's retries need switched on (Drop Repeated Deliveries, Catch Up); versions 1 and 1.1
 * keep their defaults for the workflows saved with them.
 */

/** What a repeated save of a record changes anyway: our records' `updated_at`, production's `last_modified`. */
export const DEFAULT_IGNORED_FIELDS = 'updated_at, last_modified';

/** What a delivery whose record is gone (its read answers 404) does: starts, saying so, or starts nothing. */
export const WHEN_GONE = { start: 'start', skip: 'skip' } as const;

const showFor = (events: string[], extra: Record<string, unknown[]> = {}) => ({
	show: { events, fetchFullRecord: [true], ...extra },
});

/**
 * What a change of a contact can touch besides its own fields, fetched and compared by Skip
 * Unchanged Records: its address, its consent, its SMS opt-out.
 */
const contactCompared: INodeProperties = {
	displayName: 'Contact Data Compared',
	name: 'contactCompared',
	type: 'multiOptions',
	options: relationOptions(CUSTOMER_INCLUDES),
	default: ['address', 'consent', 'stopSms'],
	displayOptions: showFor(CONTACT_EVENTS, { skipUnchangedRecords: [true] }),
	description:
		'Related data fetched with each contact (and output) so that Skip Unchanged Records sees its changes: a consent given or revoked, an SMS opt-out, a new address. Remove what your API access does not serve.',
};

/** What a change of a property can touch besides its own fields: its criteria (a price drop is one) and photos. */
const productCompared: INodeProperties = {
	displayName: 'Property Data Compared',
	name: 'productCompared',
	type: 'multiOptions',
	options: PRODUCT_FETCHES,
	default: ['criteres_fulltext', 'criteres_flag', 'criteres_number', 'criteres_text', 'products_photos'],
	displayOptions: showFor(PROPERTY_RECORD_EVENTS, { skipUnchangedRecords: [true] }),
	description:
		'Related data fetched with each property (and output) so that Skip Unchanged Records sees its changes: a price drop (a criterion), a new photo. Remove what your API access does not serve.',
};

export const DEFAULT_CONTACT_COMPARED = contactCompared.default as string[];
export const DEFAULT_PROPERTY_COMPARED = productCompared.default as string[];

const dropRepeatedDescription =
	'Whether to start nothing for a delivery that repeats one already taken: the same event for the same record, the record unchanged since. Agency CRM sends a delivery again when its answer came late. The record is fetched to tell, even when Fetch Full Record is off.';
const catchUpDescription =
	'Whether to replay, at each activation (and at the first delivery after n8n starts), what changed since the trigger last took a change: while the workflow was off, while Agency CRM had suspended the webhook (it does not say so), while n8n was down. Properties changed and contacts created each start the workflow once, with "caught_up" and the window looked in; what the workflow already took starts nothing. Contact updates and deleted properties cannot be found again.';

/**
 * The events the hook subscribes to. An expression may give a list, one event as text or several
 * comma-separated; production's constants and dotted names (`property.updated`) are both taken
 * (settings.ts).
 */
const events: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: [],
	description: 'The changes that start the workflow. Agency CRM forbids polling, so it notifies n8n.',
	options: EVENT_OPTIONS,
};

/** Contacts and properties whose record can be read: a change of one may find it deleted meanwhile. */
const whenRecordGone: INodeProperties = {
	displayName: 'When the Record Is Gone',
	name: 'whenRecordGone',
	type: 'options',
	options: [
		{
			name: 'Start, Saying It Is Gone',
			value: WHEN_GONE.start,
			description: 'The item has "gone" set to true and no record',
		},
		{
			name: 'Start Nothing',
			value: WHEN_GONE.skip,
			description: 'Agency CRM gets its 200; the log says which record was gone',
		},
	],
	default: 'start',
	displayOptions: { show: { events: [...CONTACT_EVENTS, ...PROPERTY_RECORD_EVENTS] } },
	description:
		'What a change does when its contact or property was deleted before the trigger could read it (Agency CRM answers 404)',
};

/** What a user must know before publishing: the public address, and how to bring back a silent suspension. */
const deliveryNotice: INodeProperties = {
	displayName:
		'Agency CRM must reach this workflow\'s Production URL: n8n needs a public HTTPS address (WEBHOOK_URL behind a proxy). Agency CRM suspends a webhook without a word after deliveries it could not get through; publishing the workflow again (Unpublish, then Publish; Deactivate, then Activate on n8n 1.x) brings it back and replays every property changed and contact created since the trigger last took a change, each once, marked "caught_up" in the executions. n8n\'s log says what was registered and replayed.',
	name: 'deliveryNotice',
	type: 'notice',
	default: '',
};

export const TRIGGER_PROPERTIES: INodeProperties[] = [
	deliveryNotice,
	events,
	{
		displayName: 'Fetch Full Record',
		name: 'fetchFullRecord',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the contact or property named by the notification and output it under "record" (the notification itself only carries the ID)',
	},
	{
		displayName: 'Contact Related Data',
		name: 'customerInclude',
		type: 'multiOptions',
		options: CUSTOMER_INCLUDE_OPTIONS,
		default: [],
		displayOptions: showFor(CONTACT_EVENTS),
		description:
			'Related data to load with a contact (the API\'s "include"). Suggestions: an expression may give any other value.',
	},
	{
		displayName: 'Property Related Data',
		name: 'productFetch',
		type: 'multiOptions',
		options: PRODUCT_FETCHES,
		default: [],
		displayOptions: showFor(PROPERTY_RECORD_EVENTS),
		description:
			'Related data to load with a property (the API\'s "fetch"), e.g. its criteria and photos. Suggestions: an expression may give any other value.',
	},
	{
		displayName: 'Skip Unchanged Records',
		name: 'skipUnchangedRecords',
		type: 'boolean',
		default: false,
		displayOptions: { show: { fetchFullRecord: [true] } },
		description:
			"Whether to start nothing when the record is the same as the last one seen for its ID, apart from the fields to ignore. Compared: the record with its related data and the data compared below (a contact's address, consent and SMS opt-out; a property's criteria and photos), as a change can touch them. Stops a workflow that writes to the record that started it from starting itself again.",
	},
	contactCompared,
	productCompared,
	{
		displayName: 'Fields to Ignore',
		name: 'ignoredFields',
		type: 'string',
		default: DEFAULT_IGNORED_FIELDS,
		placeholder: 'e.g. updated_at, views',
		displayOptions: { show: { fetchFullRecord: [true], skipUnchangedRecords: [true] } },
		description:
			'Comma-separated field names whose change alone does not start the workflow, wherever they appear in the record and its related data',
	},
	// Versions 1 and 1.1 keep their defaults (off) for the workflows saved with them; 2 turns both on.
	{
		displayName: 'Drop Repeated Deliveries',
		name: 'dropRepeatedDeliveries',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '@version': [1, 1.1] } },
		description: dropRepeatedDescription,
	},
	{
		displayName: 'Drop Repeated Deliveries',
		name: 'dropRepeatedDeliveries',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [2] } },
		description: dropRepeatedDescription,
	},
	{
		displayName: 'Catch Up on Missed Changes',
		name: 'catchUp',
		type: 'boolean',
		default: false,
		displayOptions: { show: { dropRepeatedDeliveries: [true], '@version': [1, 1.1] } },
		description: catchUpDescription,
	},
	{
		displayName: 'Catch Up on Missed Changes',
		name: 'catchUp',
		type: 'boolean',
		default: true,
		displayOptions: { show: { dropRepeatedDeliveries: [true], '@version': [2] } },
		description: catchUpDescription,
	},
	whenRecordGone,
	{
		displayName: 'Answer',
		name: 'answer',
		type: 'options',
		options: [
			{
				name: 'At Once',
				value: ANSWER.immediately,
				description: 'Agency CRM gets a 200 as soon as the delivery comes, before its record is read',
			},
			{
				name: 'From the Workflow',
				value: ANSWER.fromWorkflow,
				description:
					'An Agency CRM Answer node answers: accept, or refuse the record with a reason (HTTP 422: Agency CRM marks it as errored). Not answered within 8 seconds, the trigger answers 200 in its place (Agency CRM waits 10).',
			},
		],
		default: 'immediately',
		description: 'When and how Agency CRM learns that the workflow took a delivery',
	},
];
