import type { IDataObject } from 'n8n-workflow';

import { apiTimeOf } from '../../shared/values';
import type { NameMatch } from './names';
import { compareNames, nameWords, oneTypoApart, sameWholeName } from './names';

/**
 * What identifies a contact, as production finds duplicates ("email OR phone", spec section 4
 * "Customers") and as the clients that ran against it compare search hits (docs/assumptions.md
 * "Production evidence"): emails case-insensitively, phone numbers by their last 9 digits, so that
 * "+33 6 12 34 56 78", "0612345678" and "06.12.34.56.78" are one number.
 */

/** Digits a phone number is compared by: its last 9 (a French number without its 0 or +33). */
const COMPARED_DIGITS = 9;

export function emailOf(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
}

/** The number as phones are compared: its last 9 digits (all of them when it has fewer). */
export function phoneOf(value: unknown): string | undefined {
	const digits = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\D/g, '') : '';
	return digits ? digits.slice(-COMPARED_DIGITS) : undefined;
}

/**
 * The number as production's contact search matches it: the national form, `+33 6 12 34 56 78`,
 * `+33 (0)6…`, `0033 6…` and `33612345678` as `0612345678` (production finds a contact stored with
 * 06… only by 06…). Other numbers are sent as their digits, a leading + kept.
 */
export function nationalPhone(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	const digits = text.replace(/\D/g, '');
	if (!digits) return undefined;
	const french = /^(?:\+|00)33(\d+)$/.exec(text.replace(/[^\d+]/g, '')) ?? /^33(\d{9})$/.exec(digits);
	if (french) return `0${french[1].replace(/^0/, '')}`;
	return text.startsWith('+') ? `+${digits}` : digits;
}

/** Every phone number of a contact record or body: `phone`, `mobile_phone` (or `mobilePhone`) and each of `phones`. */
export function phonesOf(contact: IDataObject): string[] {
	const others = Array.isArray(contact.phones) ? (contact.phones as IDataObject[]).map((entry) => entry?.number) : [];
	const numbers = [contact.phone, contact.mobile_phone, contact.mobilePhone, ...others];
	return [...new Set(numbers.flatMap((value) => phoneOf(value) ?? []))];
}

/** The keys of a contact body by which the API may find it again: two items sharing one write the same contact. */
export function contactKeys(body: IDataObject): string[] {
	const email = emailOf(body.email);
	return [...(email ? [`email:${email}`] : []), ...phonesOf(body).map((phone) => `phone:${phone}`)];
}

/** A contact's id: the spec's `customers_id`, or the `id` production answers with. */
export function contactIdOf(record: IDataObject): string | number | undefined {
	for (const value of [record.customers_id, record.id]) {
		if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return value;
	}
	return undefined;
}

/** What of a contact found by phone says it is someone else (`reasons`, each with both values), and the typo taken for the same name. */
export interface PhoneMatchJudgement {
	reasons: string[];
	typo?: string;
}

const shown = (value: unknown) => String(value).trim();

/**
 * What of a contact found by phone says it is someone else (no `reasons`: nothing), as production's
 * own clients judge a phone hit (docs/contacts.md): another real email; another first name; another
 * last name unless the first names are the same, written whole (a name changed by marriage). With
 * the same last name, written whole, a first name one typo away is the same one when `typos`
 * (names.ts `oneTypoApart`). A contact without an email found for an item that has one must also
 * confirm it by a name: a nameless record holding the phone (a switchboard, a call log) is not the
 * person. Switchboards, portal relay numbers and couples share phones, and production finds
 * duplicates by phone too: a phone alone never proves the contact is the one meant.
 */
export function judgePhoneMatch(found: IDataObject, wanted: IDataObject, typos: boolean): PhoneMatchJudgement {
	const wantedEmail = realEmailOf(wanted.email);
	const foundEmail = realEmailOf(found.email);
	const last = compareNames(found.lastname, wanted.lastname);
	const typo =
		typos && sameWholeName(found.lastname, wanted.lastname) && oneTypoApart(found.firstname, wanted.firstname);
	const first = typo ? 'variant' : compareNames(found.firstname, wanted.firstname);
	const agrees = (match: NameMatch) => match === 'same' || match === 'variant';
	const differs = (what: string, key: string) => `another ${what} (${shown(found[key])}, not ${shown(wanted[key])})`;
	const reasons: string[] = [];
	if (wantedEmail && foundEmail && wantedEmail !== foundEmail)
		reasons.push(`another email (${foundEmail}, not ${wantedEmail})`);
	if (first === 'other') reasons.push(differs('first name', 'firstname'));
	// A last name changed by marriage keeps the first name whole: an initial ("J.") confirms nothing then.
	if (last === 'other' && !sameWholeName(found.firstname, wanted.firstname))
		reasons.push(differs('last name', 'lastname'));
	if (wantedEmail && !foundEmail && !reasons.length && !agrees(first) && !agrees(last)) {
		reasons.push('no email, and no name that confirms it');
	}
	const saying = `its first name ${shown(found.firstname)} is one typo away from the item's ${shown(wanted.firstname)}`;
	return typo && !reasons.length ? { reasons, typo: saying } : { reasons };
}

/**
 * Production creates no contact without an email (docs/assumptions.md "Production evidence"). A
 * contact known only by its phone gets an address on the reserved `.invalid` domain (RFC 2606: it
 * can never receive mail), made of the phone's national digits and, to tell apart two people who
 * share the phone, their name: stable, so that the same lead sent twice names the same contact, and
 * recognisable by anyone who reads it.
 */
export const PLACEHOLDER_DOMAIN = 'no-email.invalid';

export function placeholderEmail(phone: string, names: { firstname?: unknown; lastname?: unknown } = {}): string {
	const digits = nationalPhone(phone)?.replace(/\D/g, '') ?? '';
	const name = [...nameWords(names.firstname), ...nameWords(names.lastname)].join('-').slice(0, 40);
	return `${digits}${name ? `.${name}` : ''}@${PLACEHOLDER_DOMAIN}`;
}

const isPlaceholderEmail = (value: unknown): boolean => emailOf(value)?.endsWith(`@${PLACEHOLDER_DOMAIN}`) === true;

/** The email as compared, unless it is a placeholder (which says the contact has none). */
export function realEmailOf(value: unknown): string | undefined {
	return isPlaceholderEmail(value) ? undefined : emailOf(value);
}

/** When the record was created, read from `created_at` or `createdAt` (apiTimeOf); undefined when absent or unreadable. */
export function createdAtOf(record: IDataObject): number | undefined {
	return apiTimeOf(record.created_at ?? record.createdAt);
}

/** The most recently created of several contacts (then the highest id): the one clients take when several match. */
export function mostRecent(records: IDataObject[]): IDataObject | undefined {
	const rank = (record: IDataObject): [number, number] => [
		createdAtOf(record) ?? Number.NEGATIVE_INFINITY,
		Number(contactIdOf(record) ?? Number.NEGATIVE_INFINITY),
	];
	return [...records].sort((a, b) => {
		const [timeA, idA] = rank(a);
		const [timeB, idB] = rank(b);
		return timeB - timeA || idB - idA;
	})[0];
}
