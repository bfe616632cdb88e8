import type { IDataObject } from 'n8n-workflow';

import { agencyField, commentField, criteriaField, lastnameField, nestedUnder } from '../fields';
import { atLeastOne } from '../rules';
import type { Endpoint, FieldSpec, WireTransform } from '../types';
import { Invalid, criteria } from '../wire';
import { CONTACT_FIELDS } from './customer';
import { PRODUCT_FEATURE_FIELDS, propertyTypeField, transactionTypeField } from './product';

/*
 * Lead bodies (docs/assumptions.md "Leads"): `agency_id`, `request_nature`, `comment`, the contact
 * under `customer`, then the listing under `product` (seller) or the searches under
 * `search_requests` (buyer).
 */

/** Criteria rows → one search request: `[{criteria: [{id, value}]}]`. */
const oneSearchRequest: WireTransform = (value) => {
	const rows = criteria(value);
	return rows === undefined || rows instanceof Invalid ? rows : [{ criteria: rows }];
};

/** What both leads send: the agency, the request and the contact. */
function leadFields(defaultNature: string): FieldSpec[] {
	return [
		agencyField('body', true),
		{
			in: 'body',
			property: {
				displayName: 'Request Nature',
				name: 'requestNature',
				type: 'string',
				default: '',
				placeholder: `e.g. ${defaultNature}`,
				description: `What the contact asks for; it is part of the recorded consent reason. "${defaultNature}" when left out.`,
			},
		},
		commentField(),
		...nestedUnder('customer', [lastnameField(false), ...CONTACT_FIELDS]),
	];
}

/** A lead needs a way to find or create its contact (duplicates: email, phone or mobile phone). */
const contactIdentified = atLeastOne(
	'"Last Name", "Email", "Phone" or "Mobile Phone"',
	'is required: give at least one to identify the contact',
	(wire) => {
		const customer = (wire.body.customer ?? {}) as IDataObject;
		return [customer.lastname, customer.email, customer.phone, customer.mobile_phone];
	},
);

export const leadEndpoints: Endpoint[] = [
	{
		resource: 'lead',
		operation: {
			name: 'Create Seller Lead',
			value: 'createSeller',
			action: 'Create a seller lead',
			description:
				'Create a contact who wants to sell or let, with the property. An existing contact with the same email, phone or mobile phone is reused, and its cold-calling consent is recorded as collected.',
		},
		method: 'POST',
		path: '/leads/sellers',
		packs: ['Leads'],
		fields: [
			...leadFields('Valuation'),
			...nestedUnder('product', [
				transactionTypeField(true),
				propertyTypeField(true),
				...PRODUCT_FEATURE_FIELDS,
				criteriaField('product'),
			]),
		],
		extraBodyJson: true,
		checks: [contactIdentified],
	},
	{
		resource: 'lead',
		operation: {
			name: 'Create Buyer Lead',
			value: 'createBuyer',
			action: 'Create a buyer lead',
			description:
				'Create a contact who wants to buy or rent, with what they are looking for. An existing contact with the same email, phone or mobile phone is reused, and its cold-calling consent is recorded as collected.',
		},
		method: 'POST',
		path: '/leads/buyers',
		packs: ['Leads'],
		fields: [
			...leadFields('Search'),
			transactionTypeField(false),
			{
				...criteriaField('searchRequest'),
				key: 'search_requests',
				wire: oneSearchRequest,
			},
		],
		extraBodyJson: true,
		checks: [contactIdentified],
	},
];
