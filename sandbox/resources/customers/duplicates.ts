/**
 * The duplicate rule of customer creation and leads: same site, and the same e-mail
 * (case-insensitive) or any phone number in common (compared by digits, +33 folded to 0).
 */
import type { Customer, Phone } from '../../model';
import type { Store } from '../../store';
import type { CustomerChanges } from './fields';

/** Digits only, with the French +33 prefix folded to 0, so that "+33 6 12..." matches "0612...". */
export function normalisePhone(phone: string): string {
	const digits = phone.replace(/\D/g, '');
	return digits.startsWith('33') && digits.length === 11 ? `0${digits.slice(2)}` : digits;
}

export function phoneNumbersOf(customer: Pick<Customer, 'phone' | 'mobile_phone'> & { phones?: Phone[] }): string[] {
	const numbers = [customer.phone, customer.mobile_phone, ...(customer.phones ?? []).map((phone) => phone.number)];
	return numbers.filter((number): number is string => !!number).map(normalisePhone);
}

function emailOf(customer: Pick<Customer, 'email'>): string | undefined {
	return customer.email?.trim().toLowerCase() || undefined;
}

export interface Duplicate {
	customer: Customer;
	field: 'email' | 'phone';
}

/** An existing customer of the site with the same e-mail, or any phone number in common. */
export function findDuplicate(store: Store, siteId: number, candidate: CustomerChanges): Duplicate | undefined {
	const email = emailOf({ email: candidate.email ?? null });
	const phones = new Set(
		phoneNumbersOf({
			phone: candidate.phone ?? null,
			mobile_phone: candidate.mobile_phone ?? null,
			phones: candidate.phones,
		}),
	);
	if (!email && phones.size === 0) return undefined;
	for (const customer of store.customers.forSite(siteId)) {
		if (email && emailOf(customer) === email) return { customer, field: 'email' };
		if (phones.size > 0 && phoneNumbersOf(customer).some((number) => phones.has(number)))
			return { customer, field: 'phone' };
	}
	return undefined;
}
