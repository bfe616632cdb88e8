import type { IDataObject } from 'n8n-workflow';

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

/** A name as people compare it: case, accents and spacing aside. */
function nameOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const name = value
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase();
	return name || undefined;
}

/**
 * What of a contact found by phone says it is someone else: an email, a last name or a first name
 * that both have and that differ. Switchboards, portal relay numbers and couples share phones, and
 * production finds duplicates by phone too: a phone alone never proves the contact is the one meant.
 */
export function contradictions(found: IDataObject, wanted: IDataObject): string[] {
	const differ = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a !== b;
	return [
		...(differ(emailOf(found.email), emailOf(wanted.email)) ? ['email'] : []),
		...(differ(nameOf(found.lastname), nameOf(wanted.lastname)) ? ['last name'] : []),
		...(differ(nameOf(found.firstname), nameOf(wanted.firstname)) ? ['first name'] : []),
	];
}

/**
 * When the record was created, read from `created_at` or `createdAt`; undefined when absent or
 * unreadable. A time written without its zone is the API's, in UTC, not the n8n server's zone.
 */
export function createdAtOf(record: IDataObject): number | undefined {
	const value = record.created_at ?? record.createdAt;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	const zoned = typeof value === 'number' || /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`;
	const time = new Date(typeof value === 'number' ? value : zoned).getTime();
	return Number.isNaN(time) ? undefined : time;
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
