/** Sale agreements, sales offers and leases: the Sales pack. */
import { includesOf, pageReply, pathRecord, readAgencyFilter, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { ApiError, ok, utcNow } from '../http';
import { OFFER_STATUSES } from '../model';
import type { Transaction, TransactionKind } from '../model';
import { cursorPage, readPageRequest } from '../pagination';
import type { Store } from '../store';
import { applyAliases } from '../aliases';
import { FieldReader, JsonObject, objectBody } from '../validation';
import { customerView } from './customers/records';
import { agencyView } from './discovery';
import { userView } from './users';

const SALES_PACK = { pack: 'Sales' } as const;
const INCLUDES = ['compromis_cs', 'agencies', 'buyer', 'buyer_groups', 'seller', 'fees', 'user'];
/** Deprecated include names (spec section 9) and the include they stand for. */
const INCLUDE_ALIASES: Record<string, string> = {
	followed_nego: 'user',
	fees_nego: 'fees',
	fees_manufacturer: 'fees',
	fees_nego_manufacturer: 'fees',
	fees_customer_manufacturer: 'fees',
};
const FEE_FIELDS = ['fees_user', 'fees_agency', 'fees_user_agency', 'fees_customer_agency'] as const;
/** Deprecated fee names and their current names. */
const FEE_ALIASES = {
	fees_nego: 'fees_user',
	fees_manufacturer: 'fees_agency',
	fees_nego_manufacturer: 'fees_user_agency',
	fees_customer_manufacturer: 'fees_customer_agency',
};
const BILLING_FIELDS = [
	'conformity',
	'payment_status',
	'payment_date',
	'invoice_number',
	'invoice_date',
	...FEE_FIELDS,
];
const PAYMENT_STATUSES = ['pending', 'invoiced', 'partially_paid', 'paid'] as const;

/** The `include` values, checked: an unknown value is `422 INVALID_INCLUDE` listing the available ones. */
function readIncludes(request: ApiRequest): Set<string> {
	const requested = includesOf(request);
	const unknown = [...requested].filter((value) => !INCLUDES.includes(value) && !(value in INCLUDE_ALIASES));
	if (unknown.length > 0) {
		const available = INCLUDES.join(', ');
		throw new ApiError(
			422,
			'INVALID_INCLUDE',
			`Unknown include value(s): ${unknown.join(', ')}. Available includes: ${available}.`,
			unknown.map((value) => ({
				field: 'include',
				message: `"${value}" is not available; available includes: ${available}`,
			})),
		);
	}
	return requested;
}

function transactionView(store: Store, transaction: Transaction, includes: ReadonlySet<string>): JsonObject {
	const view: JsonObject = {
		compromis_id: transaction.compromis_id,
		kind: transaction.kind,
		agency_id: transaction.agency_id,
		product_id: transaction.product_id,
		price: transaction.price,
		assigned_user: transaction.assigned_user,
		fees_user: transaction.fees_user,
		fees_agency: transaction.fees_agency,
		fees_user_agency: transaction.fees_user_agency,
		fees_customer_agency: transaction.fees_customer_agency,
		conformity: transaction.conformity,
		payment_status: transaction.payment_status,
		payment_date: transaction.payment_date,
		invoice_number: transaction.invoice_number,
		invoice_date: transaction.invoice_date,
		...(transaction.offer_status === undefined ? {} : { offer_status: transaction.offer_status }),
		created_at: transaction.created_at,
		updated_at: transaction.updated_at,
	};
	const customer = (id: number | null) => (id === null ? undefined : store.customers.get(id));
	const buyer = customer(transaction.buyer_id);
	const seller = customer(transaction.seller_id);
	const user = transaction.assigned_user === null ? undefined : store.users.get(transaction.assigned_user);
	const agency = store.agencies.get(transaction.agency_id);
	const loaders: Record<string, () => unknown> = {
		compromis_cs: () => transaction.suspensive_conditions,
		agencies: () => (agency ? [agencyView(agency)] : []),
		buyer: () => (buyer ? customerView(store, buyer) : null),
		buyer_groups: () =>
			buyer ? store.referentials.customerGroups.filter((group) => buyer.group_ids.includes(group.id)) : [],
		seller: () => (seller ? customerView(store, seller) : null),
		fees: () => ({
			...Object.fromEntries(FEE_FIELDS.map((field) => [field, transaction[field]])),
			total: FEE_FIELDS.reduce((sum, field) => sum + transaction[field], 0),
		}),
		user: () => (user ? userView(user) : null),
	};
	for (const include of includes) {
		const canonical = INCLUDE_ALIASES[include] ?? include;
		view[canonical] = loaders[canonical]();
		// The deprecated `followed_nego` include also brings back the deprecated field of that name.
		if (include === 'followed_nego') view.followed_nego = view.user;
	}
	return view;
}

export function transactionRoutes({ store }: World): ApiRoute[] {
	function search(kind: TransactionKind) {
		return (request: ApiRequest) => {
			const includes = readIncludes(request);
			const reader = new FieldReader(objectBody(request.body));
			const agencyId = readAgencyFilter(reader, request);
			const updatedSince = reader.optionalUtc('updated_since');
			const offerStatus = kind === 'offer' ? reader.optionalOneOf('offer_status', OFFER_STATUSES) : undefined;
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const keep = (transaction: Transaction) =>
				transaction.kind === kind &&
				(agencyId === undefined || transaction.agency_id === agencyId) &&
				(!updatedSince || transaction.updated_at >= updatedSince) &&
				(!offerStatus || transaction.offer_status === offerStatus);
			const result = cursorPage(store.transactions.forSite(request.grant.siteId), 'compromis_id', 'asc', page, keep);
			return pageReply(request, result, (transaction) => transactionView(store, transaction, includes));
		};
	}

	return [
		route('POST', '/transactions/agreement/search', SALES_PACK, search('agreement')),
		route('POST', '/transactions/sales-offers/search', SALES_PACK, search('offer')),
		route('POST', '/transactions/leases/search', SALES_PACK, search('lease')),
		route('GET', '/agreement/{compromisId}', SALES_PACK, (request) => {
			const includes = readIncludes(request);
			return ok(
				transactionView(store, pathRecord(request, store.transactions, 'compromisId', 'Transaction'), includes),
			);
		}),
		route('PUT', '/agreement/{compromisId}', SALES_PACK, (request) => {
			const transaction = pathRecord(request, store.transactions, 'compromisId', 'Transaction');
			const reader = new FieldReader(applyAliases(objectBody(request.body), FEE_ALIASES));
			reader.rejectUnknownKeys(BILLING_FIELDS, `is not a billing field; accepted: ${BILLING_FIELDS.join(', ')}`);
			const changes: Partial<Transaction> = {};
			const conformity = reader.optionalBoolean('conformity');
			if (typeof conformity === 'boolean') changes.conformity = conformity;
			const paymentStatus = reader.optionalOneOf('payment_status', PAYMENT_STATUSES);
			if (paymentStatus) changes.payment_status = paymentStatus;
			for (const key of ['payment_date', 'invoice_date'] as const) {
				const value = reader.optionalDate(key, { nullable: true });
				if (value !== undefined) changes[key] = value;
			}
			const invoiceNumber = reader.optionalString('invoice_number', { nullable: true, maxLength: 50 });
			if (invoiceNumber !== undefined) changes.invoice_number = invoiceNumber;
			for (const key of FEE_FIELDS) {
				const value = reader.optionalNumber(key, { min: 0 });
				if (typeof value === 'number') changes[key] = value;
			}
			reader.throwIfInvalid();
			Object.assign(transaction, changes, { updated_at: utcNow() });
			return ok(transactionView(store, transaction, new Set()));
		}),
	];
}
