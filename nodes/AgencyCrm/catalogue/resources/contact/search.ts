import type { IDataObject } from 'n8n-workflow';

import { emailOf, nationalPhone, phoneOf, phonesOf } from '../../contacts';
import { isAbsent } from '../../rules';
import type { Endpoint, FieldSpec, PreparedRequest } from '../../types';

type RecordFilter = ReturnType<NonNullable<Endpoint['keepRecords']>>;

/**
 * Contact → Get Many as production's search answers it (docs/assumptions.md "Production evidence"):
 * a phone is matched in its national form only (a contact stored with 06… is found by 06…, never by
 * +33 6…), and hits are not exact (an email or a number that contains the one searched is a hit).
 */

/** The phone filter, sent in the national form production matches (`+33 6 12 34 56 78` → `0612345678`). */
export const phoneFilterField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	convert: (value) => ({ value: nationalPhone(value) ?? value }),
	property: {
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		description:
			'Matches the phone, the mobile phone and every other number of the contact. Sent in the national form Agency CRM searches (+33 6 12 34 56 78 as 0612345678).',
	},
};

/** Whether to keep only the hits that are the email or phone searched; on by default. */
export const exactHitsOption: FieldSpec = {
	in: 'node',
	placement: 'collection',
	setting: true,
	property: {
		displayName: 'Exact Matches Only',
		name: 'exactMatchesOnly',
		type: 'boolean',
		default: true,
		description:
			"Whether to keep only contacts whose email is the one searched (case aside) or that have the phone searched (its last 9 digits). Agency CRM's search also returns contacts whose email or number merely contains it.",
	},
};

/** The exact-match filter of a search by email or phone, unless Exact Matches Only is off. */
export function exactHits(request: PreparedRequest): RecordFilter | undefined {
	if (request.settings?.[exactHitsOption.property.name] === false) return undefined;
	const email = emailOf(request.body.email);
	const phone = isAbsent(request.body.phone) ? undefined : phoneOf(request.body.phone);
	if (!email && !phone) return undefined;
	const searched = [email && `email ${email}`, phone && `phone ${String(request.body.phone)}`].filter(Boolean);
	return {
		keep: (record: IDataObject) =>
			(!email || emailOf(record.email) === email) && (!phone || phonesOf(record).includes(phone)),
		dropped: (count) =>
			`The search returned ${count} contact${count > 1 ? 's' : ''} that ${count > 1 ? 'are' : 'is'} not an exact match of the ${searched.join(' and ')} (Agency CRM's search is not exact): left out. Turn off Exact Matches Only to get them`,
	};
}
