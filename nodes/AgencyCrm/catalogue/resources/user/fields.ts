import { id, idList } from '../../convert';
import { agencyField, emailField, firstnameField, genderField, lastnameField } from '../../fields';
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
		{
			in: 'body',
			placement: 'collection',
			property: {
				displayName: 'Is Active',
				name: 'isActive',
				type: 'boolean',
				default: true,
				description: 'Whether the user can sign in',
			},
		},
	];
}
