import { toZonelessUtc } from '../../convert';
import { check, evidence, guess, rule } from '../../rules';
import type { Check, FieldSpec } from '../../types';

/**
 * The period of the calendar's searches (events, a user's availability, permanence users): `from`
 * and `to`, which production reads as date-times without a zone suffix, in UTC by default (the n8n
 * node generated from the vendor's reference). The node sends any date-time it can read that way.
 */

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

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
				description: `Start of the period, sent in UTC. Left out with Period To: ${whenLeftOut}.`,
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
				description: `End of the period, sent in UTC. Left out with Period From: ${whenLeftOut}.`,
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
