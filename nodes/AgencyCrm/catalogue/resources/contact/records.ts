import { CUSTOMER_INCLUDE_OPTIONS, productionIncludes } from '../../../../shared/relations';
import { listEntries } from '../../../../shared/values';
import { guess } from '../../rules';
import type { FieldSpec, OutputKeys } from '../../types';

/**
 * What every read of a contact loads: production leaves a contact's origin and groups out unless
 * `include` asks for them (docs/assumptions.md "Production evidence"), and the output shows them.
 */
export const CONTACT_READ_INCLUDES = ['origin', 'groups'];

/**
 * Simplified output: who the contact is, how to reach them and who follows them (the spec names most
 * of these keys), whether they gave their GDPR consent (production's `rgpd_consent`, read with
 * Include "rgpd"), with its origin and groups (CONTACT_READ_INCLUDES): 11 fields and the id.
 */
const CUSTOMER_SIMPLE = [
	'agency_id',
	'user_id',
	'firstname',
	'lastname',
	'email',
	'phone',
	'mobile_phone',
	'type',
	'rgpd_consent',
];
export const CUSTOMER_OUTPUT: OutputKeys = {
	id: 'customers_id',
	simple: CUSTOMER_SIMPLE,
	relationsParameter: 'include',
	related: CONTACT_READ_INCLUDES,
	fields: [...CUSTOMER_SIMPLE, 'phones', 'groups', 'origin', 'gender_code', 'created_at', 'updated_at'],
	// Production answers `id`, `mobilePhone`, `createdAt` where the spec and the sandbox say otherwise.
	alternatives: { customers_id: ['id'], mobile_phone: ['mobilePhone'], created_at: ['createdAt'] },
};

/**
 * `include` of a contact and of the contact search. The spec names it for `GET /customers/{id}`
 * only; that the search takes it too is our guess (docs/assumptions.md).
 */
export function customerIncludeField(): FieldSpec {
	return {
		in: 'query',
		placement: 'collection',
		setting: true,
		// 0.1.0 offered `search_requests`; production reads `searchRequests` (docs/assumptions.md).
		convert: (value) => {
			const includes = productionIncludes(listEntries(value));
			return { value: includes.length ? includes.join(',') : undefined };
		},
		values: guess('customer includes beyond the spec list'),
		property: {
			displayName: 'Include',
			name: 'include',
			type: 'multiOptions',
			options: CUSTOMER_INCLUDE_OPTIONS,
			default: [],
			description:
				'Related data to load with each contact (the API\'s "include": consent, searchRequests, rgpd as rgpd_consent…); origin and groups are always loaded. A search gives no consent: it is read from each contact. Other values can be given with an expression.',
		},
	};
}

/** The customer type; the spec names the field but not its values, which are our guess. */
export function typeField(): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		values: guess('customer types'),
		property: {
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [
				{ name: 'Buyer', value: 'buyer' },
				{ name: 'Landlord', value: 'landlord' },
				{ name: 'Other', value: 'other' },
				{ name: 'Seller', value: 'seller' },
				{ name: 'Tenant', value: 'tenant' },
			],
			default: 'buyer',
			description: 'Choose from the list, or specify another type using an expression',
		},
	};
}
