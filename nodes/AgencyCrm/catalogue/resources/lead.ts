import { BUYER_LEAD_CRITERIA, SELLER_LEAD_CRITERIA, criteriaField } from '../criteria';
import { agencyField, commentField, emailField, firstnameField, lastnameField, nestedUnder } from '../fields';
import { atLeastOne, guess } from '../rules';
import type { Endpoint, FieldSpec, WrittenRecord } from '../types';
import { CONTACT_FIELDS } from './contact';
import {
	PRODUCT_FEATURE_FIELDS,
	propertyTypeField,
	referenceField,
	transactionTypeField,
	transactionTypeProperty,
} from './product/fields';

/*
 * Lead bodies are "not shown" in the spec; ours (docs/assumptions.md "Leads"): `agency_id`,
 * `request_nature`, `comment`, the contact under `customer`, then the listing under `product`
 * (seller) or the searches under `search_requests` (buyer).
 */
const LEAD_BODY = guess('lead bodies');

/** What a lead answered without a body outputs: its contact, read back. */
const LEAD_CONTACT: WrittenRecord = { id: 'customers_id', readBack: 'customer:get' };

/** What both leads send: the agency, the request and the contact. */
function leadFields(defaultNature: string): FieldSpec[] {
	return [
		agencyField('body', { placement: 'top', required: LEAD_BODY }),
		{
			in: 'body',
			placement: 'collection',
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
		...nestedUnder('customer', [firstnameField(), lastnameField(), emailField(), ...CONTACT_FIELDS]),
	];
}

/** A lead needs a way to find or create its contact (spec section 4: duplicates by email, phone or mobile_phone). */
const contactIdentified = atLeastOne(
	LEAD_BODY,
	'"Last Name", "Email", "Phone" or "Mobile Phone"',
	'is empty for all four, though the API probably needs one to find or create the contact',
	(request) => {
		const customer = (request.body.customer ?? {}) as Record<string, unknown>;
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
				'Create a contact who wants to sell or let, with the property. The API reuses a contact with the same email, phone or mobile phone (a shared phone, a switchboard for one, reuses its contact: give the email, or use Contact → Create or Update), and records its cold-calling consent as collected.',
		},
		method: 'POST',
		path: '/leads/sellers',
		packs: ['Leads'],
		// Answered without a body, the lead is its contact, read back by the id a Location gives it.
		record: LEAD_CONTACT,
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a seller lead: a customer and a product". The customer is found again ("Duplicate customers checked by email OR phone OR mobile_phone"), but the product is not: a second send makes a second listing.',
		},
		fields: [
			...leadFields('Valuation'),
			...nestedUnder('product', [
				transactionTypeField({ placement: 'top' }),
				propertyTypeField({ placement: 'top' }),
				referenceField,
				...PRODUCT_FEATURE_FIELDS,
				criteriaField(SELLER_LEAD_CRITERIA),
			]),
		],
		criteria: SELLER_LEAD_CRITERIA,
		checks: [contactIdentified],
	},
	{
		resource: 'lead',
		operation: {
			name: 'Create Buyer Lead',
			value: 'createBuyer',
			action: 'Create a buyer lead',
			description:
				'Create a contact who wants to buy or rent, with what they are looking for. The API reuses a contact with the same email, phone or mobile phone (a shared phone, a switchboard for one, reuses its contact: give the email, or use Contact → Create or Update), and records its cold-calling consent as collected.',
		},
		method: 'POST',
		path: '/leads/buyers',
		packs: ['Leads'],
		record: LEAD_CONTACT,
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a buyer lead: a customer and optional search requests". The customer is found again ("Same duplicate behaviour as seller leads"), but the search requests are not: a second send makes them twice. Without search requests, the lead still records the consent again with a new timestamp (section 3: "Consent set to collected with timestamp").',
		},
		fields: [
			...leadFields('Search'),
			{
				in: 'body',
				placement: 'collection',
				values: LEAD_BODY,
				property: transactionTypeProperty('What the contact wants to do; the recorded consent reason names it'),
			},
			criteriaField(BUYER_LEAD_CRITERIA, {
				description:
					'What the contact is looking for: criteria of the site, sent as one search request after those Extra Body Fields give',
			}),
		],
		criteria: BUYER_LEAD_CRITERIA,
		checks: [contactIdentified],
	},
];
