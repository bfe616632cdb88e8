import type { INodeProperties } from 'n8n-workflow';

import { id, toUtcDateTime } from './convert';
import { email, evidence, guess, integerId, rule } from './rules';
import { MAX_PER_PAGE } from '../../shared/transport';
import type { Endpoint, FieldLocation, FieldSpec, Rule, RuleSource } from './types';

/**
 * Fields that several endpoints share. Each is a function so that an endpoint can place it in the
 * path, query or body and make it required or optional; the literals stay visible to the linter.
 */

/** The spec types agency ids as integers (section 4 "Calendar": "Query agency_id integer"). */
const AGENCY_ID_RULE = integerId('section 4 "Calendar": "Query agency_id integer, required"');

/** The spec types user ids as integers (section 4 "Calendar", create-event fields: "user_id integer"). */
export const USER_ID_RULE = integerId('section 4 "Calendar", create-event request fields: "user_id integer"');

/** A "By ID" mode that checks digits in the editor, for ids the spec types as integers. */
function digitsOnlyMode(what: string, example: string) {
	return {
		displayName: 'By ID',
		name: 'id',
		type: 'string' as const,
		placeholder: `e.g. ${example}`,
		validation: [
			{
				type: 'regex' as const,
				properties: { regex: '^[0-9]+$', errorMessage: `Not a valid ${what} ID: use digits only` },
			},
		],
	};
}

interface Placement {
	required?: RuleSource;
	placement?: FieldSpec['placement'];
}

/** Path fields are always their own parameter; others are optional options unless placed on top. */
function placementOf(location: FieldLocation, given: Placement): FieldSpec['placement'] {
	return given.placement ?? (location === 'path' || given.required ? 'top' : 'collection');
}

/** The From List mode of a record's locator: the records of a search (methods/listSearch.ts), by name. */
const fromList = (searchListMethod: string) => ({
	displayName: 'From List',
	name: 'list',
	type: 'list' as const,
	typeOptions: { searchListMethod, searchable: true },
});

/** How a request names a record: chosen From List or given By ID, the id sent (numeric when it is digits). */
function locatorField(
	location: FieldLocation,
	given: Placement,
	record: Pick<FieldSpec, 'findWith' | 'key' | 'rules'>,
	property: INodeProperties,
): FieldSpec {
	const placement = placementOf(location, given);
	return { in: location, ...record, convert: id, required: given.required, placement, property };
}

export function agencyField(location: FieldLocation, given: Placement = {}): FieldSpec {
	const record = { findWith: 'Agency → Get Many', key: 'agency_id', rules: [AGENCY_ID_RULE] };
	return locatorField(location, given, record, {
		displayName: 'Agency',
		name: 'agencyId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'Agency of the site that the request concerns (its agency_ID)',
		modes: [fromList('searchAgencies'), digitsOnlyMode('agency', '101')],
	});
}

export function customerField(location: FieldLocation, given: Placement = {}): FieldSpec {
	const record = { findWith: 'Contact → Get Many (by email or phone)', key: 'customers_id' };
	return locatorField(location, given, record, {
		displayName: 'Contact',
		name: 'customerId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: "The contact (the API's customer); search by name, email or phone",
		modes: [
			fromList('searchCustomers'),
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1042' },
		],
	});
}

