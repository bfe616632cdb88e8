import type { IDataObject } from 'n8n-workflow';

import { agencyField, idInPath } from '../fields';
import { eachOneOf, integer, numberBetween, oneOf, required, utcDateTime } from '../rules';
import type { Check, Endpoint, FieldSpec, Violation } from '../types';
import { geo, id, idList, participants, recurrence, toUtcDateTime } from '../wire';

const FREQUENCIES = ['yearly', 'monthly', 'weekly', 'daily', 'hourly', 'minutely', 'secondly'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const APPOINTMENT_MODES = ['OFFICE', 'PHONE', 'PRODUCT', 'VISIO'];

// ---- Checks across fields (spec section 4, create-event request fields) ----

/** `ends_at` after `starts_at`. */
export const endsAfterStarts: Check = ({ body }) => {
	const starts = Date.parse(String(body.starts_at));
	const ends = Date.parse(String(body.ends_at));
	if (Number.isNaN(starts) || Number.isNaN(ends) || ends > starts) return [];
	return [{ field: '"Ends At" (ends_at)', message: `must be after "Starts At" (${String(body.starts_at)})` }];
};

/** At least one participant, each user once, exactly one organizer and exactly one creator. */
export const participantRules: Check = ({ body }) => {
	// Absent: already reported by the required "Participants" field.
	if (body.users === undefined) return [];
	const field = '"Participants" (users)';
	const users = Array.isArray(body.users) ? (body.users as IDataObject[]) : [];
	if (users.length === 0) return [{ field, message: 'needs at least one participant' }];
	const messages: string[] = [];
	const ids = users.map((user) => user.user_id);
	if (ids.some((userId) => !Number.isInteger(userId) || (userId as number) < 1)) {
		messages.push('needs a user ID (a whole number) on every row');
	}
	const repeated = [...new Set(ids.filter((userId, index) => ids.indexOf(userId) !== index))];
	if (repeated.length) messages.push(`lists user ${repeated.join(', ')} more than once`);
	for (const [key, label] of [
		['is_organizer', 'organizer'],
		['is_creator', 'creator'],
	]) {
		const count = users.filter((user) => user[key] === true).length;
		if (count !== 1) messages.push(`must have exactly one ${label} (has ${count})`);
	}
	return messages.map((message) => ({ field, message }));
};

/** `location_geo`: both coordinates, in range. */
export const geoRules: Check = ({ body }) => {
	const point = body.location_geo as { lat?: unknown; lng?: unknown } | undefined;
	if (point === undefined) return [];
	const coordinates = [
		['lat', 'Latitude', numberBetween(-90, 90)],
		['lng', 'Longitude', numberBetween(-180, 180)],
	] as const;
	return coordinates.flatMap(([key, label, inRange]) => {
		const message = required(point[key]) ?? inRange(point[key]);
		return message ? [{ field: `"Location Geo" ${label} (location_geo.${key})`, message }] : [];
	});
};

const RECURRENCE_LABELS: Record<string, string> = {
	dtstart: 'Start',
	freq: 'Frequency',
	interval: 'Interval',
	count: 'Count',
	until: 'Until',
	bymonth: 'By Month',
	bymonthday: 'By Month Day',
	bynmonthday: 'By Month Day From End',
	byyearday: 'By Year Day',
	byweekno: 'By Week Number',
	byweekday: 'By Weekday',
	bynweekday: 'By Nth Weekday (JSON)',
	bysetpos: 'By Set Position',
};

const isPair = (entry: unknown) =>
	Array.isArray(entry) &&
	entry.length === 2 &&
	Number.isInteger(entry[0]) &&
	(entry[0] as number) >= 0 &&
	(entry[0] as number) <= 6 &&
	Number.isInteger(entry[1]);

/** The recurrence object: required parts, count or until (not both), valid weekday codes and pairs. */
export const recurrenceRules: Check = ({ body }) => {
	const rule = body.recurrence as IDataObject | undefined;
	if (rule === undefined) return [];
	const violations: Violation[] = [];
	const report = (key: string, message: string | undefined) => {
		if (message) violations.push({ field: `"Recurrence" ${RECURRENCE_LABELS[key]} (recurrence.${key})`, message });
	};
	report('dtstart', required(rule.dtstart));
	report('freq', required(rule.freq) ?? oneOf(FREQUENCIES)(rule.freq));
	report('interval', required(rule.interval) ?? integer({ min: 1 })(rule.interval));
	report('count', integer({ min: 1 })(rule.count));
	if (rule.count !== undefined && rule.until !== undefined) {
		report('until', 'cannot be combined with "Count": give one or the other');
	}
	for (const key of ['bymonth', 'bymonthday', 'bynmonthday', 'byyearday', 'byweekno', 'bysetpos']) {
		const entries = rule[key];
		if (Array.isArray(entries) && entries.some((entry) => !Number.isInteger(entry))) {
			report(key, 'must be whole numbers, comma-separated');
		}
	}
	if (rule.byweekday !== undefined) report('byweekday', eachOneOf(WEEKDAYS)(rule.byweekday));
	const pairs = rule.bynweekday;
	if (pairs !== undefined && !(Array.isArray(pairs) && pairs.every(isPair))) {
		report('bynweekday', 'must be a JSON list of pairs [weekday 0-6 (0 = Monday), position], e.g. [[0, 1], [4, -1]]');
	}
	return violations;
};

// ---- Fields ----

const optionalEventFields: FieldSpec[] = [
	{ in: 'body', property: { displayName: 'Title', name: 'title', type: 'string', default: '' } },
	{ in: 'body', property: { displayName: 'Location', name: 'location', type: 'string', default: '' } },
	{
		in: 'body',
		key: 'location_geo',
		wire: geo,
		property: {
			displayName: 'Location Geo',
			name: 'locationGeo',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Coordinates',
			description: 'Coordinates of the location, in decimal degrees',
			options: [
				{
					displayName: 'Point',
					name: 'point',
					values: [
						{ displayName: 'Latitude', name: 'lat', type: 'number', default: 0, description: 'From -90 to 90' },
						{ displayName: 'Longitude', name: 'lng', type: 'number', default: 0, description: 'From -180 to 180' },
					],
				},
			],
		},
	},
	{
		in: 'body',
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Sequence Duration',
			name: 'sequenceDuration',
			type: 'number',
			default: 30,
			description: 'Minutes per booking slot',
		},
	},
	{
		in: 'body',
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Gathering Gauge',
			name: 'gatheringGauge',
			type: 'number',
			default: 1,
			description: 'Maximum number of attendees per slot',
		},
	},
	{
		in: 'body',
		rules: [integer({ min: 0 })],
		property: {
			displayName: 'Commute Duration',
			name: 'commuteDuration',
			type: 'number',
			default: 0,
			description: 'Minutes reserved before the event for travelling',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Communicate Location',
			name: 'communicateLocation',
			type: 'boolean',
			default: false,
			description: 'Whether to share the location with the participants',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Is Confidential',
			name: 'isConfidential',
			type: 'boolean',
			default: false,
			description: 'Whether to hide the details from non-participants (the slot still shows as busy)',
		},
	},
	{
		in: 'body',
		rules: [integer({ min: 0 })],
		property: {
			displayName: 'Reminder',
			name: 'remindTimeInMin',
			type: 'number',
			default: 15,
			description: 'How many minutes before the event the reminder goes off (0: at its start)',
		},
	},
	{
		in: 'body',
		rules: [oneOf(APPOINTMENT_MODES)],
		property: {
			displayName: 'Appointment Mode',
			name: 'appointmentMode',
			type: 'options',
			options: [
				{ name: 'Office', value: 'OFFICE' },
				{ name: 'Phone', value: 'PHONE' },
				{ name: 'Property', value: 'PRODUCT' },
				{ name: 'Video Call', value: 'VISIO' },
			],
			default: 'OFFICE',
		},
	},
	{
		in: 'body',
		wire: idList,
		property: {
			displayName: 'Product IDs',
			name: 'products',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5001, 5002',
			description: 'Property listings concerned, comma-separated',
		},
	},
	{
		in: 'body',
		wire: idList,
		property: {
			displayName: 'Customer IDs',
			name: 'contacts',
			type: 'string',
			default: '',
			placeholder: 'e.g. 10001, 10002',
			description: 'Contacts concerned, comma-separated',
		},
	},
	{
		in: 'body',
		property: { displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '' },
	},
	{
		in: 'body',
		property: {
			displayName: 'Video Call URL',
			name: 'visioUrl',
			type: 'string',
			default: '',
			description: 'Link of the video call, for the Video Call appointment mode',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Virtual Visit Organizer URL',
			name: 'visit360OrganizerUrl',
			type: 'string',
			default: '',
			description: 'Link for the agent to host a live virtual visit',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Virtual Visit Participation URL',
			name: 'visit360ParticipationUrl',
			type: 'string',
			default: '',
			description: 'Link for the attendees to join the virtual visit',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Archived',
			name: 'archived',
			type: 'boolean',
			default: false,
			description: 'Whether to create the event archived (hidden from default listings, restorable)',
		},
	},
	{
		in: 'body',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Parent ID',
			name: 'parentId',
			type: 'number',
			default: 0,
			description: 'Event heading the recurring series this event belongs to',
		},
	},
	{
		in: 'body',
		wire: recurrence,
		property: {
			displayName: 'Recurrence',
			name: 'recurrence',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Recurrence Rule',
			description: 'How the event repeats (RFC 5545 rule); date-times are sent in UTC',
			options: [
				{
					displayName: 'Rule',
					name: 'rule',
					values: [
						{
							displayName: 'By Month',
							name: 'bymonth',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1, 7',
							description: 'Months (1-12), comma-separated',
						},
						{
							displayName: 'By Month Day',
							name: 'bymonthday',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1, 15',
							description: 'Days of the month (1-31), comma-separated',
						},
						{
							displayName: 'By Month Day From End',
							name: 'bynmonthday',
							type: 'string',
							default: '',
							placeholder: 'e.g. -1',
							description: 'Days counted from the end of the month (-1 is the last day), comma-separated',
						},
						{
							displayName: 'By Nth Weekday (JSON)',
							name: 'bynweekday',
							type: 'string',
							default: '',
							placeholder: 'e.g. [[0, 1], [4, -1]]',
							description: 'Pairs [weekday (0 = Monday … 6 = Sunday), position], e.g. [[0, 1]] for the first Monday',
						},
						{
							displayName: 'By Set Position',
							name: 'bysetpos',
							type: 'string',
							default: '',
							placeholder: 'e.g. -1',
							description: 'Positions kept within each period, comma-separated',
						},
						{
							displayName: 'By Week Number',
							name: 'byweekno',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1, 27',
							description: 'ISO week numbers, comma-separated',
						},
						{
							displayName: 'By Weekday',
							name: 'byweekday',
							type: 'multiOptions',
							options: [
								{ name: 'Friday', value: 'FR' },
								{ name: 'Monday', value: 'MO' },
								{ name: 'Saturday', value: 'SA' },
								{ name: 'Sunday', value: 'SU' },
								{ name: 'Thursday', value: 'TH' },
								{ name: 'Tuesday', value: 'TU' },
								{ name: 'Wednesday', value: 'WE' },
							],
							default: [],
						},
						{
							displayName: 'By Year Day',
							name: 'byyearday',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1, 100',
							description: 'Days of the year, comma-separated',
						},
						{
							displayName: 'Count',
							name: 'count',
							type: 'number',
							default: 0,
							description: 'Number of occurrences; 0 when the series ends with Until or never',
						},
						{
							displayName: 'Excluded Dates',
							name: 'exdate',
							type: 'string',
							default: '',
							placeholder: 'e.g. 2026-12-25T09:00:00Z',
							description: 'Occurrences to skip, as date-times, comma-separated',
						},
						{
							displayName: 'Frequency',
							name: 'freq',
							type: 'options',
							options: [
								{ name: 'Daily', value: 'daily' },
								{ name: 'Hourly', value: 'hourly' },
								{ name: 'Minutely', value: 'minutely' },
								{ name: 'Monthly', value: 'monthly' },
								{ name: 'Secondly', value: 'secondly' },
								{ name: 'Weekly', value: 'weekly' },
								{ name: 'Yearly', value: 'yearly' },
							],
							default: 'weekly',
						},
						{
							displayName: 'Interval',
							name: 'interval',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 1,
							description: 'Repeat every this many periods of the frequency',
						},
						{
							displayName: 'Start',
							name: 'dtstart',
							type: 'dateTime',
							default: '',
							description: 'First occurrence (required)',
						},
						{
							displayName: 'Until',
							name: 'until',
							type: 'dateTime',
							default: '',
							description: 'Last possible occurrence, inclusive; not together with Count',
						},
					],
				},
			],
		},
	},
];

