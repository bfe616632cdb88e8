import { commaList, wholeNumber } from '../../convert';
import { agencyField, userField } from '../../fields';
import { evidence, guess, integer, rule, spec } from '../../rules';
import type { Endpoint } from '../../types';
import { periodFields, periodInOrder, periodInZone, timeZoneOption } from './period';

/**
 * The agenda around the events: event types and an agency's office hours (spec section 4
 * "Calendar"), and what production also serves (docs/assumptions.md "Production evidence"): who is on
 * permanence duty, a user's free slots, working hours and the agendas shared with them.
 */
export const agendaEndpoints: Endpoint[] = [
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
	{
		resource: 'calendar',
		operation: {
			name: 'Get Permanence Users',
			value: 'getPermanenceUsers',
			action: 'Get the users on permanence duty at an agency',
			description: "Get who holds an agency's office hours over a period (this week when none is given)",
		},
		method: 'GET',
		path: '/calendar/permanences/timeframe/users',
		packs: ['SITE_CALENDAR:READ'],
		fields: [
			agencyField('query', { required: evidence('permanence users are read for one agency: agency_id is required') }),
			...periodFields('the current week'),
			timeZoneOption,
		],
		derive: periodInZone,
		checks: [periodInOrder],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get User Availability',
			value: 'getUserAvailability',
			action: 'Get the free slots of a user',
			description:
				"Get a user's free slots over a period (this week when none is given), from their working hours and events",
		},
		method: 'GET',
		path: '/calendar/users/{userId}/availability',
		packs: ['SITE_CALENDAR:READ'],
		fields: [
			userField('path'),
			...periodFields('the current week'),
			{
				in: 'query',
				placement: 'collection',
				key: 'slot_duration',
				convert: wholeNumber,
				rules: [rule(guess('availability slots last a whole number of minutes'), integer({ min: 1 }))],
				property: {
					displayName: 'Slot Duration',
					name: 'slotDuration',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 30,
					description: 'Length of each free slot returned, in minutes',
				},
			},
			{
				in: 'query',
				placement: 'collection',
				key: 'exclude_types',
				convert: commaList,
				property: {
					displayName: 'Ignored Type Names or Keys',
					name: 'excludeTypes',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getEventTypeKeys' },
					default: [],
					description:
						'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
			},
			timeZoneOption,
		],
		derive: periodInZone,
		checks: [periodInOrder],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get User Working Time',
			value: 'getUserWorkingTime',
			action: 'Get the working hours of a user',
			description: "Get a user's working hours of the current week, day by day",
		},
		method: 'GET',
		path: '/calendar/users/{userId}/working-time',
		packs: ['SITE_CALENDAR:READ'],
		fields: [userField('path')],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Shared Agendas',
			value: 'getSharedAgendas',
			action: 'Get the agendas shared with a user',
			description: 'List the users whose agenda a user may see',
		},
		method: 'GET',
		path: '/calendar/users/{userId}/shared-agenda',
		packs: ['SITE_CALENDAR:READ'],
		fields: [userField('path')],
	},
];
