/**
 * Cold-calling consent: one record per customer, upserted and revoked (spec section 3). Both
 * writes refresh the customer's last-update date and, as any change of the contact, send
 * CUSTOMER_UPDATE (docs/assumptions.md); a proof storage failure (admin fault) is a 502 and records
 * nothing, and a dropped consent (admin fault) is answered 204 and records nothing either. The upsert
 * takes production's form (docs/sandbox.md "As production"): `multipart/form-data` with `reason` (cut
 * at 64 characters, as production cuts it rather than refusing), `consent_date`
 * (`YYYY-MM-DDTHH:MM:SS+00:00`), `accept_outside_hours` (`1`/`0`) and the proof files under
 * `proofs[]`; the same text fields as JSON are taken too, without files.
 */
import { route } from '../../api';
import type { ApiRequest, ApiRoute, World } from '../../api';
import { ApiError, noContent, utcNow } from '../../http';
import type { Consent, Customer } from '../../model';
import { isMultipart, parseMultipart } from '../../multipart';
import type { Store } from '../../store';
import { FieldReader, objectBody } from '../../validation';
import { CUSTOMER_PACK, pathCustomer } from './access';

/** Production's longest consent reason: a longer one is cut there. */
const MAX_REASON_LENGTH = 64;
const PROOF_PART = 'proofs[]';
/** PHP's `Y-m-d\TH:i:sP`, as production validates consent dates: no milliseconds, an offset rather than `Z`. */
const CONSENT_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** The consent as production reads it back with `include=consent`. */
export function consentView(store: Store, customerId: number): unknown {
	const consent = store.consents.get(customerId);
	if (!consent) return null;
	return {
		reason: consent.reason,
		consentDate: consent.collected_at,
		acceptOutsideHours: consent.accept_outside_hours,
		proofs: consent.proof_file_names.map((name) => ({ name })),
		revokedAt: consent.revoked_at,
	};
}

/** The upsert's fields, from a form (text parts and files) or a JSON object (text fields only). */
function consentBody(request: ApiRequest): { fields: Record<string, unknown>; proofs: string[] } {
	if (!isMultipart(request.contentType)) return { fields: objectBody(request.body), proofs: [] };
	const parts = parseMultipart(request.rawBody, request.contentType);
	const fields = Object.fromEntries(
		parts.filter((part) => part.filename === undefined).map((part) => [part.name, part.data.toString('utf8')]),
	);
	// A file under another name is named by the check below (a proof sent as `proof_file`).
	for (const part of parts)
		if (part.filename !== undefined && part.name !== PROOF_PART) fields[part.name] = part.filename;
	const proofs = parts.filter((part) => part.filename !== undefined && part.name === PROOF_PART);
	return { fields, proofs: proofs.map((part) => part.filename ?? 'proof') };
}

/** The consent's fields as production validates them; the old guesses (JSON proof, `collected_at`) are named as such. */
function readConsent(fields: Record<string, unknown>) {
	const reader = new FieldReader(fields);
	for (const [key, instead] of [
		['proof_file', `the proof files go as files under ${PROOF_PART} in a multipart/form-data body`],
		['collected_at', 'the date goes under consent_date'],
	]) {
		if (reader.has(key)) reader.fail(key, `is not a consent field: ${instead}`);
	}
	const reason = reader.requiredString('reason', { minLength: 1 }).slice(0, MAX_REASON_LENGTH);
	const date = reader.optionalString('consent_date') ?? undefined;
	if (date !== undefined && !CONSENT_DATE.test(date))
		reader.fail('consent_date', 'must be a date YYYY-MM-DDTHH:MM:SS+00:00 (no milliseconds, an offset, not Z)');
	const outsideHours = fields.accept_outside_hours;
	if (outsideHours !== undefined && !['1', '0', 1, 0, true, false].includes(outsideHours as string))
		reader.fail('accept_outside_hours', 'must be 1 or 0');
	reader.throwIfInvalid();
	return {
		reason,
		consentDate: date ?? utcNow(),
		acceptOutsideHours: outsideHours === undefined ? undefined : ['1', 1, true].includes(outsideHours as string),
	};
}

export function consentRoutes(world: World): ApiRoute[] {
	const { store } = world;

	function writeConsent(request: ApiRequest, customer: Customer, write: () => void) {
		if (world.consentProofFails(request.grant.client.clientId)) {
			throw new ApiError(
				502,
				'PROOF_STORAGE_FAILED',
				'The consent proof file could not be stored; the consent was not recorded.',
			);
		}
		// Accepted, but the contact never shows it: what a client confirms by reading it back.
		if (world.consentDropped(request.grant.client.clientId)) return noContent();
		write();
		customer.updated_at = utcNow();
		world.events.publish(customer.site_id, 'CUSTOMER_UPDATE', customer.customers_id);
		return noContent();
	}

	return [
		route('POST', '/customers/{customerId}/consent', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const { fields, proofs } = consentBody(request);
			const { reason, consentDate, acceptOutsideHours } = readConsent(fields);
			return writeConsent(request, customer, () => {
				const previous = store.consents.get(customer.customers_id);
				const consent: Consent = {
					customers_id: customer.customers_id,
					status: 'collected',
					reason,
					collected_at: consentDate,
					revoked_at: null,
					accept_outside_hours: acceptOutsideHours ?? previous?.accept_outside_hours ?? null,
					// Proof files are retained on update (changelog 1.4.0).
					proof_file_names: [...(previous?.proof_file_names ?? []), ...proofs],
				};
				store.consents.set(customer.customers_id, consent);
			});
		}),
		route('DELETE', '/customers/{customerId}/consent', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			return writeConsent(request, customer, () => {
				const consent = store.consents.get(customer.customers_id);
				if (consent && consent.status === 'collected')
					Object.assign(consent, { status: 'revoked', revoked_at: utcNow() });
			});
		}),
	];
}
