import type { IDataObject } from 'n8n-workflow';

import { contactIdOf, emailOf, mostRecent } from '../../catalogue/contacts';
import type { ContactPolicy } from '../../catalogue/resources/contact/matching';
import { changesFor } from './changes';
import { byEmail, byPhones, claimed, differences, expected, judged, leftAlone, phonesToSearch } from './find';
import { newContact } from './newContact';
import { confirmed, failure } from './readBack';
import type { ContactPlan, Decision, Failure, MatchedBy } from './steps';

/**
 * Which contact an item of Contact → Create or Update is, and what to send it: the policy stated in
 * the editor and in docs/contacts.md, as a plan with no I/O. It yields each request and is given
 * each answer (steps.ts); upsert.ts only sends them.
 *
 * 1. An item with an email is the contact with that email (the most recent of several).
 * 2. An item without one, or with "Email, Then Phones" when no contact has its email, is the contact
 *    with one of its phones that nothing contradicts (find.ts `judged`); a contact that has the phone
 *    but another email or name is left alone, or failed on, or updated keeping its name and email,
 *    as the policy says.
 * 3. None: a new contact (newContact.ts).
 */

/** How the contact was found, and the evidence in words. */
interface Found {
	by: MatchedBy;
	evidence: string;
}

/** The item's fields applied to a contact found: only those it does not hold yet, and none if it holds them all. */
function* apply(
	contact: IDataObject,
	body: IDataObject,
	found: Found,
	notices: string[],
): ContactPlan<Decision | Failure> {
	const id = contactIdOf(contact)!;
	const { changes, notTaken } = changesFor(contact, body, found.by === 'phone');
	const decided = { matchedBy: found.by, notices };
	if (!Object.keys(changes).length) {
		const evidence = `${found.evidence}; it already holds every field given`;
		return { outcome: 'unchanged', record: contact, evidence, notTaken, ...decided };
	}
	const answer = yield { kind: 'update', id, changes };
	if (answer.kind === 'refused') {
		const message = `The API refused the update of contact ${String(id)} (${found.evidence}): ${answer.message}`;
		return failure(
			message,
			'Nothing was changed. Check the fields the API names, then run again.',
			notices,
			answer.cause,
		);
	}
	const written = expected(answer, 'written');
	const after = yield* confirmed(id, written.record, changes, `HTTP ${written.status}`, notices);
	const evidence = `${found.evidence}; updated (${after.how})`;
	return {
		outcome: 'updated',
		record: after.record,
		evidence,
		notTaken: { ...notTaken, ...after.notTaken },
		...decided,
	};
}

/**
 * The item's contact among those found by its phones: the one nothing contradicts, else what the
 * policy says of one that differs (left alone, failed on, or updated keeping its name and email).
 * `none` is the evidence of a new contact: what the searches found.
 */
function* byItsPhones(
	body: IDataObject,
	policy: ContactPolicy,
	found: IDataObject[],
	notices: string[],
): ContactPlan<Decision | Failure | { none: string }> {
	const { agreeing, differing } = judged(found, body, policy);
	const numbers = phonesToSearch(body)
		.map((phone) => phone.searched)
		.join(' or ');
	if (agreeing) {
		const id = String(contactIdOf(agreeing.contact));
		if (agreeing.typo)
			notices.push(
				`Contact ${id} has the phone and the same last name, and ${agreeing.typo}: taken for the same person (Options → First Name One Typo Away)`,
			);
		const evidence = `found by its phone ${numbers}${agreeing.typo ? `; ${agreeing.typo}` : ''}`;
		return yield* apply(agreeing.contact, body, { by: 'phone', evidence }, notices);
	}
	const mostRecentOther = mostRecent(differing.map(({ contact }) => contact));
	const other = differing.find(({ contact }) => contact === mostRecentOther);
	if (other && policy.whenPhoneMatchDiffers === 'fail') {
		const description = 'Give the item an Email, or choose what to do under Options → Phone Match Differs.';
		return failure(leftAlone([other])[0], description, notices);
	}
	if (other && policy.whenPhoneMatchDiffers === 'update') {
		notices.push(...leftAlone(differing.filter((judgement) => judgement !== other)));
		notices.push(
			`${differences(other)}: updated all the same, as Options → Phone Match Differs says, keeping its name and email (the item's are under fields_not_taken)`,
		);
		const evidence = `found by its phone ${numbers}, though it has ${other.reasons.join(' and ')}`;
		return yield* apply(other.contact, body, { by: 'phone', evidence }, notices);
	}
	notices.push(...leftAlone(differing));
	return {
		none: other ? `the contacts with the phone ${numbers} are someone else` : `no contact has the phone ${numbers}`,
	};
}

/** The item's contact and what happened to it, or why the item fails (steps.ts). */
export function* decideContact(body: IDataObject, policy: ContactPolicy): ContactPlan<Decision | Failure> {
	const notices: string[] = [];
	const email = emailOf(body.email);
	const phones = phonesToSearch(body);
	// A contact that turns out to exist when created (a 409): found by its email.
	const byItsEmail = (contact: IDataObject, evidence: string) =>
		apply(contact, body, { by: 'email', evidence }, notices);
	if (email) {
		const exact = yield* claimed(yield* byEmail(email), () => byEmail(email));
		const contact = mostRecent(exact);
		const evidence = `found by its email ${email}${exact.length > 1 ? ` (the most recent of ${exact.length})` : ''}`;
		if (contact) return yield* apply(contact, body, { by: 'email', evidence }, notices);
		if (policy.matchBy === 'emailElsePhones' || !phones.length) {
			return yield* newContact(body, policy, `no contact has the email ${email}`, notices, byItsEmail);
		}
	}
	const found = yield* claimed(yield* byPhones(phones), () => byPhones(phones));
	const decided = yield* byItsPhones(body, policy, found, notices);
	if (!('none' in decided)) return decided;
	const byEmailToo = email ? `no contact has the email ${email}, and ` : '';
	return yield* newContact(body, policy, `${byEmailToo}${decided.none}`, notices, byItsEmail);
}
