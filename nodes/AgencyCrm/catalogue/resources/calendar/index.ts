import { participants, toUtcDateTime } from '../../convert';
import { agencyField, idInPath } from '../../fields';
import { integerId, isBoolean, isText, rule, spec, utcDateTime } from '../../rules';
import type { Endpoint } from '../../types';
import { CREATE_EVENT, endsAfterStarts, participantRules } from './checks';
import { optionalEventFields } from './eventFields';
import { countOrUntil } from './recurrence';

const required = (field: string) => spec(`${CREATE_EVENT}: "${field}" is required`);

export const calendarEndpoints: Endpoint[] = [
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
		record: { id: 'id' },
		packs: ['SITE_CALENDAR:WRITE'],
		resend: {
			resend: false,
			reason: 'Spec section 4: "Creates an event": a second send makes a second event in the agenda.',
		},
		fields: [
			{
				in: 'body',
				placement: 'top',
				key: 'type',
				required: required('type'),
				// "type: string … Event type id from the types list": an id that looks numeric is still text.
				convert: (value) => ({ value: value === undefined || value === null ? value : String(value) }),
				rules: [rule(spec(`${CREATE_EVENT}: "type: string"`), isText)],
				property: {
					displayName: 'Type Name or ID',
					name: 'eventType',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getEventTypes' },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
			},
			{
				in: 'body',
				placement: 'top',
				required: required('starts_at'),
				convert: toUtcDateTime,
				rules: [rule(spec(`${CREATE_EVENT}: "starts_at: UTC YYYY-MM-DDTHH:MM:SSZ, trailing Z required"`), utcDateTime)],
				property: {
					displayName: 'Starts At',
					name: 'startsAt',
					type: 'dateTime',
					default: '',
					description: 'Start of the event, sent in UTC',
				},
			},
			{
				in: 'body',
				placement: 'top',
				required: required('ends_at'),
				convert: toUtcDateTime,
				rules: [rule(spec(`${CREATE_EVENT}: "ends_at: Same format"`), utcDateTime)],
				property: {
					displayName: 'Ends At',
					name: 'endsAt',
					type: 'dateTime',
					default: '',
					description: 'End of the event, after its start, sent in UTC',
				},
			},
			{
				in: 'body',
				placement: 'top',
				required: required('all_day'),
				rules: [rule(spec(`${CREATE_EVENT}: "all_day: boolean"`), isBoolean)],
				property: {
					displayName: 'All Day',
					name: 'allDay',
					type: 'boolean',
					default: false,
					description: 'Whether the event lasts the whole day',
				},
			},
			{
				in: 'body',
				placement: 'top',
				key: 'users',
				convert: participants,
				convertsExtraBody: true,
				property: {
					displayName: 'Participants',
					name: 'participants',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
					placeholder: 'Add Participant',
					description:
						'Users taking part: each once, exactly one organizer and exactly one creator. Sent as users (a guess of the key); none is sent when empty. Under another key: leave this empty and give the list in Extra Body Fields.',
					options: [
						{
							displayName: 'Participant',
							name: 'participant',
							values: [
								{
									displayName: 'Is Creator',
									name: 'isCreator',
									type: 'boolean',
									default: false,
									description: 'Whether this user created the event',
								},
								{
									displayName: 'Is Organizer',
									name: 'isOrganizer',
									type: 'boolean',
									default: false,
									description: 'Whether this user organizes the event',
								},
								{
									displayName: 'User ID',
									name: 'userId',
									type: 'string',
									default: '',
									placeholder: 'e.g. 1001',
								},
							],
						},
					],
				},
			},
			...optionalEventFields,
		],
		checks: [endsAfterStarts, participantRules, countOrUntil],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Delete Event',
			value: 'deleteEvent',
			action: 'Delete a calendar event permanently',
			description:
				'Delete an agenda event for good (irreversible; to keep it but hide it, archive it in the CRM instead)',
		},
		method: 'DELETE',
		path: '/calendar/events/{eventId}',
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [
			idInPath(
				{
					displayName: 'Event ID',
					name: 'eventId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 120',
					description: 'The ID of the event',
				},
				[integerId('section 4 "Calendar": "DELETE /calendar/events/{eventId}: eventId integer"')],
			),
		],
		output: 'deleted',
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Event Types',
			value: 'getEventTypes',
			action: 'Get calendar event types',
			description: 'List the event types with their ID and key (the IDs are used when creating events)',
		},
		method: 'GET',
		path: '/calendar/events/types',
		packs: ['SITE_CALENDAR:READ'],
		fields: [],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Permanence Timeframe',
			value: 'getPermanenceTimeframe',
			action: 'Get the permanence timeframe of an agency',
			description: 'Get the weekly office hours of an agency: time ranges for each day, MO to SU',
		},
		method: 'GET',
		path: '/calendar/permanences/timeframe',
		packs: ['SITE_CALENDAR:READ'],
		fields: [agencyField('query', { required: spec('section 4 "Calendar": "Query agency_id integer, required"') })],
	},
];
