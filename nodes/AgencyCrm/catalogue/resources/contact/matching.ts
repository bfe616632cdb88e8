import { PLACEHOLDER_DOMAIN } from '../../contacts';
import type { INodeProperties } from 'n8n-workflow';

import { atLeastOne, check, evidence, guard, isEmpty } from '../../rules';
import type { Check, FieldSpec, ResendPolicy } from '../../types';

/**
 * How Contact → Create or Update decides which contact an item is (docs/contacts.md): the policy's
 * three settings, their defaults (production's practice, per docs/assumptions.md "Production
 * evidence"), and the production rules the decision relies on.
 */

/** Production creates no contact without an email; the router's changelog left such leads "to check". */
export const NO_CONTACT_WITHOUT_EMAIL = evidence('production creates no contact without an email');

/** Hits of one contact search looked at, a page at a time: production's search is not exact, so the contact may not lead. */
export const SEARCH_PAGE_SIZE = 100;
export const SEARCH_HITS_LOOKED_AT = 500;

/** The policy of one item, as the decision reads it (actions/contact/decide.ts). */
export interface ContactPolicy {
	matchBy: 'emailElsePhones' | 'emailThenPhones';
	whenPhoneMatchDiffers: 'create' | 'fail' | 'update';
	withoutEmail: 'placeholder' | 'fail';
	firstNameTypo: 'samePerson' | 'someoneElse';
}

/** A setting of the policy, under Options: one of its choices, as the node knows no other. */
const policySetting = (property: INodeProperties): FieldSpec => ({
	in: 'node',
	placement: 'collection',
	setting: true,
	values: guard('the node decides which contact an item is by one of these policies'),
	property,
});

const matchBy = policySetting({
	displayName: 'Match By',
	name: 'matchBy',
	type: 'options',
	options: [
		{
			name: 'Email, Else Phones',
			value: 'emailElsePhones',
			description:
				'The contact with the email given (case and spaces ignored); phones only for an item without an email',
		},
		{
			name: 'Email, Then Phones',
			value: 'emailThenPhones',
			description:
				'As above, and when no contact has the email, a contact with one of the phones whose name confirms it',
		},
	],
	default: 'emailElsePhones',
	description:
		'What identifies the contact. Phones are compared by their last 9 digits, so +33 6 12 34 56 78 and 06 12 34 56 78 are one number.',
});

const whenPhoneMatchDiffers = policySetting({
	displayName: 'Phone Match Differs',
	name: 'whenPhoneMatchDiffers',
	type: 'options',
	options: [
		{
			name: 'Create a New Contact',
			value: 'create',
			description: 'A shared phone (a couple, a switchboard) does not make two people one contact',
		},
		{
			name: 'Fail the Item',
			value: 'fail',
			description: 'Stop and say which contact has the phone and what differs',
		},
		{
			name: 'Update It, Keeping Its Name and Email',
			value: 'update',
			description:
				"Write the item's other fields to it; it keeps its names and email, even for an item with another email, and the item's are listed under fields_not_taken",
		},
	],
	default: 'create',
	description:
		'A contact found by phone differs when it has another email or another first name, or another last name under another first name (Jean and Jean-Pierre, an initial, one typo as First Name One Typo Away says, or a married name, are the same person); for an item with an email, also when it has neither an email nor a name that confirms it',
});

const withoutEmail = policySetting({
	displayName: 'New Contact Without Email',
	name: 'withoutEmail',
	type: 'options',
	options: [
		{
			name: 'Create With a Placeholder Email',
			value: 'placeholder',
			description: `Agency CRM needs an email: use one made of the phone (and name) on ${PLACEHOLDER_DOMAIN}, e.g. 0612345678.jean-dupont@${PLACEHOLDER_DOMAIN}`,
		},
		{
			name: 'Fail the Item',
			value: 'fail',
			description: 'Stop, saying the item needs an Email',
		},
	],
	default: 'placeholder',
	description:
		'What to do with an item that has phones but no email when no contact has them: Agency CRM creates no contact without an email',
});

