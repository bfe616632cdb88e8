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

export interface DuplicateGroup {
	/** Ascending; the first is the original, the others its duplicates. */
	customers_ids: number[];
	/** The e-mails (lower case) and phone numbers (normalised) that the group's customers share. */
	emails: string[];
	phones: string[];
}

/** The customers of a site that the duplicate rule links, directly or through one another. */
export function duplicateGroups(store: Store, siteId: number): DuplicateGroup[] {
	const customers = store.customers.forSite(siteId);
	// Who holds each e-mail and each phone number, by index in `customers`.
	const holders = { emails: new Map<string, number[]>(), phones: new Map<string, number[]>() };
	const hold = (map: Map<string, number[]>, key: string, index: number) => {
		const list = map.get(key);
		if (list) list.push(index);
		else map.set(key, [index]);
	};
	customers.forEach((customer, index) => {
		const email = emailOf(customer);
		if (email) hold(holders.emails, email, index);
		for (const phone of new Set(phoneNumbersOf(customer))) hold(holders.phones, phone, index);
	});
	// Union-find: customers sharing a key end up under one root.
	const parent = customers.map((_, index) => index);
	const root = (index: number): number => {
		while (parent[index] !== index) index = parent[index] = parent[parent[index]];
		return index;
	};
	const kinds = ['emails', 'phones'] as const;
	const sharedKeys = kinds.flatMap((kind) =>
		[...holders[kind]].filter(([, indexes]) => indexes.length > 1).map(([key, indexes]) => ({ kind, key, indexes })),
	);
	for (const { indexes } of sharedKeys) for (const other of indexes.slice(1)) parent[root(other)] = root(indexes[0]);
	const groups = new Map<number, DuplicateGroup>();
	for (const { kind, key, indexes } of sharedKeys) {
		const groupRoot = root(indexes[0]);
		const group = groups.get(groupRoot) ?? { customers_ids: [], emails: [], phones: [] };
		groups.set(groupRoot, group);
		group[kind].push(key);
	}
	customers.forEach((customer, index) => groups.get(root(index))?.customers_ids.push(customer.customers_id));
	return [...groups.values()].sort((a, b) => a.customers_ids[0] - b.customers_ids[0]);
}
