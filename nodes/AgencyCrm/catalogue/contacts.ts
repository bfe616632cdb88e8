import type { IDataObject } from 'n8n-workflow';

/**
 * What identifies a contact, as the API finds duplicates (spec section 4 "Customers": "Duplicates are
 * detected by email OR phones (any match on the same site)"). Emails compare case-insensitively and
 * phone numbers by their digits, so that "06 12 34 56 78" is "0612345678"; any other folding (a
 * country prefix) is the API's to make.
 */

export function emailOf(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
}

export function phoneOf(value: unknown): string | undefined {
	const digits = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\D/g, '') : '';
	return digits || undefined;
}

/** Every phone number of a contact record or body: `phone`, `mobile_phone` and each of `phones`. */
export function phonesOf(contact: IDataObject): string[] {
	const others = Array.isArray(contact.phones) ? (contact.phones as IDataObject[]).map((entry) => entry?.number) : [];
	return [contact.phone, contact.mobile_phone, ...others].flatMap((value) => phoneOf(value) ?? []);
}

/** The keys of a contact body by which the API may find it again: two items sharing one write the same contact. */
export function contactKeys(body: IDataObject): string[] {
	const email = emailOf(body.email);
	return [...(email ? [`email:${email}`] : []), ...new Set(phonesOf(body).map((phone) => `phone:${phone}`))];
}
