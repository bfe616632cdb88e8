import { FIRST_NAMES, PLACEHOLDER_DOMAIN } from './contactCases';
import { national } from './contactModel';

/**
 * What docs/contacts.md says of a contact found by phone, read from the generator's own knowledge of
 * whose each spelling is (contactCases.ts), never from the node's code: whether the contact says it is
 * someone else than the lead. The generated cases hold the node to it.
 *
 * A spelling is one person's name: the name, its first word, its capitals and its one typo stand for
 * that name; an initial stands for any name it begins; two names are the same first name when they
 * stand for one name (a typo only with the same last name, written in full, and when the policy takes
 * typos for the same name).
 */

export interface Shown {
	firstname?: string | null;
	lastname?: string | null;
	email?: string | null;
}

const plain = (name: string) =>
	name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');
const isInitial = (name: string) => /^\p{L}\.$/u.test(name.trim());
const given = (name: string | null | undefined): name is string => typeof name === 'string' && name.trim() !== '';

/** Which name a first name written in full stands for, and whether it is that name's typo. */
function firstNameOf(written: string): { name: string; typo: boolean } {
	for (const [name, typo] of Object.entries(FIRST_NAMES)) {
		if (typo && plain(written) === plain(typo)) return { name, typo: true };
		if ([name, name.split('-')[0]].some((form) => plain(form) === plain(written))) return { name, typo: false };
	}
	return { name: plain(written), typo: false };
}

/** Whether two first names are one name: true, false, or undefined when either is missing. */
function sameFirstName(a: Shown, b: Shown, typos: boolean): boolean | undefined {
	if (!given(a.firstname) || !given(b.firstname)) return undefined;
	if (plain(a.firstname) === plain(b.firstname)) return true;
	if (isInitial(a.firstname) || isInitial(b.firstname)) return plain(a.firstname)[0] === plain(b.firstname)[0];
	const [x, y] = [firstNameOf(a.firstname), firstNameOf(b.firstname)];
	if (x.name !== y.name) return false;
	if (!x.typo && !y.typo) return true;
	const sameLastName = given(a.lastname) && given(b.lastname) && plain(a.lastname) === plain(b.lastname);
	return typos && sameLastName && !isInitial(a.lastname!);
}

/** Whether two last names are one: the same, or an initial of it. */
function sameLastName(a: Shown, b: Shown): boolean | undefined {
	if (!given(a.lastname) || !given(b.lastname)) return undefined;
	if (isInitial(a.lastname) || isInitial(b.lastname)) return plain(a.lastname)[0] === plain(b.lastname)[0];
	return plain(a.lastname) === plain(b.lastname);
}

/** The email compared, unless it is none or a placeholder (which says the contact has none). */
export function realEmail(email: string | null | undefined): string | undefined {
	const compared = (email ?? '').trim().toLowerCase();
	return compared && !compared.endsWith(`@${PLACEHOLDER_DOMAIN}`) ? compared : undefined;
}

/**
 * Whether a contact found by phone is someone else than the lead, by docs/contacts.md: another real
 * email; another first name; another last name unless the first names are the same, written in full
 * (a married name); for a lead with an email, a contact without one that no name confirms.
 */
export function someoneElse(contact: Shown, lead: Shown, typos: boolean): boolean {
	const [theirs, its] = [realEmail(contact.email), realEmail(lead.email)];
	if (theirs && its && theirs !== its) return true;
	const first = sameFirstName(contact, lead, typos);
	const last = sameLastName(contact, lead);
	if (first === false) return true;
	const wholeFirstName =
		given(contact.firstname) && given(lead.firstname) && plain(contact.firstname) === plain(lead.firstname);
	const initial = [contact.firstname, lead.firstname].some((name) => given(name) && isInitial(name));
	if (last === false && !(wholeFirstName && !initial)) return true;
	return Boolean(its && !theirs && first !== true && last !== true);
}

/** A number as compared: its last 9 digits, once folded to the national form (numbers too short are none). */
export function compared(number: string | null | undefined): string | undefined {
	const digits = national(number ?? '');
	return digits.length >= 9 ? digits.slice(-9) : undefined;
}