const firstNameTypo = policySetting({
	displayName: 'First Name One Typo Away',
	name: 'firstNameTypo',
	type: 'options',
	options: [
		{
			name: 'Same Person',
			value: 'samePerson',
			description: 'Christoph and Christophe Martin on one phone are one person, typed twice',
		},
		{
			name: 'Someone Else',
			value: 'someoneElse',
			description: 'Any other first name is another person (as Phone Match Differs says)',
		},
	],
	default: 'samePerson',
	description:
		"A contact found by phone with the same last name, whose first name is one letter added, dropped or changed, or two neighbouring letters swapped, from the item's. Only for names of 5 letters or more, and never a feminine form: Jean / Jeanne, Denis / Denise, Julien / Julie, Mario / Maria stay two people.",
});

/** The policy's settings, under Options (version 2) or Additional Fields (version 1). */
export const POLICY_FIELDS: FieldSpec[] = [matchBy, whenPhoneMatchDiffers, firstNameTypo, withoutEmail];

/** The policy an item asked for; each setting left out takes its default. */
export function policyOf(settings: Record<string, unknown> = {}): ContactPolicy {
	const chosen = (field: FieldSpec) => String(settings[field.property.name] ?? field.property.default);
	return {
		matchBy: chosen(matchBy) as ContactPolicy['matchBy'],
		whenPhoneMatchDiffers: chosen(whenPhoneMatchDiffers) as ContactPolicy['whenPhoneMatchDiffers'],
		withoutEmail: chosen(withoutEmail) as ContactPolicy['withoutEmail'],
		firstNameTypo: chosen(firstNameTypo) as ContactPolicy['firstNameTypo'],
	};
}

/** The one-sentence policy the operation's notice states, and docs/contacts.md explains. */
export const POLICY_NOTICE =
	'The contact is the one with this email (by its phones only when the item has none); it is updated, or created. A contact found by phone is someone else, and left alone, when it has another email, another first name, or another last name under another first name. The same first name: a short form or an initial (Jean-Pierre, Jean, J.), accents and capitals aside, and with the same last name one typo in a name of 5 letters or more (Christoph, Christophe). Other first names: Jean / Jeanne, Denis / Denise, Julien / Julie (see Options).';

/** The fields an existing contact is found by, in the order Create or Update searches them. */
export const MATCH_KEYS = ['email', 'phone', 'mobilePhone'];

/** The keys by which the API finds a duplicate contact (spec section 4 "Customers": "email OR phones"). */
const DUPLICATE_KEYS = ['email', 'phone', 'mobile_phone', 'phones'];

/**
 * Spec section 4 "Customers": "Without check_duplicate, a found duplicate leads to the existing
 * customer being used": a create carrying an email or a phone cannot make a second contact, so it may
 * be sent again after a connection reset, a 502 or a 504.
 */
export const createFindsItsDuplicate: ResendPolicy = {
	resend: {
		when: (request) =>
			request.body.check_duplicate !== true && DUPLICATE_KEYS.some((key) => !isEmpty(request.body[key])),
		condition: 'when it carries an email or a phone and Check Duplicate is off',
	},
	reason:
		'Spec section 4: "Duplicates are detected by email OR phones (any match on the same site). Without `check_duplicate`, a found duplicate leads to the existing customer being used": the second send returns the contact the first one made. Without an email or a phone, or with Check Duplicate on ("not shown"), a second send may make a second contact.',
};

/** Contact → Create sends what production takes: a contact with an email; Create or Update makes one for phone-only leads. */
export const emailNeeded: Check = check(NO_CONTACT_WITHOUT_EMAIL, (request) =>
	isEmpty(request.body.email)
		? [
				{
					field: '"Email"',
					message:
						'is required: Agency CRM creates no contact without an email. For a lead known by its phone only, use Contact → Create or Update, which finds it by phone or creates it with a placeholder email',
				},
			]
		: [],
);

/** Create or Update looks the contact up by its email or its phones. */
export const emailOrPhoneGiven = atLeastOne(
	guard('the contact is looked for by email or phone'),
	'"Email", "Phone" or "Mobile Phone"',
	'is required to find the contact',
	(request) => [request.body.email, request.body.phone, request.body.mobile_phone],
);