export const calendarEndpoints: Endpoint[] = [
	{
		resource: 'calendar',
		operation: {
			name: 'Create Event',
			value: 'createEvent',
			action: 'Create a calendar event',
			description:
				'Create an agenda event (visit, appointment…) with its participants: exactly one organizer and one creator',
		},
		method: 'POST',
		path: '/calendar/events',
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [
			{
				in: 'body',
				key: 'type',
				property: {
					displayName: 'Type Name or ID',
					name: 'eventType',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getEventTypes' },
					default: '',
					required: true,
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
			},
			{
				in: 'body',
				wire: toUtcDateTime,
				rules: [utcDateTime],
				property: {
					displayName: 'Starts At',
					name: 'startsAt',
					type: 'dateTime',
					default: '',
					required: true,
					description: 'Start of the event, sent in UTC',
				},
			},
			{
				in: 'body',
				wire: toUtcDateTime,
				rules: [utcDateTime],
				property: {
					displayName: 'Ends At',
					name: 'endsAt',
					type: 'dateTime',
					default: '',
					required: true,
					description: 'End of the event, after its start, sent in UTC',
				},
			},
			{
				in: 'body',
				property: {
					displayName: 'All Day',
					name: 'allDay',
					type: 'boolean',
					default: false,
					required: true,
					description: 'Whether the event lasts the whole day',
				},
			},
			{
				in: 'body',
				key: 'users',
				wire: participants,
				property: {
					displayName: 'Participants',
					name: 'participants',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
					required: true,
					placeholder: 'Add Participant',
					description: 'Users taking part: each once, exactly one organizer and exactly one creator',
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
		checks: [endsAfterStarts, participantRules, geoRules, recurrenceRules],
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Delete Event',
			value: 'deleteEvent',
			action: 'Delete a calendar event',
			description: 'Delete an agenda event for good (to keep it but hide it, archive it in the CRM instead)',
		},
		method: 'DELETE',
		path: '/calendar/events/{eventId}',
		packs: ['SITE_CALENDAR:WRITE'],
		fields: [
			idInPath({
				displayName: 'Event ID',
				name: 'eventId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 120',
				description: 'The ID of the event',
			}),
		],
		output: 'deleted',
	},
	{
		resource: 'calendar',
		operation: {
			name: 'Get Event Types',
			value: 'getEventTypes',
			action: 'Get calendar event types',
			description: 'List the event types (their IDs are used when creating events)',
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
		fields: [agencyField('query', true)],
	},
];
