import { idList, numeric, toUtcDateTime, wholeNumber } from '../../convert';
import { choices } from '../../../../shared/choices';
import { integer, isBoolean, isText, numberBetween, rule, spec, utcDateTime } from '../../rules';
import { keyOf } from '../../fields';
import { withParts } from '../../parts';
import type { FieldSpec, Rule } from '../../types';
import { CREATE_EVENT } from './checks';
import { participantsField } from './participants';
import { recurrenceField } from './recurrence';

/**
 * The fields of an event, each typed as spec section 4 "Calendar" types it: those a new event needs
 * (its own parameters on Create Event, each optional on Update Event, which takes the same fields:
 * docs/assumptions.md "Production evidence"), then the optional ones.
 */

const required = (field: string) => spec(`${CREATE_EVENT}: "${field}" is required`);

/** Where a field a new event needs goes: its own parameter, required (create), or an optional one (update). */
type Need = 'required' | 'optional';

const placed = (need: Need, key: string): Pick<FieldSpec, 'placement' | 'required'> =>
	need === 'required' ? { placement: 'top', required: required(key) } : { placement: 'collection' };

/** The spec's format of an event's times, as quoted for each. */
const TIME_FORMATS: Record<string, string> = {
	starts_at: '"starts_at: UTC YYYY-MM-DDTHH:MM:SSZ, trailing Z required"',
	ends_at: '"ends_at: Same format"',
};

/** When the event starts or ends: any date-time the user gives, sent in UTC as the spec's format says. */
function eventTime(need: Need, key: string, property: FieldSpec['property']): FieldSpec {
	const rules = [rule(spec(`${CREATE_EVENT}: ${TIME_FORMATS[key]}`), utcDateTime)];
	return { in: 'body', ...placed(need, key), convert: toUtcDateTime, rules, property };
}

/** The fields a new event needs, in the order of the form. */
export function essentialEventFields(need: Need): FieldSpec[] {
	return [
		{
			in: 'body',
			...placed(need, 'type'),
			key: 'type',
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
		eventTime(need, 'starts_at', {
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'dateTime',
			default: '',
			description: 'Start of the event, sent in UTC',
		}),
		eventTime(need, 'ends_at', {
			displayName: 'Ends At',
			name: 'endsAt',
			type: 'dateTime',
			default: '',
			description: 'End of the event, after its start, sent in UTC',
		}),
		{
			in: 'body',
			...placed(need, 'all_day'),
			rules: [rule(spec(`${CREATE_EVENT}: "all_day: boolean"`), isBoolean)],
			property: {
				displayName: 'All Day',
				name: 'allDay',
				type: 'boolean',
				default: false,
				description: 'Whether the event lasts the whole day',
			},
		},
		participantsField(need === 'required' ? 'top' : 'collection'),
	];
}

const typed = (type: string, test: Rule['test']) => [rule(spec(`${CREATE_EVENT}: ${type}`), test)];

/** An optional body field with the rule the spec's type column gives it ("title: string or null"). */
function typedField(property: FieldSpec['property'], type: string, test: Rule['test']): FieldSpec {
	const field: FieldSpec = { in: 'body', placement: 'collection', property };
	return { ...field, rules: typed(`"${keyOf(field)}: ${type} or null"`, test) };
}
/** An optional body field the spec types "integer or null": digit text is sent as a number, in the extra body too. */
function integerField(property: FieldSpec['property']): FieldSpec {
	return { ...typedField(property, 'integer', integer()), convert: wholeNumber, convertsExtraBody: true };
}

/** "location_geo: When given, lat and lng (numbers) both required", in decimal degrees. */
const GEO = spec(`${CREATE_EVENT}: "location_geo … When given, lat and lng (numbers) both required" (decimal degrees)`);

/** A coordinate of the point, in decimal degrees from -`bound` to `bound`. */
function coordinate(displayName: string, name: string, bound: number): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		convert: numeric,
		required: GEO,
		rules: [rule(GEO, numberBetween(-bound, bound))],
		property: { displayName, name, type: 'number', default: 0, description: `From -${bound} to ${bound}` },
	};
}

const coordinates = [coordinate('Latitude', 'lat', 90), coordinate('Longitude', 'lng', 180)];

