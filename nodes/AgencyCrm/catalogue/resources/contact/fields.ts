import { address, id, idList, phoneList } from '../../convert';
import { firstnameField, genderField, lastnameField, userField } from '../../fields';
import { evidence, rule } from '../../rules';
import type { FieldSpec } from '../../types';
import { typeField } from './records';

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
export const profileFields: FieldSpec[] = [...CONTACT_FIELDS, typeField(), userField('body')];

/**
 * The name of a new contact: Last Name on top, and from version 2 First Name beside it (version 1
 * keeps First Name where 0.1.0 saved it, in Additional Fields).
 */
export const newContactNames: FieldSpec[] = [
	lastnameField({ placement: 'top' }),
	{ ...firstnameField(), versions: [1] },
	{ ...firstnameField({ placement: 'top' }), versions: [2] },
];
