import { CUSTOMER_INCLUDES, relationOptions } from '../../../shared/relations';
import { contactKeys } from '../contacts';
import { address, commaList, id, idList, phoneList } from '../convert';
import {
	agencyField,
	customerField,
	emailField,
	firstnameField,
	genderField,
	lastnameField,
	updatedSinceField,
	userField,
} from '../fields';
import { atLeastOne, evidence, guard, guess, isEmpty, rule } from '../rules';
import { SEARCH_RESEND } from '../resend';
import type { Endpoint, FieldSpec, OutputKeys, ResendPolicy } from '../types';

/**
 * What every read of a contact loads: production leaves a contact's origin and groups out unless
 * `include` asks for them (docs/assumptions.md "Production evidence"), and the output shows them.
 */
export const CONTACT_READ_INCLUDES = ['origin', 'groups'];

/**
 * Simplified output: who the contact is, how to reach them and who follows them (the spec names most
 * of these keys), with its origin and groups (CONTACT_READ_INCLUDES): 10 fields and the id.
 */
const CUSTOMER_SIMPLE = ['agency_id', 'user_id', 'firstname', 'lastname', 'email', 'phone', 'mobile_phone', 'type'];
const CUSTOMER_OUTPUT: OutputKeys = {
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
function customerIncludeField(): FieldSpec {
	return {
		in: 'query',
		placement: 'collection',
		setting: true,
		convert: commaList,
		values: guess('customer includes beyond the spec list'),
		property: {
			displayName: 'Include',
			name: 'include',
			type: 'multiOptions',
			options: relationOptions(CUSTOMER_INCLUDES),
			default: [],
			description:
				'Related data to load with each contact (the API\'s "include": consent, search requests…); origin and groups are always loaded. Other values can be given with an expression.',
		},
	};
}

/** The customer type; the spec names the field but not its values, which are our guess. */
function typeField(): FieldSpec {
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

/** Production's contact writes name one group, under `group` (docs/assumptions.md "Production evidence"). */
const ONE_GROUP = rule(evidence('a contact is written with one group, under group'), (value) =>
	Array.isArray(value) && value.length > 1
		? `names ${value.length} groups; the API takes one per write: keep one, and set another with a second update`
		: undefined,
);

/**
 * Who the contact is and how to reach them: customer create, update and upsert, and leads. Phone
 * numbers and the address are written in the structure the API returns them in (spec section 2
 * "Customer"); that structure is our guess (docs/assumptions.md "Customer").
 */
export const CONTACT_FIELDS: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		property: {
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +33 4 78 00 00 00',
			description: 'Landline number',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		property: {
			displayName: 'Mobile Phone',
			name: 'mobilePhone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +33 6 12 34 56 78',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: phoneList,
		property: {
			displayName: 'Other Phones',
			name: 'phones',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Phone',
			description: 'Further numbers of the contact, each with its kind',
			options: [
				{
					displayName: 'Phone',
					name: 'phone',
					values: [
						{ displayName: 'Number', name: 'number', type: 'string', default: '' },
						{
							displayName: 'Type',
							name: 'type',
							type: 'string',
							default: '',
							placeholder: 'e.g. work',
							description: 'The kind of number, e.g. home, work or fax',
						},
					],
				},
			],
		},
	},
	{
		in: 'body',
		placement: 'collection',
		convert: address,
		property: {
			displayName: 'Address',
			name: 'address',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Address',
			options: [
				{
					displayName: 'Address',
					name: 'address',
					values: [
						{ displayName: 'City', name: 'city', type: 'string', default: '' },
						{ displayName: 'Country', name: 'country', type: 'string', default: '' },
						{ displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' },
						{ displayName: 'Street', name: 'street', type: 'string', default: '' },
					],
				},
			],
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'stop_sms',
		property: {
			displayName: 'Stop SMS',
			name: 'stopSms',
			type: 'boolean',
			default: false,
			description: 'Whether the contact refuses text messages',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		versions: [1],
		key: 'group',
		convert: idList,
		rules: [ONE_GROUP],
		property: {
			displayName: 'Group Names or IDs',
			name: 'groupIds',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getCustomerGroups' },
			default: [],
			description:
				'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		versions: [2],
		key: 'group',
		convert: id,
		property: {
			displayName: 'Group Name or ID',
			name: 'groupId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getCustomerGroups' },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		key: 'origin',
		convert: id,
		property: {
			displayName: 'Origin Name or ID',
			name: 'originId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getCustomerOrigins' },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	},
	genderField(),
];

/** Create, update and upsert: the contact, its type and its agent. */
const profileFields: FieldSpec[] = [...CONTACT_FIELDS, typeField(), userField('body')];

/**
 * The name of a new contact: Last Name on top, and from version 2 First Name beside it (version 1
 * keeps First Name where 0.1.0 saved it, in Additional Fields).
 */
const newContactNames: FieldSpec[] = [
	lastnameField({ placement: 'top' }),
	{ ...firstnameField(), versions: [1] },
	{ ...firstnameField({ placement: 'top' }), versions: [2] },
];

/** The fields an existing contact is found by, in the order Create or Update searches them. */
const MATCH_KEYS = ['email', 'phone', 'mobilePhone'];

/** The keys by which the API finds a duplicate contact (spec section 4 "Customers": "email OR phones"). */
const DUPLICATE_KEYS = ['email', 'phone', 'mobile_phone', 'phones'];

/**
 * Spec section 4 "Customers": "Without check_duplicate, a found duplicate leads to the existing
 * customer being used": a create carrying an email or a phone cannot make a second contact, so it may
 * be sent again after a connection reset, a 502 or a 504.
 */
const createFindsItsDuplicate: ResendPolicy = {
	resend: {
		when: (request) =>
			request.body.check_duplicate !== true && DUPLICATE_KEYS.some((key) => !isEmpty(request.body[key])),
		condition: 'when it carries an email or a phone and Check Duplicate is off',
	},
	reason:
		'Spec section 4: "Duplicates are detected by email OR phones (any match on the same site). Without `check_duplicate`, a found duplicate leads to the existing customer being used": the second send returns the contact the first one made. Without an email or a phone, or with Check Duplicate on ("not shown"), a second send may make a second contact.',
};

/** What a new contact needs, as the sandbox decides (docs/assumptions.md "Customer duplicates"). */
const identified = atLeastOne(
	guess('a new contact needs one of lastname, email, phone or mobile_phone'),
	'"Last Name", "Email", "Phone" or "Mobile Phone"',
	'is empty for all four, though the API probably needs one',
	(request) => ['lastname', 'email', 'phone', 'mobile_phone'].map((key) => request.body[key]),
);

export const customerEndpoints: Endpoint[] = [
	{
		resource: 'customer',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a contact',
			description:
				"Create a contact from any of email, phone or last name. A contact with the same email or phone on the site is returned instead, unchanged, unless Check Duplicate is on. The output's outcome says which: created or existing.",
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [
			agencyField('body', { placement: 'top' }),
			...newContactNames,
			emailField(),
			...profileFields,
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
		checks: [identified],
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
				'Create a new contact (matched by email, then phone, then mobile phone), or update the current one if it already exists (upsert)',
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [agencyField('body', { placement: 'top' }), ...newContactNames, emailField(), ...profileFields],
		checks: [
			atLeastOne(
				guard('the contact is looked for by email or phone'),
				'"Email", "Phone" or "Mobile Phone"',
				'is required to find the contact',
				(request) => [request.body.email, request.body.phone, request.body.mobile_phone],
			),
		],
		resend: {
			...createFindsItsDuplicate,
			reason: `Its searches read and its update is a partial update, both resent. Its create: ${createFindsItsDuplicate.reason}`,
		},
		match: {
			keys: MATCH_KEYS,
			notice:
				'Matched by email, then phone, then mobile phone; updated if found, created otherwise (outcome: updated or created)',
		},
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
			description: 'Search contacts by email, phone, text, agency, type or last change, newest first',
		},
		method: 'POST',
		path: '/customers/search',
		packs: ['Customers'],
		readIncludes: CONTACT_READ_INCLUDES,
		pagination: 'cursor',
		resend: SEARCH_RESEND,
		fields: [
			emailField(),
			{
				in: 'body',
				placement: 'collection',
				property: {
					displayName: 'Phone',
					name: 'phone',
					type: 'string',
					default: '',
					description: 'Matches the phone, the mobile phone and every other number of the contact',
				},
			},
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
		],
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
		fields: [customerField('path'), firstnameField(), lastnameField(), emailField(), ...profileFields],
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
