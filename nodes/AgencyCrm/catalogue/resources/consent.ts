import { DateTime } from 'luxon';

import { OFFSET_DATE_TIME_FORMAT, toOffsetDateTime } from '../convert';
import { OFFSET_DATE_TIME, customerField } from '../fields';
import { evidence, guess, rule } from '../rules';
import type { Converter, Endpoint, PreparedRequest } from '../types';

/** Production's longest consent reason (docs/assumptions.md "Production evidence"). */
const MAX_REASON_LENGTH = 64;

/** The consent's date, now when none is given: production's clients always send one. */
function dated(request: PreparedRequest): PreparedRequest {
	if (request.body.consent_date !== undefined) return request;
	const now = DateTime.utc().toFormat(OFFSET_DATE_TIME_FORMAT);
	return { ...request, body: { ...request.body, consent_date: now } };
}

/** A yes or no sent as a form's text: production reads `1` and `0`. */
const oneOrZero: Converter = (value) => ({ value: typeof value === 'boolean' ? Number(value) : value });

export const consentEndpoints: Endpoint[] = [
	{
		resource: 'consent',
		operation: {
			name: 'Set',
			value: 'set',
			action: 'Set the consent of a contact',
			description:
				'Record, or update, the cold-calling consent of a contact with its reason and proof files, then read it back. If a proof cannot be stored, nothing is recorded (error 502).',
		},
		method: 'POST',
		path: '/customers/{customerId}/consent',
		packs: ['Customers'],
		// Spec section 4: "If the proof file cannot be stored the response is 502 and nothing is recorded."
		noRetryStatuses: [502],
		resend: {
			resend: true,
			reason:
				'Spec section 4: "Upsert of the single consent record": a second send updates the same record with the same values. Its 502 is never resent: "If the proof file cannot be stored the response is 502 and nothing is recorded".',
		},
		// Production takes the consent as a form, with or without files (docs/assumptions.md "Production evidence").
		upload: 'multipart',
		// Confirmed by reading the contact's consent back, as production's clients do.
		record: {
			id: 'customers_id',
			idFromPath: 'customerId',
			readBack: 'customer:get',
			include: 'consent',
			always: true,
		},
		derive: dated,
		fields: [
			customerField('path'),
			{
				in: 'body',
				placement: 'top',
				// Spec section 3: "reason and optional proof file stored"; whether production requires it is not shown.
				required: guess('a consent carries its reason'),
				rules: [
					rule(evidence('a consent reason has at most 64 characters'), (value) =>
						String(value).length > MAX_REASON_LENGTH
							? `must be at most ${MAX_REASON_LENGTH} characters (it has ${String(value).length})`
							: undefined,
					),
				],
				property: {
					displayName: 'Reason',
					name: 'reason',
					type: 'string',
					default: '',
					placeholder: 'e.g. Signed form at the agency',
					description: `How and why the consent was collected, at most ${MAX_REASON_LENGTH} characters`,
				},
			},
			{
				in: 'body',
				placement: 'collection',
				key: 'consent_date',
				convert: toOffsetDateTime,
				rules: [OFFSET_DATE_TIME],
				property: {
					displayName: 'Consent Date',
					name: 'collectedAt',
					type: 'dateTime',
					default: '',
					description: 'When the consent was given; now when left out',
				},
			},
			{
				in: 'body',
				placement: 'collection',
				key: 'accept_outside_hours',
				convert: oneOrZero,
				property: {
					displayName: 'Accept Outside Hours',
					name: 'acceptOutsideHours',
					type: 'boolean',
					default: false,
					description: 'Whether the contact may be called outside office hours',
				},
			},
			{
				// The spec gives the proof files no size limit and no type.
				in: 'file',
				placement: 'collection',
				key: 'proofs[]',
				manyFiles: true,
				property: {
					displayName: 'Proof Input Binary Fields',
					name: 'proofBinaryPropertyName',
					type: 'string',
					default: 'data',
					placeholder: 'e.g. data, signedForm',
					description:
						'Names of the input binary fields holding the proofs of consent (a signed form, a recording), comma-separated',
				},
			},
		],
	},
	{
		resource: 'consent',
		operation: {
			name: 'Revoke',
			value: 'revoke',
			action: 'Revoke the consent of a contact',
			description: 'Set the revocation date of the contact’s cold-calling consent; succeeds even when there is none',
		},
		method: 'DELETE',
		path: '/customers/{customerId}/consent',
		packs: ['Customers'],
		resend: {
			resend: true,
			reason:
				'Spec section 4: "Sets the revocation date; 204 even if no consent exists": a second send answers 204 like the first.',
		},
		fields: [customerField('path')],
	},
];
