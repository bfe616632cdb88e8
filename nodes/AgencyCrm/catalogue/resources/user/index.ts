import { id } from '../../convert';
import { agencyField, isActiveField, userField } from '../../fields';
import type { Endpoint, OutputKeys } from '../../types';
import { groupField, productionUserFilters, profileFields } from './fields';
import { deletePhoto, uploadPhoto } from './photo';

/** Simplified output: who the user is (keys other than the picture ones are our guess). */
const USER_SIMPLE = [
	'agency_id',
	'firstname',
	'lastname',
	'email',
	'phone',
	'group_id',
	'type_ids',
	'is_active',
	'status',
];
const USER_OUTPUT: OutputKeys = {
	id: 'user_id',
	simple: USER_SIMPLE,
	relationsParameter: 'include',
	fields: [...USER_SIMPLE, 'delegation', 'gender_code', 'profile_picture', 'signature_picture'],
};

export const userEndpoints: Endpoint[] = [
	{
		resource: 'user',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a user',
			description: 'Create an agent or collaborator account in an agency; returns the user',
		},
		method: 'POST',
		path: '/users',
		packs: ['Access'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a user": a second send makes a second user, or is refused; the spec names no duplicate rule for users.',
		},
		fields: profileFields(true),
		outputKeys: USER_OUTPUT,
	},
	{
		resource: 'user',
		operation: {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a user permanently',
			description:
				'Delete a user for good (irreversible). Their properties, contacts and other records go to another user as the site is configured.',
		},
		method: 'DELETE',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [userField('path')],
		output: 'deleted',
	},
	deletePhoto,
	{
		resource: 'user',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a user',
			description: 'Get one agent or collaborator by its ID, with recent activity if asked',
		},
		method: 'GET',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [
			userField('path'),
			{
				in: 'query',
				placement: 'collection',
				setting: true,
				key: 'include',
				// Spec section 4: "include=logs adds recent action log entries".
				convert: (value) => ({ value: value === true ? 'logs' : undefined }),
				property: {
					displayName: 'Include Logs',
					name: 'includeLogs',
					type: 'boolean',
					default: false,
					description: 'Whether to add the recent action log entries of the user',
				},
			},
		],
		outputKeys: USER_OUTPUT,
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
			description:
				'List agents and collaborators, filtered by agency, status (active, archived, hidden), delegation, name or email',
		},
		method: 'GET',
		path: '/users',
		packs: ['Access'],
		pagination: 'cursor',
		fields: [
			agencyField('query'),
			groupField('query'),
			{
				in: 'query',
				placement: 'collection',
				key: 'type_id',
				convert: id,
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
			isActiveField(
				'query',
				"Whether to return the active users (on) or the inactive ones (off). Production's reference filters by Status: prefer it.",
			),
			{
				in: 'query',
				placement: 'collection',
				property: {
					displayName: 'Search Text',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text contained in the name or the email',
				},
			},
			...productionUserFilters,
		],
		outputKeys: USER_OUTPUT,
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
			description:
				'Change only the fields given on one user; a new password follows the same rules as on creation. Returns the user.',
		},
		method: 'PATCH',
		path: '/users/{userId}',
		packs: ['Access'],
		fields: [userField('path'), ...profileFields(false)],
		outputKeys: USER_OUTPUT,
	},
	uploadPhoto,
];
