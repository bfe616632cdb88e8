import { agencyField, emailField, firstnameField, genderField, lastnameField, userField } from '../fields';
import { MAX_UPLOAD_BYTES, atLeastOne, imageOnly, maxBytes, password } from '../rules';
import type { Endpoint, FieldLocation, FieldSpec } from '../types';
import { id, idList } from '../wire';

function groupField(location: FieldLocation): FieldSpec {
	return {
		in: location,
		key: 'group_id',
		wire: id,
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

function passwordField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		rules: [password],
		property: {
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: isRequired,
			description: '12 to 40 characters with an uppercase letter, a lowercase letter, a digit and a special character',
		},
	};
}

/** User create (required ones required) and update (all optional). */
function profileFields(isCreate: boolean): FieldSpec[] {
	return [
		agencyField('body', isCreate),
		firstnameField(isCreate),
		lastnameField(isCreate),
		emailField(isCreate),
		passwordField(isCreate),
		{ in: 'body', property: { displayName: 'Phone', name: 'phone', type: 'string', default: '' } },
		groupField('body'),
		{
			in: 'body',
			key: 'type_ids',
			wire: idList,
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

const PICTURE_RULES = [imageOnly, maxBytes(MAX_UPLOAD_BYTES)];

export const userEndpoints: Endpoint[] = [
	{
		resource: 'user',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a user',
			description: 'Create an agent or collaborator account',
		},
		method: 'POST',
		path: '/users',
		packs: ['Access'],
		fields: profileFields(true),
		extraBodyJson: true,
	},
	{
		resource: 'user',
		operation: {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a user',
			description:
				'Delete a user for good. Their properties, contacts and other records go to another user as the site is configured.',
		},
		method: 'DELETE',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [userField('path')],
		output: 'deleted',
	},
	{
		resource: 'user',
		operation: {
			name: 'Delete Photo',
			value: 'deletePhoto',
			action: 'Delete the photo of a user',
			description: 'Remove the profile photo, the signature image, or both',
		},
		method: 'DELETE',
		path: '/users/{userId}/photo',
		packs: ['Access'],
		fields: [
			userField('path'),
			{
				in: 'body',
				property: {
					displayName: 'Profile Picture',
					name: 'profilePicture',
					type: 'boolean',
					default: false,
					required: true,
					description: 'Whether to delete the profile photo',
				},
			},
			{
				in: 'body',
				property: {
					displayName: 'Signature Picture',
					name: 'signaturePicture',
					type: 'boolean',
					default: false,
					required: true,
					description: 'Whether to delete the signature image',
				},
			},
		],
		checks: [
			atLeastOne('"Profile Picture" or "Signature Picture"', 'must be on: choose what to delete', (wire) => [
				wire.body.profile_picture,
				wire.body.signature_picture,
			]),
		],
		output: 'deleted',
	},
	{
		resource: 'user',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a user',
			description: 'Get one agent or collaborator, with recent activity if asked',
		},
		method: 'GET',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [
			userField('path'),
			{
				in: 'query',
				key: 'include',
				wire: (value) => (value === true ? 'logs' : undefined),
				property: {
					displayName: 'Include Logs',
					name: 'includeLogs',
					type: 'boolean',
					default: false,
					description: 'Whether to add the recent action log entries of the user',
				},
			},
		],
	},
	{
		resource: 'user',
		operation: {
			name: 'Get Genders',
			value: 'getGenders',
			action: 'Get genders',
			description: 'List the gender codes; is_entity marks legal entities',
		},
		method: 'GET',
		path: '/users/genders',
		packs: ['Access'],
		fields: [],
	},
	{
		resource: 'user',
		operation: {
			name: 'Get Groups',
			value: 'getGroups',
			action: 'Get user groups',
			description: 'List the user groups (permission levels)',
		},
		method: 'GET',
		path: '/users/groups',
		packs: ['Access'],
		fields: [],
	},
	{
		resource: 'user',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many users',
			description: 'List agents and collaborators, filtered by agency, group, type, state or text',
		},
		method: 'GET',
		path: '/users',
		packs: ['Access'],
		pagination: 'cursor',
		fields: [
			agencyField('query', false),
			groupField('query'),
			{
				in: 'query',
				key: 'type_id',
				wire: id,
				property: {
					displayName: 'Type Name or ID',
					name: 'typeId',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getUserTypes' },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
			},
			{
				in: 'query',
				property: {
					displayName: 'Is Active',
					name: 'isActive',
					type: 'boolean',
					default: true,
					description: 'Whether to return the active users (on) or the inactive ones (off)',
				},
			},
			{
				in: 'query',
				property: {
					displayName: 'Search Text',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text contained in the name or the email',
				},
			},
		],
	},
	{
		resource: 'user',
		operation: {
			name: 'Get Types',
			value: 'getTypes',
			action: 'Get user types',
			description: 'List the professional role types (a user may have several)',
		},
		method: 'GET',
		path: '/users/types',
		packs: ['Access'],
		fields: [],
	},
	{
		resource: 'user',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a user',
			description: 'Change only the fields given; a new password follows the same rules as on creation',
		},
		method: 'PATCH',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [userField('path'), ...profileFields(false)],
		extraBodyJson: true,
	},
	{
		resource: 'user',
		operation: {
			name: 'Upload Photo',
			value: 'uploadPhoto',
			action: 'Upload the photo of a user',
			description: 'Set the profile photo, the signature image, or both (images only, at most 20 MB each)',
		},
		method: 'POST',
		path: '/users/{userId}/photo',
		packs: ['Access'],
		fields: [
			userField('path'),
			{
				in: 'file',
				key: 'profile_picture',
				rules: PICTURE_RULES,
				property: {
					displayName: 'Profile Picture Input Binary Field',
					name: 'profilePictureBinaryField',
					type: 'string',
					default: 'data',
					description: 'Name of the input binary field holding the profile photo',
				},
			},
			{
				in: 'file',
				key: 'signature_picture',
				rules: PICTURE_RULES,
				property: {
					displayName: 'Signature Picture Input Binary Field',
					name: 'signaturePictureBinaryField',
					type: 'string',
					default: 'signature',
					description: 'Name of the input binary field holding the signature image',
				},
			},
		],
		checks: [
			atLeastOne(
				'"Profile Picture" or "Signature Picture" input binary field',
				'is required: add at least one',
				(wire) => [wire.files.length > 0],
			),
		],
	},
];
