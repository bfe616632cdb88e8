import type { INodeProperties } from 'n8n-workflow';

import { json, numberList, numeric, stringList, toUtcDateTime, utcDateTimeList } from '../../convert';
import { labelOf } from '../../fields';
import { withParts } from '../../parts';
import { choices } from '../../../../shared/choices';
import { check, integer, isEmpty, rule, spec, utcDateTime } from '../../rules';
import type { Converter, FieldSpec, Rule } from '../../types';

/**
 * The recurrence of an event (spec section 4 "Calendar", "Recurrence object (RFC 5545 semantics)"):
 * its parts, each a field with the rules the spec states for it, and the one rule across them.
 */
const RECURRENCE = spec(
	'section 4 "Calendar", recurrence object: "dtstart string (required, UTC), freq (required; yearly … secondly), interval integer (required), count integer or null (mutually exclusive with until), until string or null (inclusive, UTC), and arrays … byweekday (codes MO … SU), bynweekday (pairs [weekday_index 0=Monday..6=Sunday, position]) … exdate (UTC datetimes)", with RFC 5545 semantics',
);

const stated = (test: Rule['test']) => [rule(RECURRENCE, test)];

function part(property: INodeProperties, spec: Omit<FieldSpec, 'in' | 'placement' | 'property'> = {}): FieldSpec {
	return { in: 'body', placement: 'collection', property, ...spec };
}

/** Numbers of an RFC 5545 `BY…` list, comma-separated in the builder. */
function numberListPart(displayName: string, name: string, placeholder: string, description: string): FieldSpec {
	return part(
		{ displayName, name, type: 'string', default: '', placeholder, description },
		{
			convert: numberList,
			rules: stated((value) =>
				(value as unknown[]).every((entry) => Number.isInteger(entry))
					? undefined
					: 'must be whole numbers, comma-separated',
			),
		},
	);
}

/** 0 is the builder's "no count": the series ends with Until, or never. */
const countOrNone: Converter = (value, env) => (value === 0 ? { value: undefined } : numeric(value, env));

const isPair = (entry: unknown) =>
	Array.isArray(entry) &&
	entry.length === 2 &&
	Number.isInteger(entry[0]) &&
	(entry[0] as number) >= 0 &&
	(entry[0] as number) <= 6 &&
	Number.isInteger(entry[1]);

const dtstart = part(
	{ displayName: 'Start', name: 'dtstart', type: 'dateTime', default: '', description: 'First occurrence (required)' },
	{ convert: toUtcDateTime, required: RECURRENCE, rules: stated(utcDateTime) },
);

const until = part(
	{
		displayName: 'Until',
		name: 'until',
		type: 'dateTime',
		default: '',
		description: 'Last possible occurrence, inclusive; not together with Count',
	},
	{ convert: toUtcDateTime, rules: stated(utcDateTime) },
);

/** The parts in the spec's order, which is the order their problems are reported in. */
const parts: FieldSpec[] = [
	dtstart,
	part(
		{
			displayName: 'Frequency',
			name: 'freq',
			type: 'options',
			options: choices({
				Daily: 'daily',
				Hourly: 'hourly',
				Minutely: 'minutely',
				Monthly: 'monthly',
				Secondly: 'secondly',
				Weekly: 'weekly',
				Yearly: 'yearly',
			}),
			default: 'weekly',
		},
		{ required: RECURRENCE, values: RECURRENCE },
	),
	part(
		{
			displayName: 'Interval',
			name: 'interval',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Repeat every this many periods of the frequency',
		},
		{ convert: numeric, required: RECURRENCE, rules: stated(integer({ min: 1 })) },
	),
	part(
		{
			displayName: 'Count',
			name: 'count',
			type: 'number',
			default: 0,
			description: 'Number of occurrences; 0 when the series ends with Until or never',
		},
		{ convert: countOrNone, rules: stated(integer({ min: 1 })) },
	),
	until,
	numberListPart('By Month', 'bymonth', 'e.g. 1, 7', 'Months (1-12), comma-separated'),
	numberListPart('By Month Day', 'bymonthday', 'e.g. 1, 15', 'Days of the month (1-31), comma-separated'),
	numberListPart(
		'By Month Day From End',
		'bynmonthday',
		'e.g. -1',
		'Days counted from the end of the month (-1 is the last day), comma-separated',
	),
	numberListPart('By Year Day', 'byyearday', 'e.g. 1, 100', 'Days of the year, comma-separated'),
	numberListPart('By Week Number', 'byweekno', 'e.g. 1, 27', 'ISO week numbers, comma-separated'),
	part(
		{
			displayName: 'By Weekday',
			name: 'byweekday',
			type: 'multiOptions',
			options: choices({
				Friday: 'FR',
				Monday: 'MO',
				Saturday: 'SA',
				Sunday: 'SU',
				Thursday: 'TH',
				Tuesday: 'TU',
				Wednesday: 'WE',
			}),
			default: [],
		},
		{ convert: stringList, values: RECURRENCE },
	),
	part(
		{
			displayName: 'By Nth Weekday (JSON)',
			name: 'bynweekday',
			type: 'string',
			default: '',
			placeholder: 'e.g. [[0, 1], [4, -1]]',
			description: 'Pairs [weekday (0 = Monday … 6 = Sunday), position], e.g. [[0, 1]] for the first Monday',
		},
		{
			convert: json,
			rules: stated((value) =>
				Array.isArray(value) && value.every(isPair)
					? undefined
					: 'must be a JSON list of pairs [weekday 0-6 (0 = Monday), position], e.g. [[0, 1], [4, -1]]',
			),
		},
	),
	numberListPart('By Set Position', 'bysetpos', 'e.g. -1', 'Positions kept within each period, comma-separated'),
	part(
		{
			displayName: 'Excluded Dates',
			name: 'exdate',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2026-12-25T09:00:00Z',
			description: 'Occurrences to skip, as date-times, comma-separated',
		},
		{
			convert: utcDateTimeList,
			rules: stated((value) => {
				const bad = (value as unknown[]).find((entry) => utcDateTime(entry));
				return bad === undefined ? undefined : `must be UTC date-times; "${String(bad)}" is not`;
			}),
		},
	),
];

export const recurrenceField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	parts,
	property: withParts(
		{
			displayName: 'Recurrence',
			name: 'recurrence',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Recurrence Rule',
			description: 'How the event repeats (RFC 5545 rule); date-times are sent in UTC',
		},
		{ displayName: 'Rule', name: 'rule' },
		parts,
	),
};

/** "count integer or null (mutually exclusive with until)". */
export const countOrUntil = check(RECURRENCE, ({ body }) => {
	const recurrence = body.recurrence as { count?: unknown; until?: unknown } | null | undefined;
	if (!recurrence || isEmpty(recurrence.count) || isEmpty(recurrence.until)) return [];
	return [
		{ field: labelOf(until, recurrenceField), message: 'cannot be combined with "Count": give one or the other' },
	];
});
