/**
 * Creating, updating and showing a customer. Shared by the API, the leads and the admin's
 * simulated CRM edits, so that every path emits the same webhook events and shows the same view.
 */
import { withoutSite } from '../../api';
import type { World } from '../../api';
import { utcNow } from '../../http';
import type { Customer } from '../../model';
import type { Store } from '../../store';
import type { JsonObject } from '../../validation';
import { consentView } from './consent';
import type { CustomerChanges } from './fields';
import { searchRequestView } from './search-requests';

const DEFAULT_COLOR = '#9E9E9E';

export function createCustomer({ store, events }: World, siteId: number, changes: CustomerChanges): Customer {
	const now = utcNow();
	const customer: Customer = {
		customers_id: store.customers.nextId(),
		site_id: siteId,
		agency_id: store.agencyIdsOfSite(siteId)[0],
		firstname: null,
		lastname: null,
		email: null,
		phone: null,
		mobile_phone: null,
		phones: [],
		type: 'other',
		group_ids: [],
		origin_id: null,
		user_id: null,
		gender_code: null,
		created_at: now,
		updated_at: now,
		address: null,
		color: null,
		stop_sms: false,
		notary: null,
		relations: [],
		rgpd_consent: false,
		conformity: null,
		...changes,
	};
	store.customers.insert(customer);
	events.publish(siteId, 'CUSTOMER_CREATE', customer.customers_id);
	return customer;
}

export function updateCustomer({ events }: World, customer: Customer, changes: CustomerChanges): Customer {
	Object.assign(customer, changes, { updated_at: utcNow() });
	events.publish(customer.site_id, 'CUSTOMER_UPDATE', customer.customers_id);
	return customer;
}

/** The contact's agency as `include=agency` gives it: production's `{id}`, with the spec's `agency_id` and its name. */
function agencyOf(store: Store, agencyId: number): JsonObject | null {
	const agency = store.agencies.get(agencyId);
	return agency ? { id: agency.agency_id, agency_id: agency.agency_id, name: agency.name } : null;
}

export function customerView(store: Store, customer: Customer, includes: ReadonlySet<string> = new Set()): JsonObject {
	// Production answers `id`, the spec names `customers_id`: both. Origin and groups only come with
	// `include` (docs/sandbox.md "As production").
	const view: JsonObject = {
		id: customer.customers_id,
		customers_id: customer.customers_id,
		agency_id: customer.agency_id,
		firstname: customer.firstname,
		lastname: customer.lastname,
		email: customer.email,
		phone: customer.phone,
		mobile_phone: customer.mobile_phone,
		phones: customer.phones,
		type: customer.type,
		user_id: customer.user_id,
		gender_code: customer.gender_code,
		created_at: customer.created_at,
		updated_at: customer.updated_at,
	};
	if (includes.size === 0) return view;
	const { customerGroups, customerOrigins, genders } = store.referentials;
	const user = customer.user_id === null ? undefined : store.users.get(customer.user_id);
	const loaders: Record<string, () => [string, unknown]> = {
		address: () => ['address', customer.address],
		groups: () => ['groups', customerGroups.filter((group) => customer.group_ids.includes(group.id))],
		color: () => ['color', { code: customer.color ?? DEFAULT_COLOR, is_default: customer.color === null }],
		origin: () => ['origin', customerOrigins.find((origin) => origin.id === customer.origin_id) ?? null],
		// Production's `{id}` (the router reads `user.id`), with the spec's `user_id`.
		user: () => [
			'user',
			user
				? {
						id: user.user_id,
						user_id: user.user_id,
						firstname: user.firstname,
						lastname: user.lastname,
						email: user.email,
					}
				: null,
		],
		agency: () => ['agency', agencyOf(store, customer.agency_id)],
		rgpd: () => ['rgpd_consent', customer.rgpd_consent],
		gender: () => ['gender', genders.find((gender) => gender.code === customer.gender_code) ?? null],
		stopSms: () => ['stop_sms', customer.stop_sms],
		notary: () => ['notary', customer.notary],
		relations: () => ['relations', customer.relations],
		consent: () => ['consent', consentView(store, customer.customers_id)],
		// Production's spelling; the sandbox's first guess, `search_requests`, still answers under its own key.
		searchRequests: () => [
			'searchRequests',
			store.customerSearchRequests(customer.customers_id).map(searchRequestView),
		],
		search_requests: () => [
			'search_requests',
			store.customerSearchRequests(customer.customers_id).map(searchRequestView),
		],
		mandates: () => [
			'mandates',
			store.mandates
				.forSite(customer.site_id)
				.filter((mandate) => mandate.customers_id === customer.customers_id)
				.map(withoutSite),
		],
	};
	// Unknown include values are ignored: the spec says the list has further, unnamed values.
	for (const include of includes) {
		const load = loaders[include];
		if (load) {
			const [key, value] = load();
			view[key] = value;
		}
	}
	return view;
}
