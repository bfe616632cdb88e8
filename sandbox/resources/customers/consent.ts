/**
 * Cold-calling consent: one record per customer, upserted and revoked (spec section 3). Both
 * writes refresh the customer's last-update date and, as any change of the contact, send
 * CUSTOMER_UPDATE (docs/assumptions.md); a proof storage failure (admin fault) is a 502 and records
 * nothing.
 */
import { route } from '../../api';
import type { ApiRequest, ApiRoute, World } from '../../api';
import { ApiError, noContent, utcNow } from '../../http';
import type { Customer } from '../../model';
import type { Store } from '../../store';
import { FieldReader, objectBody } from '../../validation';
import { CUSTOMER_PACK, pathCustomer } from './access';

export function consentView(store: Store, customerId: number): unknown {
	const consent = store.consents.get(customerId);
	if (!consent) return null;
	const { customers_id: _id, ...view } = consent;
	return view;
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
		write();
		customer.updated_at = utcNow();
		world.events.publish(customer.site_id, 'CUSTOMER_UPDATE', customer.customers_id);
		return noContent();
	}

	return [
		route('POST', '/customers/{customerId}/consent', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = new FieldReader(objectBody(request.body));
			const reason = reader.requiredString('reason', { minLength: 1, maxLength: 500 });
			const collectedAt = reader.optionalUtc('collected_at') ?? utcNow();
			const proof = reader.optionalObject('proof_file', { nullable: true });
			let proofFileName: string | undefined;
			if (proof) {
				const proofReader = reader.nested(proof, 'proof_file');
				proofFileName = proofReader.requiredString('file_name', { minLength: 1, maxLength: 255 });
				const content = proofReader.requiredString('content_base64');
				if (content && !/^[A-Za-z0-9+/=\s]+$/.test(content)) proofReader.fail('content_base64', 'must be base64');
			}
			reader.throwIfInvalid();
			return writeConsent(request, customer, () => {
				const previous = store.consents.get(customer.customers_id);
				store.consents.set(customer.customers_id, {
					customers_id: customer.customers_id,
					status: 'collected',
					reason,
					collected_at: collectedAt,
					revoked_at: null,
					// Proof files are retained on update (changelog 1.4.0).
					proof_file_name: proofFileName ?? previous?.proof_file_name ?? null,
				});
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
