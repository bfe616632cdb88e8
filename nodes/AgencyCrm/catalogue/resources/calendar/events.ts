import { commaList, filterUnlessZeroOrOff } from '../../convert';
import { idInPath } from '../../fields';
import { choices } from '../../../../shared/choices';
import { evidence, guess, integerId, isBoolean, rule } from '../../rules';
import type { Converter, Endpoint, FieldSpec } from '../../types';
import { endsAfterStarts, participantRules, PARTICIPANTS_OF_NEW_EVENT } from './checks';
import { essentialEventFields, optionalEventFields } from './eventFields';
import { asUserOption, periodFields, periodInOrder, periodInZone, timeZoneOption } from './period';
import { countOrUntil } from './recurrence';

/**
 * The events of the agenda: create and delete (spec section 4 "Calendar"), and what production also
 * serves (docs/assumptions.md "Production evidence"): one event read and updated, archived or
 * restored, and the search.
 */

const eventId: FieldSpec = idInPath(
	{
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 120',
		description: 'The ID of the event',
	},
	[
		integerId(
			'section 4 "Calendar": "DELETE /calendar/events/{eventId}: eventId integer" (section 2 "Calendar event": "id integer")',
		),
	],
);

/** A write answered without the event reads it back by its ID. */
const EVENT_RECORD = { id: 'id', readBack: 'calendar:getEvent' };

/** The event path an item changes, so that two items changing one event run in input order. */
const writesEvent = (request: { pathParams: Record<string, unknown> }) => [
	`calendar event ${String(request.pathParams.eventId)}`,
];

/** The status body is our guess: the event's own `archived` flag (spec section 2), which a create also takes. */
const ARCHIVE_BODY = guess('an event is archived or restored by sending archived true or false');

const archiveOrRestore: Converter = (value) => {
	if (value === 'archive') return { value: true };
	if (value === 'restore') return { value: false };
	return { value };
};

export const eventEndpoints: Endpoint[] = [
	{
		resource: 'calendar',
		operation: {
			name: 'Create Event',
			value: 'createEvent',
			action: 'Create a calendar event',
			description:
				'Create an agenda event (visit, appointment…) from its type, start, end and participants: exactly one organizer and one creator. Returns the event.',
		},
		method: 'POST',
		path: '/calendar/events',
		record: EVENT_RECORD,
		packs: ['SITE_CALENDAR:WRITE'],
		resend: {
			resend: false,
			reason: 'Spec section 4: "Creates an event": a second send makes a second event in the agenda.',
		},
		fields: [...essentialEventFields('required'), ...optionalEventFields],
		checks: [endsAfterStarts, participantRules(PARTICIPANTS_OF_NEW_EVENT), countOrUntil],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Delete Event',
			value: 'deleteEvent',
			action: 'Delete a calendar event permanently',
			description:
				'Delete an agenda event for good (irreversible; to keep it but hide it, use Archive or Restore Event instead)',
		},
		method: 'DELETE',
		path: '/calendar/events/{eventId}',
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [eventId],
		writes: writesEvent,
		output: 'deleted',
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Event',
			value: 'getEvent',
			action: 'Get a calendar event',
			description: 'Get one agenda event by its ID',
		},
		method: 'GET',
		path: '/calendar/events/{eventId}',
		packs: ['SITE_CALENDAR:READ'],
		fields: [eventId, asUserOption, timeZoneOption],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Many Events',
			value: 'getAllEvents',
			action: 'Search calendar events',
			description:
				'Search the agenda over a period (today when none is given), by user, agency or type; recurring events come as their occurrences',
		},
		method: 'GET',
		path: '/calendar/events',
		packs: ['SITE_CALENDAR:READ'],
		pagination: 'offset',
		// A recurring event's occurrences share its id.
		recordKeys: ['id', 'starts_at'],
		pageSizeKey: 'perPage',
		maxPageSize: { size: 50, source: evidence('calendar search pages hold at most 50 events (perPage)') },
		fields: [
			...periodFields('the current day'),
			{
				in: 'query',
				placement: 'collection',
				key: 'user_ids',
				convert: commaList,
				property: {
					displayName: 'User IDs',
					name: 'userIds',
					type: 'string',
					default: '',
					placeholder: 'e.g. 1001, 1002',
					description: 'Only the events these users take part in, comma-separated',
				},
			},
			{
				in: 'query',
				placement: 'collection',
				key: 'agency_ids',
				convert: commaList,
				property: {
					displayName: 'Agency IDs',
					name: 'agencyIds',
					type: 'string',
					default: '',
					placeholder: 'e.g. 101, 102',
					description: "Only the events of these agencies' users, comma-separated",
				},
			},
			{
				in: 'query',
				placement: 'collection',
				key: 'excluded_types',
				convert: commaList,
				property: {
					displayName: 'Excluded Type Names or IDs',
					name: 'excludedTypes',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getEventTypes' },
					default: [],
					description:
						'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
			},
			{
				in: 'query',
				placement: 'collection',
				// Off, the API's own default: only an "on" filters.
				convert: filterUnlessZeroOrOff,
				property: {
					displayName: 'Include Archived',
					name: 'archived',
					type: 'boolean',
					default: false,
					description: 'Whether to include the archived events',
				},
			},
			{
				in: 'query',
				placement: 'collection',
				property: {
					displayName: 'Expand Recurring Events',
					name: 'recurring',
					type: 'boolean',
					default: true,
					description:
						'Whether a recurring event comes as each of its occurrences in the period (the API does so by default) rather than once',
				},
			},
			asUserOption,
			timeZoneOption,
		],
		derive: periodInZone,
		checks: [periodInOrder],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Update Event',
			value: 'updateEvent',
			action: 'Update a calendar event',
			description:
				'Change only the fields given on one agenda event; participants given replace the list (exactly one organizer and one creator). Returns the event.',
		},
		method: 'PATCH',
		path: '/calendar/events/{eventId}',
		record: EVENT_RECORD,
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [eventId, ...essentialEventFields('optional'), ...optionalEventFields],
		writes: writesEvent,
		checks: [
			endsAfterStarts,
			participantRules(
				evidence(
					'an event update lists its participants by the create rules: each user once, exactly one organizer and one creator',
				),
			),
			countOrUntil,
		],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Archive or Restore Event',
			value: 'setEventStatus',
			action: 'Archive or restore a calendar event',
			description:
				'Hide an agenda event from the default listings while keeping it (archive), or bring it back (restore). Returns the event.',
		},
		method: 'PATCH',
		path: '/calendar/events/{eventId}/status',
		record: EVENT_RECORD,
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [
			eventId,
			{
				in: 'body',
				placement: 'top',
				key: 'archived',
				convert: archiveOrRestore,
				rules: [rule(ARCHIVE_BODY, (value) => (isBoolean(value) ? 'must be archive or restore' : undefined))],
				property: {
					displayName: 'Change',
					name: 'statusChange',
					type: 'options',
					options: choices({
						Archive: ['archive', 'Hide it from the default listings, restorably'],
						Restore: ['restore', 'Show it in the listings again'],
					}),
					default: 'archive',
				},
			},
		],
		writes: writesEvent,
	},
];
