import type { INodeProperties } from 'n8n-workflow';

import { snakeCase } from './aliases';
import { email, integer } from './rules';
import type { FieldLocation, FieldSpec } from './types';
import { criteria, id, toUtcDateTime } from './wire';

/**
 * Fields that several endpoints share. Each is a function so that an endpoint can place it in the
 * path, query or body and make it required or optional; the literals stay visible to the linter.
 */

const digitsOnly = (what: string) => [
	{
		type: 'regex' as const,
		properties: { regex: '^[0-9]+$', errorMessage: `Not a valid ${what} ID: use digits only` },
	},
];

export function agencyField(location: FieldLocation, isRequired: boolean): FieldSpec {
	return {
		in: location,
		key: 'agency_id',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Agency',
			name: 'agencyId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: isRequired,
			description: 'Agency of the site that the request concerns (its agency_ID)',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchAgencies', searchable: true },
				},
				{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 101', validation: digitsOnly('agency') },
			],
		},
	};
}

export function customerField(location: FieldLocation, isRequired = true): FieldSpec {
	return {
		in: location,
		key: 'customers_id',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Customer',
			name: 'customerId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: isRequired,
			description: 'The customer (contact); search by name, email or phone',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchCustomers', searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'e.g. 1042',
					validation: digitsOnly('customer'),
				},
			],
		},
	};
}

export function productField(location: FieldLocation, isRequired = true): FieldSpec {
	return {
		in: location,
		key: 'product_id',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'Product',
			name: 'productId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: isRequired,
			description: 'The product (property listing); search by title or reference',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchProducts', searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'e.g. 5001',
					validation: digitsOnly('product'),
				},
			],
		},
	};
}

export function userField(location: FieldLocation, isRequired = true): FieldSpec {
	return {
		in: location,
		key: 'user_id',
		wire: id,
		rules: [integer({ min: 1 })],
		property: {
			displayName: 'User',
			name: 'userId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: isRequired,
			description: 'The user (agent or collaborator); search by name or email',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchUsers', searchable: true },
				},
				{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 12', validation: digitsOnly('user') },
			],
		},
	};
}

/** Criteria rows `{id, value}`, the id picked from the product or the search-request referential. */
export function criteriaField(referential: 'product' | 'searchRequest', isRequired = false): FieldSpec {
	const property: INodeProperties = {
		displayName: 'Criteria',
		name: 'criteria',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: isRequired,
		placeholder: 'Add Criterion',
		description: 'Criterion values, e.g. price, rooms or zone (criterion 30 holds zones)',
		options: [
			{
				displayName: 'Criterion',
				name: 'criterion',
				values: [
					{
						displayName: 'Criterion Name or ID',
						name: 'id',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: referential === 'product' ? 'getProductCriteria' : 'getSearchRequestCriteria',
						},
						default: '',
						description:
							'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'As JSON where the criterion type needs it: 250000 (number), true (yes/no), [2, 3] (multiple choice, e.g. zones); plain text otherwise',
					},
				],
			},
		],
	};
	return { in: 'body', wire: criteria, property };
}

export function updatedSinceField(): FieldSpec {
	return {
		in: 'body',
		wire: toUtcDateTime,
		property: {
			displayName: 'Updated Since',
			name: 'updatedSince',
			type: 'dateTime',
			default: '',
			description: 'Only records changed at or after this moment',
		},
	};
}

/**
 * A numeric identifier of the path (webhook, event, mandate…) that has no searchable list; the
 * property stays a literal at the call site so that the linter checks it.
 */
export function idInPath(property: INodeProperties): FieldSpec {
	return { in: 'path', wire: id, rules: [integer({ min: 1 })], property: { ...property, required: true } };
}

/** A field's key on the wire: its `key`, else its property name in snake_case. */
export function wireKeyOf(field: FieldSpec): string {
	return field.key ?? snakeCase(field.property.name);
}

/** The same fields sent inside a nested object of the body: `customer.email`, `product.price`. */
export function nestedUnder(prefix: string, fields: FieldSpec[]): FieldSpec[] {
	return fields.map((field) => ({ ...field, key: `${prefix}.${wireKeyOf(field)}` }));
}

export function firstnameField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		property: { displayName: 'First Name', name: 'firstname', type: 'string', default: '', required: isRequired },
	};
}

export function lastnameField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		property: { displayName: 'Last Name', name: 'lastname', type: 'string', default: '', required: isRequired },
	};
}

export function emailField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		rules: [email],
		property: {
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: isRequired,
		},
	};
}

/** Gender code of a contact or user; legal entities have codes of their own (`is_entity`). */
export function genderField(): FieldSpec {
	return {
		in: 'body',
		key: 'gender_code',
		property: {
			displayName: 'Gender Name or ID',
			name: 'genderCode',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getGenders' },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
	};
}

/** Free text of an action, a follow-up or a lead. */
export function commentField(): FieldSpec {
	return {
		in: 'body',
		property: {
			displayName: 'Comment',
			name: 'comment',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Free text, e.g. what was said, or the message of the contact',
		},
	};
}
