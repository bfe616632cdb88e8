import { CUSTOMER_INCLUDES, relationOptions } from '../../../shared/relations';
import { upsertCustomer } from '../../actions/upsertCustomer';
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
import { oneOf } from '../rules';
import type { Endpoint, FieldSpec } from '../types';
import { commaList, id, idList } from '../wire';

const CUSTOMER_TYPES = ['buyer', 'seller', 'tenant', 'landlord', 'other'] as const;

/** Keys kept by Simplify: who the contact is and how to reach them. */
export const CUSTOMER_SIMPLE_KEYS = [
	'customers_id',
	'agency_id',
	'firstname',
	'lastname',
	'email',
	'phone',
	'mobile_phone',
	'type',
	'updated_at',
];

const typeOptions = CUSTOMER_TYPES.map((type) => ({ name: type.charAt(0).toUpperCase() + type.slice(1), value: type }));

/** Who the contact is and how to reach them: customer create, update and upsert, and leads. */
export const CONTACT_FIELDS: FieldSpec[] = [
	firstnameField(false),
	emailField(false),
	{
		in: 'body',
		property: { displayName: 'Phone', name: 'phone', type: 'string', default: '', description: 'Landline number' },
	},
	{
		in: 'body',
		property: { displayName: 'Mobile Phone', name: 'mobilePhone', type: 'string', default: '' },
	},
	{
		in: 'body',
		key: 'group_ids',
		wire: idList,
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
		key: 'origin_id',
		wire: id,
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

/** The contact fields of create, update and upsert (spec section 2 "Customer"). */
const profileFields: FieldSpec[] = [
	...CONTACT_FIELDS,
	{
		in: 'body',
		rules: [oneOf(CUSTOMER_TYPES)],
		property: { displayName: 'Type', name: 'type', type: 'options', options: typeOptions, default: 'buyer' },
	},
	userField('body', false),
];

export const customerEndpoints: Endpoint[] = [
	{
		resource: 'customer',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a customer',
			description: 'Create a contact. A contact with the same email or phone on the site is returned instead.',
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [
			agencyField('body', true),
			lastnameField(true),
			...profileFields,
			{
				in: 'body',
				property: {
					displayName: 'Check Duplicate',
					name: 'checkDuplicate',
					type: 'boolean',
					default: false,
					description:
						'Whether to refuse the creation (409) when a contact with the same email or phone exists, instead of returning it',
				},
			},
		],
		extraBodyJson: true,
		simplify: CUSTOMER_SIMPLE_KEYS,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Create or Update',
			value: 'upsert',
			action: 'Create or update a customer',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
		},
		method: 'POST',
		path: '/customers',
		packs: ['Customers'],
		fields: [agencyField('body', true), lastnameField(true), ...profileFields],
		extraBodyJson: true,
		checks: [
			(wire) =>
				wire.body.email || wire.body.phone || wire.body.mobile_phone
					? []
					: [{ field: '"Email", "Phone" or "Mobile Phone"', message: 'is required to find the contact' }],
		],
		custom: upsertCustomer,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many customers',
			description: 'Search contacts, newest first (by customers_ID descending)',
		},
		method: 'POST',
		path: '/customers/search',
		packs: ['Customers'],
		pagination: 'cursor',
		readOnly: true,
		fields: [
			emailField(false),
			{
				in: 'body',
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
				property: {
					displayName: 'Search Text',
					name: 'query',
					type: 'string',
					default: '',
					description: 'Text contained in the name or the email',
				},
			},
			agencyField('body', false),
			{
				in: 'body',
				rules: [oneOf(CUSTOMER_TYPES)],
				property: { displayName: 'Type', name: 'type', type: 'options', options: typeOptions, default: 'buyer' },
			},
			updatedSinceField(),
		],
		simplify: CUSTOMER_SIMPLE_KEYS,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a customer',
			description: 'Get one contact, with related data if asked',
		},
		method: 'GET',
		path: '/customers/{customerId}',
		packs: ['Customers'],
		fields: [
			customerField('path'),
			{
				in: 'query',
				wire: commaList,
				property: {
					displayName: 'Include',
					name: 'include',
					type: 'multiOptions',
					options: relationOptions(CUSTOMER_INCLUDES),
					default: [],
					description: 'Related data to load with the contact',
				},
			},
		],
		simplify: CUSTOMER_SIMPLE_KEYS,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a customer',
			description: 'Change only the fields given',
		},
		method: 'PATCH',
		path: '/customers/{customerId}',
		packs: ['Customers'],
		fields: [customerField('path'), lastnameField(false), ...profileFields],
		extraBodyJson: true,
		simplify: CUSTOMER_SIMPLE_KEYS,
	},
	{
		resource: 'customer',
		operation: {
			name: 'Get Groups',
			value: 'getGroups',
			action: 'Get customer groups',
			description: 'List the customer groups (their IDs are used when creating customers or leads)',
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
			action: 'Get customer origins',
			description: 'List the customer origins (their IDs are used when creating customers or leads)',
		},
		method: 'GET',
		path: '/customers/origins',
		packs: ['Customers'],
		fields: [],
	},
];
