/**
 * The customer record itself: create (with duplicate detection), search, read and update, and
 * the group and origin referentials used when creating customers or leads.
 */
import { createdAt, includesOf, pageReply, readAgencyFilter, requireAgencyInScope, route } from '../../api';
import type { ApiRoute, World } from '../../api';
import { ApiError, noContent, ok } from '../../http';
import { CUSTOMER_TYPES } from '../../model';
import type { Customer } from '../../model';
import { cursorPage, readPageRequest } from '../../pagination';
import { FieldReader, objectBody } from '../../validation';
import { CUSTOMER_PACK, pathCustomer } from './access';
import { findDuplicate, phoneNumbersOf } from './duplicates';
import { readCustomerChanges, requireCustomerEmail } from './fields';
import { createCustomer, customerView, updateCustomer } from './records';

export function contactRoutes(world: World): ApiRoute[] {
	const { store } = world;

	return [
		route('POST', '/customers', CUSTOMER_PACK, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const changes = readCustomerChanges(reader, store, request.grant.siteId);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			const checkDuplicate = reader.optionalBoolean('check_duplicate') ?? false;
			requireCustomerEmail(reader, changes);
			reader.throwIfInvalid();
			const duplicate = findDuplicate(store, request.grant.siteId, changes);
			if (duplicate && checkDuplicate) {
				const existing = duplicate.customer.customers_id;
				throw new ApiError(409, 'DUPLICATE_CUSTOMER', `Customer ${existing} already has this ${duplicate.field}.`, [
					{ field: duplicate.field, message: `already used by customer ${existing}` },
				]);
			}
			if (duplicate) return ok(customerView(store, duplicate.customer), { duplicate: true });
			const customer = createCustomer(world, request.grant.siteId, changes);
			return createdAt(request, `/customers/${customer.customers_id}`, customerView(store, customer));
		}),
		route('POST', '/customers/search', CUSTOMER_PACK, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const agencyId = readAgencyFilter(reader, request);
			const email = reader.optionalString('email')?.trim().toLowerCase();
			const phone = reader.optionalString('phone');
			const text = reader.optionalString('query')?.toLowerCase();
			const type = reader.optionalOneOf('type', CUSTOMER_TYPES);
			const updatedSince = reader.optionalUtc('updated_since');
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			// Production's search is not exact: an email or phone that contains the value searched is a
			// hit. Numbers are matched in their national form (06…): a search for +33 6… finds nothing.
			const phoneDigits = phone?.replace(/\D/g, '');
			const keep = (customer: Customer) =>
				(agencyId === undefined || customer.agency_id === agencyId) &&
				(!email || !!customer.email?.toLowerCase().includes(email)) &&
				(!phoneDigits || phoneNumbersOf(customer).some((number) => number.includes(phoneDigits))) &&
				(!type || customer.type === type) &&
				(!updatedSince || customer.updated_at >= updatedSince) &&
				(!text ||
					[customer.firstname, customer.lastname, customer.email].some((value) => value?.toLowerCase().includes(text)));
			const result = cursorPage(store.customers.forSite(request.grant.siteId), 'customers_id', 'desc', page, keep);
			// Production's search results carry no consent, asked or not: a client reads the contact for it.
			const includes = new Set([...includesOf(request)].filter((include) => include !== 'consent'));
			return pageReply(request, result, (customer) => customerView(store, customer, includes));
		}),
		route('GET', '/customers/groups', CUSTOMER_PACK, () => ok(store.referentials.customerGroups)),
		route('GET', '/customers/origins', CUSTOMER_PACK, () => ok(store.referentials.customerOrigins)),
		route('GET', '/customers/{customerId}', CUSTOMER_PACK, (request) =>
			ok(customerView(store, pathCustomer(store, request), includesOf(request))),
		),
		route('PATCH', '/customers/{customerId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = new FieldReader(objectBody(request.body));
			const changes = readCustomerChanges(reader, store, request.grant.siteId, customer);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			// Production answers an update with 204 and no body: only a read-back shows what it took.
			updateCustomer(world, customer, changes);
			return noContent();
		}),
	];
}
