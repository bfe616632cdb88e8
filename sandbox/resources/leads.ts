/**
 * Seller and buyer leads: find or create the customer (duplicate by email, phone or mobile
 * phone), create the product or the search requests, record the cold-calling consent with the
 * normalised reason `[API client name] - [Transaction type] - [Request nature]`, and log the lead
 * (with its comment) in the customer's action history.
 */
import { requireAgencyInScope, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { utcNow } from '../http';
import type { Customer, SearchRequest } from '../model';
import { LEAD_ACTION_TYPE_ID } from '../seed/referentials';
import { FieldReader, isObject, JsonObject, objectBody } from '../validation';
import { findDuplicate } from './customers/duplicates';
import { CustomerChanges, readCustomerChanges, requireCustomerIdentity } from './customers/fields';
import { createCustomer, customerView } from './customers/records';
import { addSearchRequest, readNewSearchRequest, searchRequestView } from './customers/search-requests';
import { createProduct, isRental, productView, readProductChanges, WRITTEN_FETCH } from './products';

const LEADS_PACK = { pack: 'Leads' } as const;
const TRANSACTION_LABELS: Record<string, string> = { sale: 'Sale', rental: 'Rental' };
/** A buyer lead's transaction type (docs/assumptions.md "Leads"). */
const TRANSACTION_TYPES = ['sale', 'rental'] as const;

interface LeadCommon {
	agencyId: number;
	customer: CustomerChanges;
	requestNature: string;
	comment: string | null;
}

/** A buyer's (or tenant's) lead as the API and the console's website form receive it. */
export interface BuyerLead extends LeadCommon {
	transactionType: string;
	searchRequests: Partial<SearchRequest>[];
}

/**
 * Receives a buyer lead sent by `sourceName` (the API client's name, which the consent reason
 * quotes): the customer found or created, its search requests, the consent and the logged lead.
 */
export function receiveBuyerLead(world: World, siteId: number, sourceName: string, lead: BuyerLead) {
	const { customer, duplicate } = resolveCustomer(
		world,
		siteId,
		lead,
		lead.transactionType === 'rental' ? 'tenant' : 'buyer',
	);
	const searchRequests = lead.searchRequests.map((fields) =>
		searchRequestView(addSearchRequest(world.store, customer, fields)),
	);
	recordLead(world, sourceName, customer, lead.transactionType, lead, !duplicate);
	return { customer, duplicate, searchRequests };
}

/** The duplicate of the lead's customer (email, phone or mobile phone), else a new customer. */
function resolveCustomer(
	world: World,
	siteId: number,
	lead: LeadCommon,
	type: Customer['type'],
): { customer: Customer; duplicate: boolean } {
	const duplicate = findDuplicate(world.store, siteId, lead.customer);
	if (duplicate) return { customer: duplicate.customer, duplicate: true };
	return {
		customer: createCustomer(world, siteId, { agency_id: lead.agencyId, type, ...lead.customer }),
		duplicate: false,
	};
}

/** Records the consent as collected and logs the lead on the customer. */
function recordLead(
	{ store, events }: World,
	sourceName: string,
	customer: Customer,
	transactionType: string,
	lead: LeadCommon,
	isNewCustomer: boolean,
): void {
	const now = utcNow();
	const previous = store.consents.get(customer.customers_id);
	store.consents.set(customer.customers_id, {
		customers_id: customer.customers_id,
		status: 'collected',
		reason: `${sourceName} - ${TRANSACTION_LABELS[transactionType]} - ${lead.requestNature}`,
		collected_at: now,
		revoked_at: null,
		accept_outside_hours: previous?.accept_outside_hours ?? null,
		proof_file_names: previous?.proof_file_names ?? [],
	});
	store.addAction({
		action_id: store.actions.nextId(),
		site_id: customer.site_id,
		action_type_id: LEAD_ACTION_TYPE_ID,
		customers_id: customer.customers_id,
		product_id: null,
		date: now,
		comment: lead.comment,
		user_id: customer.user_id,
	});
	customer.updated_at = now;
	// A reused customer changed (its consent and last-update date): that is a customer update.
	if (!isNewCustomer) events.publish(customer.site_id, 'CUSTOMER_UPDATE', customer.customers_id);
}

export function leadRoutes(world: World): ApiRoute[] {
	const { store } = world;

	/** Reads what seller and buyer leads share: agency, customer and request nature. */
	function readLeadCommon(request: ApiRequest, reader: FieldReader, defaultNature: string): LeadCommon {
		const agencyId = reader.requiredInteger('agency_id');
		if (reader.has('agency_id') && reader.valid) requireAgencyInScope(request, agencyId);
		const customerBody = reader.optionalObject('customer');
		if (!customerBody) reader.fail('customer', 'is required');
		const customerReader = reader.nested(customerBody ?? {}, 'customer');
		const customer = readCustomerChanges(customerReader, store, request.grant.siteId);
		if (customer.agency_id !== undefined) requireAgencyInScope(request, customer.agency_id);
		if (customerBody) requireCustomerIdentity(customerReader, customer);
		const requestNature = reader.optionalString('request_nature', { minLength: 1, maxLength: 100 }) ?? defaultNature;
		const comment = reader.optionalString('comment', { nullable: true, maxLength: 5000 }) ?? null;
		return { agencyId, customer, requestNature, comment };
	}

	function leadReply(customer: Customer, duplicate: boolean, created: JsonObject) {
		return {
			status: 201,
			body: {
				data: { customer: customerView(store, customer, new Set(['consent'])), ...created },
				meta: { duplicate_customer: duplicate },
			},
		};
	}

	return [
		route('POST', '/leads/sellers', LEADS_PACK, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const lead = readLeadCommon(request, reader, 'Valuation');
			const productBody = reader.optionalObject('product');
			if (!productBody) reader.fail('product', 'is required');
			const productReader = reader.nested(productBody ?? {}, 'product');
			const siteId = request.grant.siteId;
			const product = readProductChanges(productReader, store, siteId);
			reader.throwIfInvalid();
			const { customer, duplicate } = resolveCustomer(world, siteId, lead, 'seller');
			const created = createProduct(world, siteId, { ...product, agency_id: lead.agencyId });
			const transactionType = isRental(store, created) ? 'rental' : 'sale';
			recordLead(world, request.grant.client.name, customer, transactionType, lead, !duplicate);
			return leadReply(customer, duplicate, { product: productView(store, created, WRITTEN_FETCH) });
		}),
		route('POST', '/leads/buyers', LEADS_PACK, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const lead = readLeadCommon(request, reader, 'Search');
			const transactionType = reader.optionalOneOf('transaction_type', TRANSACTION_TYPES) ?? 'sale';
			const searchRequests: Partial<SearchRequest>[] = (reader.optionalArray('search_requests') ?? []).map(
				(item, index) => {
					if (!isObject(item)) {
						reader.fail(`search_requests[${index}]`, 'must be an object');
						return {};
					}
					return readNewSearchRequest(reader.nested(item, `search_requests[${index}]`), store, request.grant.siteId);
				},
			);
			reader.throwIfInvalid();
			const {
				customer,
				duplicate,
				searchRequests: created,
			} = receiveBuyerLead(world, request.grant.siteId, request.grant.client.name, {
				...lead,
				transactionType,
				searchRequests,
			});
			return leadReply(customer, duplicate, { search_requests: created });
		}),
	];
}
