import { DateTime, IANAZone } from 'luxon';

import { toZonelessUtc } from '../../convert';
import { userField } from '../../fields';
import { check, evidence, guess, rule } from '../../rules';
import type { Check, FieldSpec, PreparedRequest } from '../../types';

/**
 * The period of the calendar's searches (events, a user's availability, permanence users): `from`
 * and `to`, which production reads as date-times without a zone suffix, in the `tz` asked, UTC by
 * default (the n8n node generated from the vendor's reference). The node sends any date-time it can
 * read that way. And what production's calendar reads take besides: `tz`, the time zone of the
 * answer's dates, and `user_id`, the user whose view of the agenda applies.
 */

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const ZONELESS_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";

const PERIOD_FORMAT = evidence('calendar search periods are sent as YYYY-MM-DDTHH:MM:SS in UTC, without a zone suffix');

const periodRule = rule(PERIOD_FORMAT, (value) =>
	ZONELESS.test(String(value)) ? undefined : 'could not be read as a date-time',
);

/** The start and end of the period, each optional: the API then takes its default period, which `whenLeftOut` names. */
export function periodFields(whenLeftOut: string): FieldSpec[] {
	return [
		{
			in: 'query',
			placement: 'collection',
			convert: toZonelessUtc,
			rules: [periodRule],
			property: {
				displayName: 'Period From',
				name: 'from',
				type: 'dateTime',
				default: '',
				description: `Start of the period, sent in UTC (in the Time Zone option when set). Left out with Period To: ${whenLeftOut}.`,
			},
		},
		{
			in: 'query',
			placement: 'collection',
			convert: toZonelessUtc,
			rules: [periodRule],
			property: {
				displayName: 'Period To',
				name: 'to',
				type: 'dateTime',
				default: '',
				description: `End of the period, sent in UTC (in the Time Zone option when set). Left out with Period From: ${whenLeftOut}.`,
			},
		},
	];
}

/** A period that ends before it starts finds nothing: sent as asked, with a hint (the API may say more). */
export const periodInOrder: Check = check(guess('calendar periods end after they start'), ({ qs }) => {
	const [from, to] = [qs.from, qs.to].map((bound) => Date.parse(`${String(bound)}Z`));
	if (Number.isNaN(from) || Number.isNaN(to) || to > from) return [];
	return [
		{ field: '"Period To" (to)', message: `is not after "Period From" (${String(qs.from)}): the period holds nothing` },
	];
});

/** Whether the text names a time zone luxon knows (IANA's, as the reference's `Europe/Paris`). */
const isZone = (value: unknown) => typeof value === 'string' && IANAZone.isValidZone(value);

/**
 * `tz`: the time zone production writes the answer's date-times in, and reads the period in (UTC by
 * default). A name the node does not know is sent with a hint: the API may know more zones.
 */
export const timeZoneOption: FieldSpec = {
	in: 'query',
	placement: 'collection',
	setting: true,
	key: 'tz',
	rules: [
		rule(guess('calendar time zones are IANA names'), (value) =>
			isZone(value) ? undefined : 'is not a time zone name such as Europe/Paris',
		),
	],
	property: {
		displayName: 'Time Zone',
		name: 'timeZone',
		type: 'string',
		default: '',
		placeholder: 'e.g. Europe/Paris',
		description: "The time zone of the answer's dates, and of the period asked (an IANA name); UTC when left empty",
	},
};

const asUser = userField('query');

/** `user_id` on a read of events: whose view of the agenda applies (the vendor's reference), not a filter on participants. */
export const asUserOption: FieldSpec = {
	...asUser,
	property: {
		...asUser.property,
		displayName: 'As User',
		description: 'The user whose view of the agenda applies: confidential events they do not take part in are left out',
	},
};

/** The period's bounds, converted to UTC, written again in the Time Zone asked: production reads them in it. */
export function periodInZone(request: PreparedRequest): PreparedRequest {
	const zone = request.qs.tz;
	if (!isZone(zone)) return request;
	const qs = { ...request.qs };
	for (const bound of ['from', 'to'] as const) {
		const utc = DateTime.fromFormat(String(qs[bound] ?? ''), ZONELESS_FORMAT, { zone: 'utc' });
		if (utc.isValid) qs[bound] = utc.setZone(zone as string).toFormat(ZONELESS_FORMAT);
	}
	return { ...request, qs };
}