export function productField(location: FieldLocation, given: Placement = {}): FieldSpec {
	const record = { findWith: 'Property → Get Many (by reference or text)', key: 'product_id' };
	return locatorField(location, given, record, {
		displayName: 'Property',
		name: 'productId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: "The property listing (the API's product); search by title or reference",
		modes: [fromList('searchProducts'), { displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 5001' }],
	});
}

export function userField(location: FieldLocation, given: Placement = {}): FieldSpec {
	const record = { findWith: 'User → Get Many (by name or email)', key: 'user_id', rules: [USER_ID_RULE] };
	return locatorField(location, given, record, {
		displayName: 'User',
		name: 'userId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'The user (agent or collaborator); search by name or email',
		modes: [fromList('searchUsers'), digitsOnlyMode('user', '12')],
	});
}

/** A date-time filter; the key and the format are guesses (docs/assumptions.md "Envelopes and pagination"). */
export function updatedSinceField(): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		convert: toUtcDateTime,
		rules: [DATE_TIME_GUESS],
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
 * Date-times production takes as `YYYY-MM-DDTHH:MM:SS+00:00` (convert.ts `toOffsetDateTime`): text
 * the node cannot read as a date-time is refused, as production would refuse it.
 */
export const OFFSET_DATE_TIME: Rule = rule(
	evidence('consent dates and last_modified filters are YYYY-MM-DDTHH:MM:SS+00:00'),
	(value) =>
		/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/.test(String(value))
			? undefined
			: 'must be a date and time, e.g. 2026-05-01T10:00:00+02:00 or an n8n date',
);

/** Date-times the node sends in UTC where the spec gives no format: text it cannot read goes as typed. */
export const DATE_TIME_GUESS: Rule = rule(guess('date-times are sent as UTC YYYY-MM-DDTHH:MM:SSZ'), (value) =>
	/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(String(value))
		? undefined
		: 'could not be read as a date-time; it is sent as typed',
);

/** The spec caps the agency list only (200); production's reference gives `per_page` the same cap everywhere. */
const PER_PAGE_EVIDENCE = {
	size: MAX_PER_PAGE,
	source: evidence('per_page is at most 200 on every list that takes it'),
};

export function maxPageSizeOf(endpoint: Endpoint): NonNullable<Endpoint['maxPageSize']> {
	return endpoint.maxPageSize ?? PER_PAGE_EVIDENCE;
}

/** The name of a list's page-size parameter: `per_page` unless its entry names another. */
export function pageSizeKeyOf(endpoint: Endpoint): string {
	return endpoint.pageSizeKey ?? 'per_page';
}

/**
 * A numeric identifier of the path (webhook, event, mandate…) that has no searchable list; the
 * property stays a literal at the call site so that the linter checks it.
 */
export function idInPath(property: INodeProperties, rules: Rule[] = []): FieldSpec {
	return { in: 'path', placement: 'top', convert: id, rules, property };
}

/** The same fields sent inside a nested object of the body: `customer.email`, `product.price`. */
export function nestedUnder(prefix: string, fields: FieldSpec[]): FieldSpec[] {
	return fields.map((field) => ({ ...field, key: `${prefix}.${keyOf(field)}` }));
}

/** A field's key in the request: its `key`, else its property name in snake_case. */
export function keyOf(field: FieldSpec): string {
	return field.key ?? field.property.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * A field as problems name it: `"Email" (email)`; a part of one, `"Recurrence" Start (recurrence.dtstart)`;
 * a node option without a request key, `"Limit"`.
 */
export function labelOf(field: FieldSpec, parent?: FieldSpec): string {
	if (parent)
		return `"${parent.property.displayName}" ${field.property.displayName} (${keyOf(parent)}.${keyOf(field)})`;
	if (field.in === 'node' && !field.key) return `"${field.property.displayName}"`;
	return `"${field.property.displayName}" (${keyOf(field)})`;
}

/** A body field of a person (a contact, a user), required or optional as the operation places it. */
function personField(given: Placement, property: INodeProperties, rules?: Rule[]): FieldSpec {
	return { in: 'body', required: given.required, placement: placementOf('body', given), rules, property };
}

export function firstnameField(given: Placement = {}): FieldSpec {
	return personField(given, { displayName: 'First Name', name: 'firstname', type: 'string', default: '' });
}

export function lastnameField(given: Placement = {}): FieldSpec {
	return personField(given, { displayName: 'Last Name', name: 'lastname', type: 'string', default: '' });
}

/** An email; its format is not in the spec, so a doubtful one is sent with a hint. */
export function emailField(given: Placement = {}): FieldSpec {
	const property: INodeProperties = {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
	};
	return personField(given, property, [rule(guess('email addresses look like name@example.com'), email)]);
}

/** A record's title (a listing's headline, a photo's caption): optional text. */
export function titleField(description: string): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		property: { displayName: 'Title', name: 'title', type: 'string', default: '', description },
	};
}

/** Whether a record is active, in the words of the record it is: optional, on by default. */
export function isActiveField(location: FieldLocation, description: string): FieldSpec {
	return {
		in: location,
		placement: 'collection',
		property: { displayName: 'Is Active', name: 'isActive', type: 'boolean', default: true, description },
	};
}

/** Gender code of a contact or user; legal entities have codes of their own (`is_entity`). */
export function genderField(): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
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
		placement: 'collection',
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
