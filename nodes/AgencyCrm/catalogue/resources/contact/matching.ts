import { atLeastOne, guess, isEmpty } from '../../rules';
import type { ResendPolicy } from '../../types';

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

/** What a new contact needs, as the sandbox decides (docs/assumptions.md "Customer duplicates"). */
export const identified = atLeastOne(
	guess('a new contact needs one of lastname, email, phone or mobile_phone'),
	'"Last Name", "Email", "Phone" or "Mobile Phone"',
	'is empty for all four, though the API probably needs one',
	(request) => ['lastname', 'email', 'phone', 'mobile_phone'].map((key) => request.body[key]),
);
