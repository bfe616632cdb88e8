import type { sandboxApi } from './context';

/** A contact as the sandbox answers it, with the keys the real-n8n tests read. */
export interface StoredContact {
	id: number;
	customers_id: number;
	firstname: string | null;
	lastname: string | null;
	type: string;
	email: string | null;
	phone: string | null;
	mobile_phone: string | null;
	updated_at: string;
	consent?: { reason: string; proofs: Array<{ name: string }> } | null;
}

/**
 * The contacts the CRM holds with this email or number, read as another client of the CRM would: its
 * search is not exact, so each hit is checked (the email case aside, numbers by their last 9 digits).
 */
export function contactsHolding(crmApi: ReturnType<typeof sandboxApi>) {
	const last9 = (value: string | null) => (value ?? '').replace(/\D/g, '').slice(-9);
	return async (filter: { email?: string; phone?: string }): Promise<StoredContact[]> => {
		const { data } = await crmApi<{ data: StoredContact[] }>('POST', '/customers/search', { ...filter, per_page: 200 });
		if (filter.email) return data.filter((contact) => contact.email?.toLowerCase() === filter.email!.toLowerCase());
		return data.filter((contact) =>
			[contact.phone, contact.mobile_phone].some((number) => last9(number) === last9(filter.phone!)),
		);
	};
}
