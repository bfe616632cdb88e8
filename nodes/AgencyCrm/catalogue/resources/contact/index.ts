import { contactKeys } from '../../contacts';
import { agencyField, customerField, emailField, firstnameField, lastnameField, updatedSinceField } from '../../fields';
import { SEARCH_RESEND } from '../../resend';
import type { Endpoint, FieldSpec } from '../../types';
import { newContactNames, profileFields } from './fields';
import { conformityField } from './gdpr';
import {
	MATCH_KEYS,
	POLICY_FIELDS,
	POLICY_NOTICE,
	createFindsItsDuplicate,
	emailNeeded,
	emailOrPhoneGiven,
} from './matching';
import { CONTACT_READ_INCLUDES, CUSTOMER_OUTPUT, customerIncludeField, typeField } from './records';
import { exactHitsOption, exactHits, phoneFilterField } from './search';

export { CONTACT_FIELDS } from './fields';
export { CONTACT_READ_INCLUDES } from './records';

const agency = agencyField('body', { placement: 'top' });

/** A new contact's agency; left empty, the API's default: the site's first agency (docs/assumptions.md "Records"). */
const newContactAgency: FieldSpec = {
	...agency,
	property: {
		...agency.property,
		description:
			"The agency the contact belongs to. Left empty, Agency CRM puts a new contact in the site's first agency (the first Agency → Get Many lists).",
	},
};

/** What Create and Create or Update write of a new contact: its agency, its names, its email, its profile. */
const newContactFields = [newContactAgency, ...newContactNames, emailField(), ...profileFields];

export const customerEndpoints: Endpoint[] = [
	{
		resource: 'customer',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a contact',
			description:
				"Create a contact with its email (Agency CRM creates none without). A contact with the same email or phone on the site is returned instead, unchanged, unless Check Duplicate is on. The output's outcome says which: created or existing.",
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [
			...newContactFields,
			{
				in: 'body',
				placement: 'collection',
				setting: true,
				property: {
					displayName: 'Check Duplicate',
					name: 'checkDuplicate',
					type: 'boolean',
					default: false,
					description:
						'Whether to ask the API to refuse the contact when one with the same email or phone exists (check_duplicate). It answers 409: the node then outputs the contact with that email (outcome: existing), unchanged.',
				},
			},
		],
		match: {
			keys: MATCH_KEYS,
			notice:
				'Agency CRM finds an existing contact by email or phone: it returns that contact, unchanged (outcome: existing), instead of a new one, unless Check Duplicate (under Options) is on',
		},
		checks: [emailNeeded],
		resend: createFindsItsDuplicate,
		outputKeys: CUSTOMER_OUTPUT,
		custom: 'createCustomer',
		writes: (request) => contactKeys(request.body),
	},
	{
		resource: 'customer',
		operation: {
			name: 'Create or Update',
			value: 'upsert',
			action: 'Create or update a contact',
			// The wording n8n's lint asks of an upsert, with how the contact is matched.
			description:
				'Create a new contact (matched by email, or by phone when there is none), or update the current one if it already exists (upsert)',
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [...newContactFields, conformityField, ...POLICY_FIELDS],
		checks: [emailOrPhoneGiven],
		resend: {
			...createFindsItsDuplicate,
			reason: `Its searches read and its update is a partial update, both resent. Its create carries an email and is looked for by it after a lost answer, then sent again only when not found. ${createFindsItsDuplicate.reason}`,
		},
		match: { keys: MATCH_KEYS, notice: POLICY_NOTICE },
		custom: 'upsertCustomer',
		outputKeys: CUSTOMER_OUTPUT,
		writes: (request) => contactKeys(request.body),
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many contacts',
			description:
				"Search contacts by email, phone, text, agency, type or last change, newest first. Agency CRM's search is not exact: hits that only contain the email or phone are left out unless Exact Matches Only is off.",
		},
		method: 'POST',
		path: '/customers/search',
		packs: ['Customers'],
		readIncludes: CONTACT_READ_INCLUDES,
		// Production's search results carry no consent: its lead router reads each contact for it.
		readEach: { includes: ['consent'], read: 'customer:get' },
		pagination: 'cursor',
		resend: SEARCH_RESEND,
		fields: [
			emailField(),
			phoneFilterField,
			{
				in: 'body',
				placement: 'collection',
				property: {
					displayName: 'Search Text',
					name: 'query',
					type: 'string',
					default: '',
					description: 'Text contained in the name or the email',
				},
			},
			agencyField('body'),
			typeField(),
			updatedSinceField(),
			customerIncludeField(),
			exactHitsOption,
		],
		keepRecords: exactHits,
		outputKeys: CUSTOMER_OUTPUT,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a contact',
			description: 'Get one contact by its ID, with the related data asked for (address, groups, consent…)',
		},
		method: 'GET',
		path: '/customers/{customerId}',
		packs: ['Customers'],
		readIncludes: CONTACT_READ_INCLUDES,
		fields: [customerField('path'), customerIncludeField()],
		outputKeys: CUSTOMER_OUTPUT,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a contact',
			description: 'Change only the fields given on one contact; returns the contact',
		},
		method: 'PATCH',
		path: '/customers/{customerId}',
		packs: ['Customers'],
		fields: [customerField('path'), firstnameField(), lastnameField(), emailField(), ...profileFields, conformityField],
		outputKeys: CUSTOMER_OUTPUT,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get Groups',
			value: 'getGroups',
			action: 'Get contact groups',
			description: 'List the contact groups (their IDs are used when creating contacts or leads)',
		},
		method: 'GET',
		path: '/customers/groups',
		packs: ['Customers'],
		fields: [],
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get Origins',
			value: 'getOrigins',
			action: 'Get contact origins',
			description:
				'List the contact origins, such as website or walk-in (their IDs are used when creating contacts or leads)',
		},
		method: 'GET',
		path: '/customers/origins',
		packs: ['Customers'],
		fields: [],
	},
];