export const optionalEventFields: FieldSpec[] = [
	typedField(
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'Falls back to the label of the event type when left out',
		},
		'string',
		isText,
	),
	typedField({ displayName: 'Location', name: 'location', type: 'string', default: '' }, 'string', isText),
	{
		in: 'body',
		placement: 'collection',
		key: 'location_geo',
		parts: coordinates,
		property: withParts(
			{
				displayName: 'Location Geo',
				name: 'locationGeo',
				type: 'fixedCollection',
				default: {},
				placeholder: 'Add Coordinates',
				description: 'Coordinates of the location, in decimal degrees',
			},
			{ displayName: 'Point', name: 'point' },
			coordinates,
		),
	},
	integerField({
		displayName: 'Sequence Duration',
		name: 'sequenceDuration',
		type: 'number',
		default: 30,
		description: 'Minutes per booking slot',
	}),
	integerField({
		displayName: 'Gathering Gauge',
		name: 'gatheringGauge',
		type: 'number',
		default: 1,
		description: 'Maximum number of attendees per slot',
	}),
	integerField({
		displayName: 'Commute Duration',
		name: 'commuteDuration',
		type: 'number',
		default: 0,
		description: 'Minutes reserved before the event for travelling',
	}),
	typedField(
		{
			displayName: 'Communicate Location',
			name: 'communicateLocation',
			type: 'boolean',
			default: false,
			description: 'Whether to share the location with the participants',
		},
		'boolean',
		isBoolean,
	),
	typedField(
		{
			displayName: 'Is Confidential',
			name: 'isConfidential',
			type: 'boolean',
			default: false,
			description: 'Whether to hide the details from non-participants (the slot still shows as busy)',
		},
		'boolean',
		isBoolean,
	),
	integerField({
		displayName: 'Reminder',
		name: 'remindTimeInMin',
		type: 'number',
		default: 15,
		description: 'How many minutes before the event the reminder goes off (0 disables the offset)',
	}),
	{
		in: 'body',
		placement: 'collection',
		values: spec(`${CREATE_EVENT}: "appointment_mode: OFFICE, PHONE, PRODUCT, VISIO, null"`),
		property: {
			displayName: 'Appointment Mode',
			name: 'appointmentMode',
			type: 'options',
			options: choices({ Office: 'OFFICE', Phone: 'PHONE', Property: 'PRODUCT', 'Video Call': 'VISIO' }),
			default: 'OFFICE',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: idList,
		property: {
			displayName: 'Property IDs',
			name: 'products',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5001, 5002',
			description: 'Property listings concerned, comma-separated',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: idList,
		property: {
			displayName: 'Contact IDs',
			name: 'contacts',
			type: 'string',
			default: '',
			placeholder: 'e.g. 10001, 10002',
			description: 'Contacts concerned, comma-separated',
		},
	},
	typedField(
		{ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '' },
		'string',
		isText,
	),
	typedField(
		{
			displayName: 'Video Call URL',
			name: 'visioUrl',
			type: 'string',
			default: '',
			description: 'Link of the video call, for the Video Call appointment mode',
		},
		'string',
		isText,
	),
	typedField(
		{
			displayName: 'Virtual Visit Organizer URL',
			name: 'visit360OrganizerUrl',
			type: 'string',
			default: '',
			description: 'Link for the agent to host a live virtual visit',
		},
		'string',
		isText,
	),
	typedField(
		{
			displayName: 'Virtual Visit Participation URL',
			name: 'visit360ParticipationUrl',
			type: 'string',
			default: '',
			description: 'Link for the attendees to join the virtual visit',
		},
		'string',
		isText,
	),
	typedField(
		{
			displayName: 'Archived',
			name: 'archived',
			type: 'boolean',
			default: false,
			description: 'Whether to create the event archived (hidden from default listings, restorable)',
		},
		'boolean',
		isBoolean,
	),
	// An id: a text box, so that the field added and left empty sends nothing (a number box sent 0).
	integerField({
		displayName: 'Parent ID',
		name: 'parentId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 42',
		description: 'Event heading the recurring series this event belongs to',
	}),
	recurrenceField,
];
