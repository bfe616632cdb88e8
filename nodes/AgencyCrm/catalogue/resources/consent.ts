import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { OFFSET_DATE_TIME_FORMAT } from '../../../shared/values';
import { toOffsetDateTime } from '../convert';
import { OFFSET_DATE_TIME, customerField } from '../fields';
import { guess } from '../rules';
import type { Converter, Endpoint, PreparedRequest } from '../types';

/** Production's longest consent reason: it cuts a longer one there (docs/assumptions.md "Production evidence"). */
const MAX_REASON_LENGTH = 64;

/**
 * The consent's date, now when none is given (production's clients always send one); a reason longer
 * than production keeps is sent as given, with a notice of what it keeps.
 */
function consentRequest(request: PreparedRequest): PreparedRequest {
	const { reason, consent_date: date } = request.body;
	const body =
		date === undefined
			? { ...request.body, consent_date: DateTime.utc().toFormat(OFFSET_DATE_TIME_FORMAT) }
			: request.body;
	if (typeof reason !== 'string' || reason.length <= MAX_REASON_LENGTH) return { ...request, body };
	const kept = `"Reason" has ${reason.length} characters: Agency CRM keeps the first ${MAX_REASON_LENGTH} ("${reason.slice(0, MAX_REASON_LENGTH)}"), as production cuts a longer reason`;
	return { ...request, body, notices: [...request.notices, kept] };
}

/** A date-time of the read-back as the consent's date is sent; text it cannot read stays as it is. */
const asSent = (value: unknown) => (toOffsetDateTime(value, { timezone: 'UTC' }) as { value: unknown }).value;

/**
 * A time of day and, ending the date, its offset (`Z`, `+02:00`, `+0200`, `+02`): only such a date
 * names one moment. A space before the offset (`10:00:00 +02:00`) is allowed, and dropped to compare.
 */
const TIME_THEN_OFFSET = /(\d:\d\d(?::\d\d(?:[.,]\d+)?)?)\s*(Z|[+-]\d\d(?::?\d\d)?)$/i;

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** The output of a consent whose date the read-back does not confirm: both dates, and why. */
const dateNotConfirmed = (sent: unknown, readBack: unknown, note: string): IDataObject => ({
	date_confirmed: false,
	date_sent: sent as string,
	date_read_back: (readBack ?? null) as string,
	date_note: note,
});

/**
 * What the read-back's date (`consentDate`, or `consent_date`) says of the date sent. Production's
 * form of it is not shown: it is compared, to the second, only in a form that carries an offset; a
 * local time or a date alone names no moment, and is said not compared.
 */
function consentDateCheck(date: unknown, sent: unknown): IDataObject {
	if (isBlank(date)) return dateNotConfirmed(sent, date, 'The consent read back has no date');
	const text = String(date).trim();
	if (typeof date !== 'string' || !TIME_THEN_OFFSET.test(text)) {
		const note = `The consent's date read back, "${text}", carries no offset: which moment it names is not shown, so it is not compared with the date sent`;
		return dateNotConfirmed(sent, date, note);
	}
	if (asSent(text.replace(TIME_THEN_OFFSET, '$1$2')) === sent) return { date_confirmed: true };
	return dateNotConfirmed(sent, date, `The consent read back is dated ${text}, not as sent`);
}

/**
 * Whether the consent read back is given, as production's lead router confirms it: there, and not
 * revoked (`revokedAt`, or `revoked_at`). A consent absent or revoked is "written but not confirmed:
 * to check" — the legal path of cold calling; its date, confirmed or not, is said in the output.
 */
function confirmConsent(readBack: IDataObject, request: PreparedRequest) {
	const consent = readBack.consent as IDataObject | null | undefined;
	if (typeof consent !== 'object' || consent === null) return { unconfirmed: 'shows no consent' };
	const revokedAt = consent.revokedAt ?? consent.revoked_at;
	if (!isBlank(revokedAt)) return { unconfirmed: `shows it revoked (${String(revokedAt)})` };
	return { said: consentDateCheck(consent.consentDate ?? consent.consent_date, request.body.consent_date) };
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
				'Record, or update, the cold-calling consent of a contact with its reason and proof files, then read it back: confirmed when the contact shows it, not revoked (otherwise the item fails); date_confirmed says whether its date reads as sent. If a proof cannot be stored, nothing is recorded (error 502).',
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
		// The contact's one consent, confirmed by its read-back: two items for one contact take turns in
		// input order, or the first would read back the second's date and fail, its consent unconfirmed.
		writes: (request) => [`path:${request.path}`],
		// Production takes the consent as a form, with or without files (docs/assumptions.md "Production evidence").
		upload: 'multipart',
		// Confirmed by reading the contact's consent back, as production's lead router does.
		record: {
			id: 'customers_id',
			idFromPath: 'customerId',
			readBack: 'customer:get',
			include: 'consent',
			always: true,
			confirm: confirmConsent,
		},
		derive: consentRequest,
		fields: [
			customerField('path'),
			{
				in: 'body',
				placement: 'top',
				// Spec section 3: "reason and optional proof file stored"; whether production requires it is not shown.
				required: guess('a consent carries its reason'),
				property: {
					displayName: 'Reason',
					name: 'reason',
					type: 'string',
					default: '',
					placeholder: 'e.g. Signed form at the agency',
					description: `How and why the consent was collected. Agency CRM keeps the first ${MAX_REASON_LENGTH} characters.`,
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
