import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { recurrenceConverter } from '../../convert';
import { check, eachOneOf, integer, isEmpty, oneOf, spec, utcDateTime } from '../../rules';
import type { FieldSpec } from '../../types';

/**
 * The recurrence of an event (spec section 4 "Calendar", "Recurrence object (RFC 5545 semantics)"):
 * its builder, and the rules the spec states for it.
 */
const RECURRENCE = spec(
	'section 4 "Calendar", recurrence object: "dtstart string (required, UTC), freq (required; yearly … secondly), interval integer (required), count integer or null (mutually exclusive with until), until string or null (inclusive, UTC), and arrays … byweekday (codes MO … SU), bynweekday (pairs [weekday_index 0=Monday..6=Sunday, position]) … exdate (UTC datetimes)", with RFC 5545 semantics',
);

const property: INodeProperties = {
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
};

const parts = (property.options as Array<{ values: INodeProperties[] }>)[0].values;
const part = (name: string) => parts.find((candidate) => candidate.name === name) as INodeProperties;

/** A rule part as users see it: `"Recurrence" By Nth Weekday (JSON) (recurrence.bynweekday)`. */
const label = (key: string) => `"Recurrence" ${part(key).displayName} (recurrence.${key})`;

/** The values of a rule part's options, e.g. the frequencies: the rule reads the builder's own list. */
const optionValues = (key: string) =>
	(part(key).options ?? []).flatMap((option) => ('value' in option ? [String(option.value)] : []));

export const recurrenceField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	convert: recurrenceConverter(label('bynweekday')),
	property,
};

const isPair = (entry: unknown) =>
	Array.isArray(entry) &&
	entry.length === 2 &&
	Number.isInteger(entry[0]) &&
	(entry[0] as number) >= 0 &&
	(entry[0] as number) <= 6 &&
	Number.isInteger(entry[1]);

const NUMBER_LISTS = ['bymonth', 'bymonthday', 'bynmonthday', 'byyearday', 'byweekno', 'bysetpos'];

/** Required parts, count or until (not both), UTC date-times, weekday codes and pairs. */
export const recurrenceRules = check(RECURRENCE, ({ body }) => {
	const rule = body.recurrence as IDataObject | undefined;
	if (rule === undefined || rule === null) return [];
	const found: Array<{ field: string; message: string }> = [];
	const report = (key: string, message: string | undefined) => {
		if (message) found.push({ field: label(key), message });
	};
	const required = (key: string, test: (value: unknown) => string | undefined) =>
		report(key, isEmpty(rule[key]) ? 'is required' : test(rule[key]));
	required('dtstart', utcDateTime);
	required('freq', oneOf(optionValues('freq')));
	required('interval', integer({ min: 1 }));
	if (!isEmpty(rule.count)) report('count', integer({ min: 1 })(rule.count));
	if (!isEmpty(rule.until)) report('until', utcDateTime(rule.until));
	if (!isEmpty(rule.count) && !isEmpty(rule.until)) {
		report('until', 'cannot be combined with "Count": give one or the other');
	}
	for (const key of NUMBER_LISTS) {
		const entries = rule[key];
		if (Array.isArray(entries) && entries.some((entry) => !Number.isInteger(entry))) {
			report(key, 'must be whole numbers, comma-separated');
		}
	}
	if (!isEmpty(rule.byweekday)) report('byweekday', eachOneOf(optionValues('byweekday'))(rule.byweekday));
	const pairs = rule.bynweekday;
	if (!isEmpty(pairs) && !(Array.isArray(pairs) && pairs.every(isPair))) {
		report('bynweekday', 'must be a JSON list of pairs [weekday 0-6 (0 = Monday), position], e.g. [[0, 1], [4, -1]]');
	}
	const exdates = Array.isArray(rule.exdate) ? rule.exdate : [];
	const badDate = exdates.find((entry) => utcDateTime(entry));
	if (badDate !== undefined) report('exdate', `must be UTC date-times; "${String(badDate)}" is not`);
	return found;
});
