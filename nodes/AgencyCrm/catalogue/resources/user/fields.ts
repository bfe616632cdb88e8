import { filterUnlessZeroOrOff, id, idList } from '../../convert';
import { agencyField, emailField, firstnameField, genderField, isActiveField, lastnameField } from '../../fields';
import { guess, password, rule, spec } from '../../rules';
import type { FieldLocation, FieldSpec } from '../../types';

/** What a user create needs, as the sandbox decides (docs/assumptions.md "User"). */
const CREATE_NEEDS = guess('a user create needs agency_id, firstname, lastname, email and password');

const PASSWORD = spec(
	'section 4 "Users", POST /users: "Password: 12 to 40 characters with at least one uppercase, one lowercase, one digit and one special character" (PATCH: "under the same rules")',
);

export function groupField(location: FieldLocation): FieldSpec {
	return {
		in: location,
		placement: 'collection',
		key: 'group_id',
		convert: id,
		property: {
			displayName: 'Group Name or ID',
			name: 'groupId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getUserGroups' },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	};
}

/** User create (what it needs on top) and update (everything optional). */
export function profileFields(isCreate: boolean): FieldSpec[] {
	const onCreate = isCreate ? { placement: 'top' as const, required: CREATE_NEEDS } : {};
	return [
		agencyField('body', onCreate),
		firstnameField(onCreate),
		lastnameField(onCreate),
		emailField(onCreate),
		{
			in: 'body',
			placement: isCreate ? 'top' : 'collection',
			required: isCreate ? CREATE_NEEDS : undefined,
			rules: [rule(PASSWORD, password)],
			// Spec section 2 "User": "password (write only)".
			writeOnly: true,
			property: {
				displayName: 'Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'12 to 40 characters with an uppercase letter, a lowercase letter, a digit and a special character',
			},
		},
		{
			in: 'body',
			placement: 'collection',
			property: { displayName: 'Phone', name: 'phone', type: 'string', default: '' },
		},
		groupField('body'),
		{
			in: 'body',
			placement: 'collection',
			key: 'type_ids',
			convert: idList,
			property: {
				displayName: 'Type Names or IDs',
				name: 'typeIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getUserTypes' },
				default: [],
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			},
		},
		genderField(),
		isActiveField('body', 'Whether the user can sign in'),
	];
}

/** A filter on text the user's field contains (the vendor's reference: "partial match"). */
function containsFilter(key: string, displayName: string, what: string): FieldSpec {
	return {
		in: 'query',
		placement: 'collection',
		key,
		property: {
			displayName,
			name: key,
			type: 'string',
			default: '',
			description: `Only the users whose ${what} contains this text`,
		},
	};
}

/**
 * Users → Get Many's filters production's reference gives (the n8n node generated from the vendor's
 * OpenAPI, whose reads ran live): status, without deleted, delegation, the name and email contained,
 * and the phones' form. Each sends nothing unless set.
 */
export const productionUserFilters: FieldSpec[] = [
	{
		in: 'query',
		placement: 'collection',
		// Other statuses may exist; one given by an expression is sent, with a hint.
		values: guess('user statuses: 1 active, 0 archived, 3 hidden or deleted'),
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Active', value: 1, description: 'Users who work in the CRM today' },
				{ name: 'Archived', value: 0, description: 'Users archived, kept with their history' },
				{ name: 'Hidden or Deleted', value: 3, description: 'Users hidden from the lists, deleted ones included' },
			],
			default: 1,
			description: 'Only the users in this state',
		},
	},
	{
		in: 'query',
		placement: 'collection',
		key: 'without_deleted',
		convert: filterUnlessZeroOrOff,
		property: {
			displayName: 'Without Deleted',
			name: 'withoutDeleted',
			type: 'boolean',
			default: false,
			description: 'Whether to leave out the archived and deleted users',
		},
	},
	{
		// Both answers are filters: `delegation=true` or `delegation=false`, the boolean as text, as the
		// vendor's reference node sends it (docs/assumptions.md "Production evidence").
		in: 'query',
		placement: 'collection',
		values: guess('delegation is sent as true or false'),
		property: {
			displayName: 'Delegation',
			name: 'delegation',
			type: 'options',
			options: [
				{ name: 'Can Delegate', value: true, description: 'Only the users who can delegate their work' },
				{ name: 'Cannot Delegate', value: false, description: 'Only the users who cannot delegate their work' },
			],
			default: true,
			description: 'Only the users who can delegate their work, or only those who cannot',
		},
	},
	containsFilter('firstname', 'First Name Contains', 'first name'),
	containsFilter('lastname', 'Last Name Contains', 'last name'),
	containsFilter('email', 'Email Contains', 'email'),
	{
		in: 'query',
		placement: 'collection',
		// How the answer writes phone numbers: an option of the output, not a filter.
		setting: true,
		key: 'telephone_code',
		convert: filterUnlessZeroOrOff,
		property: {
			displayName: 'Phones in International Form',
			name: 'telephoneCode',
			type: 'boolean',
			default: false,
			description: 'Whether phone numbers come in international form, +33601020304 rather than 0601020304',
		},
	},
];
