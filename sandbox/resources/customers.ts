/**
 * Customers: create (with duplicate detection), search, read, update, consent, search requests,
 * follow-ups, groups and origins. The create/update functions are shared with the leads and
 * the admin's simulated CRM edits, so that every path emits the same webhook events.
 */
import {
	ApiRequest,
	ApiRoute,
	idParam,
	includesOf,
	pageReply,
	pathRecord,
	readAgencyFilter,
	requireAgencyInScope,
	route,
	World,
} from '../api';
import { ApiError, created, noContent, notFound, ok, utcNow } from '../http';
import { CUSTOMER_TYPES, FOLLOW_UP_STATUSES } from '../model';
import type { Customer, CustomerType, FollowUp, Phone, SearchRequest } from '../model';
import { cursorPage, readPageRequest } from '../pagination';
import type { Store } from '../store';
import { applyAliases, FieldReader, isObject, JsonObject, objectBody } from '../validation';
import { readCriteria } from './criterias';
import { mandateView } from './mandates';

/** Deprecated camelCase keys of customer bodies and their snake_case names. */
export const CUSTOMER_ALIASES: Readonly<Record<string, string>> = {
	firstName: 'firstname',
	lastName: 'lastname',
	mobilePhone: 'mobile_phone',
	checkDuplicate: 'check_duplicate',
	agencyId: 'agency_id',
	groupIds: 'group_ids',
	originId: 'origin_id',
	userId: 'user_id',
	genderCode: 'gender_code',
	stopSms: 'stop_sms',
	updatedSince: 'updated_since',
	perPage: 'per_page',
};

const DEFAULT_COLOR = '#9E9E9E';
const CUSTOMER_PACK = { pack: 'Customers' } as const;

export type CustomerChanges = Partial<
	Pick<
		Customer,
		| 'agency_id'
		| 'firstname'
		| 'lastname'
		| 'email'
		| 'phone'
		| 'mobile_phone'
		| 'phones'
		| 'type'
		| 'group_ids'
		| 'origin_id'
		| 'user_id'
		| 'gender_code'
		| 'address'
		| 'stop_sms'
	>
>;

/** Reads the writable customer fields; `agency_id` scope is the caller's business. */
export function readCustomerChanges(reader: FieldReader, store: Store, siteId: number): CustomerChanges {
	const { customerGroups, customerOrigins, genders } = store.referentials;
	const changes: CustomerChanges = {};
	const agencyId = reader.optionalInteger('agency_id');
	if (agencyId !== undefined && agencyId !== null) changes.agency_id = agencyId;
	for (const key of ['firstname', 'lastname'] as const) {
		const value = reader.optionalString(key, { nullable: true, maxLength: 100 });
		if (value !== undefined) changes[key] = value;
	}
	const email = reader.optionalEmail('email', { nullable: true });
	if (email !== undefined) changes.email = email;
	for (const key of ['phone', 'mobile_phone'] as const) {
		const value = readPhoneNumber(reader, key);
		if (value !== undefined) changes[key] = value;
	}
	const phones = readPhones(reader);
	if (phones) changes.phones = phones;
	const type = reader.optionalOneOf<CustomerType>('type', CUSTOMER_TYPES);
	if (type) changes.type = type;
	const groupIds = reader.optionalIntegerList('group_ids');
	groupIds
		?.filter((id) => !customerGroups.some((group) => group.id === id))
		.forEach((id) => reader.fail('group_ids', `unknown customer group ${id}`));
	if (groupIds) changes.group_ids = groupIds;
	const originId = reader.optionalInteger('origin_id', { nullable: true });
	if (originId && !customerOrigins.some((origin) => origin.id === originId))
		reader.fail('origin_id', `unknown customer origin ${originId}`);
	if (originId !== undefined) changes.origin_id = originId;
	const userId = reader.optionalInteger('user_id', { nullable: true });
	if (userId && !store.users.getInSite(userId, siteId)) reader.fail('user_id', `unknown user ${userId}`);
	if (userId !== undefined) changes.user_id = userId;
	const genderCode = reader.optionalOneOf(
		'gender_code',
		genders.map((gender) => gender.code),
		{ nullable: true },
	);
	if (genderCode !== undefined) changes.gender_code = genderCode;
	const address = reader.optionalObject('address', { nullable: true });
	if (address !== undefined) changes.address = address && readAddress(reader.nested(address, 'address'));
	const stopSms = reader.optionalBoolean('stop_sms');
	if (stopSms !== undefined && stopSms !== null) changes.stop_sms = stopSms;
	return changes;
}

function readPhoneNumber(reader: FieldReader, key: string): string | null | undefined {
	const value = reader.optionalString(key, { nullable: true, maxLength: 30 });
	if (value && !/^\+?[\d .()-]{6,}$/.test(value)) {
		reader.fail(key, 'must be a phone number');
		return undefined;
	}
	return value;
}

function readPhones(reader: FieldReader): Phone[] | undefined {
	const items = reader.optionalArray('phones');
	if (!items) return undefined;
	return items.flatMap((item, index) => {
		if (!isObject(item)) {
			reader.fail(`phones[${index}]`, 'must be an object with type and number');
			return [];
		}
		const itemReader = reader.nested(item, `phones[${index}]`);
		const type = itemReader.requiredString('type', { maxLength: 20 });
		const number = readPhoneNumber(itemReader, 'number');
		if (number === undefined || number === null) {
			if (!itemReader.has('number')) itemReader.fail('number', 'is required');
			return [];
		}
		return [{ type, number }];
	});
}

function readAddress(reader: FieldReader): Customer['address'] {
	const text = (key: string) => reader.optionalString(key, { nullable: true, maxLength: 200 }) ?? null;
	return { street: text('street'), postal_code: text('postal_code'), city: text('city'), country: text('country') };
}

/** Digits only, with the French +33 prefix folded to 0, so that "+33 6 12..." matches "0612...". */
function normalisePhone(phone: string): string {
	const digits = phone.replace(/\D/g, '');
	return digits.startsWith('33') && digits.length === 11 ? `0${digits.slice(2)}` : digits;
}

function phoneNumbersOf(customer: Pick<Customer, 'phone' | 'mobile_phone'> & { phones?: Phone[] }): string[] {
	const numbers = [customer.phone, customer.mobile_phone, ...(customer.phones ?? []).map((phone) => phone.number)];
	return numbers.filter((number): number is string => !!number).map(normalisePhone);
}

export interface Duplicate {
	customer: Customer;
	field: 'email' | 'phone';
}

/** An existing customer of the site with the same e-mail, or any phone number in common. */
export function findDuplicate(store: Store, siteId: number, candidate: CustomerChanges): Duplicate | undefined {
	const email = candidate.email?.trim().toLowerCase();
	const phones = new Set(
		phoneNumbersOf({
			phone: candidate.phone ?? null,
			mobile_phone: candidate.mobile_phone ?? null,
			phones: candidate.phones,
		}),
	);
	if (!email && phones.size === 0) return undefined;
	for (const customer of store.customers.forSite(siteId)) {
		if (email && customer.email?.toLowerCase() === email) return { customer, field: 'email' };
		if (phones.size > 0 && phoneNumbersOf(customer).some((number) => phones.has(number)))
			return { customer, field: 'phone' };
	}
	return undefined;
}

export function requireCustomerIdentity(reader: FieldReader, changes: CustomerChanges): void {
	if (!changes.lastname && !changes.email && !changes.phone && !changes.mobile_phone) {
		reader.fail('lastname', 'a customer needs at least a lastname, an email, a phone or a mobile_phone');
	}
}

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

export function customerView(store: Store, customer: Customer, includes: ReadonlySet<string> = new Set()): JsonObject {
	const view: JsonObject = {
		customers_id: customer.customers_id,
		agency_id: customer.agency_id,
		firstname: customer.firstname,
		lastname: customer.lastname,
		email: customer.email,
		phone: customer.phone,
		mobile_phone: customer.mobile_phone,
		phones: customer.phones,
		type: customer.type,
		group_ids: customer.group_ids,
		origin_id: customer.origin_id,
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
		user: () => [
			'user',
			user ? { user_id: user.user_id, firstname: user.firstname, lastname: user.lastname, email: user.email } : null,
		],
		gender: () => ['gender', genders.find((gender) => gender.code === customer.gender_code) ?? null],
		stopSms: () => ['stop_sms', customer.stop_sms],
		notary: () => ['notary', customer.notary],
		relations: () => ['relations', customer.relations],
		consent: () => ['consent', consentView(store, customer.customers_id)],
		search_requests: () => [
			'search_requests',
			store.customerSearchRequests(customer.customers_id).map(searchRequestView),
		],
		mandates: () => [
			'mandates',
			store.mandates
				.forSite(customer.site_id)
				.filter((mandate) => mandate.customers_id === customer.customers_id)
				.map(mandateView),
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

function consentView(store: Store, customerId: number): unknown {
	const consent = store.consents.get(customerId);
	if (!consent) return null;
	const { customers_id: _id, ...view } = consent;
	return view;
}

export function searchRequestView({ site_id: _site, ...request }: SearchRequest): Omit<SearchRequest, 'site_id'> {
	return request;
}

function readSearchRequestFields(reader: FieldReader, store: Store): Partial<SearchRequest> {
	const fields: Partial<SearchRequest> = {};
	const title = reader.optionalString('title', { nullable: true, maxLength: 200 });
	if (title !== undefined) fields.title = title;
	const isActive = reader.optionalBoolean('is_active');
	if (isActive !== undefined && isActive !== null) fields.is_active = isActive;
	const criteria = readCriteria(reader, 'criteria', store.referentials.searchRequestCriteria);
	if (criteria) fields.criteria = criteria;
	const keyPoints = reader.optionalObject('key_points');
	if (keyPoints) {
		const keyPointsReader = reader.nested(keyPoints, 'key_points');
		fields.key_points = {
			pros: keyPointsReader.optionalStringList('pros') ?? [],
			cons: keyPointsReader.optionalStringList('cons') ?? [],
		};
	}
	const areas = reader.optionalIntegerList('areas');
	areas
		?.filter((id) => !store.referentials.zones.some((zone) => zone.id === id))
		.forEach((id) => reader.fail('areas', `unknown zone ${id}`));
	if (areas) fields.areas = areas;
	return fields;
}

/** Creates a search request from a body already checked by `readSearchRequestFields`. */
export function addSearchRequest(store: Store, customer: Customer, fields: Partial<SearchRequest>): SearchRequest {
	const now = utcNow();
	return store.addSearchRequest({
		search_request_id: store.searchRequests.nextId(),
		site_id: customer.site_id,
		customers_id: customer.customers_id,
		title: null,
		is_active: true,
		criteria: [],
		key_points: { pros: [], cons: [] },
		areas: [],
		created_at: now,
		updated_at: now,
		...fields,
	});
}

/** Reads one search request of a lead or of the search-request endpoint; criteria are required. */
export function readNewSearchRequest(reader: FieldReader, store: Store): Partial<SearchRequest> {
	if (!reader.has('criteria')) reader.fail('criteria', 'is required');
	return readSearchRequestFields(reader, store);
}

function readFollowUpFields(reader: FieldReader): Partial<FollowUp> {
	const fields: Partial<FollowUp> = {};
	const rating = reader.optionalInteger('rating', { nullable: true, min: 0, max: 5 });
	if (rating !== undefined) fields.rating = rating;
	const status = reader.optionalOneOf('status', FOLLOW_UP_STATUSES);
	if (status) fields.status = status;
	const comment = reader.optionalString('comment', { nullable: true, maxLength: 2000 });
	if (comment !== undefined) fields.comment = comment;
	return fields;
}

export function customerRoutes(world: World): ApiRoute[] {
	const { store } = world;

	const pathCustomer = (request: ApiRequest) => pathRecord(request, store.customers, 'customerId', 'Customer');

	function customerBody(request: ApiRequest): FieldReader {
		return new FieldReader(applyAliases(objectBody(request.body), CUSTOMER_ALIASES));
	}

	function writeConsent(request: ApiRequest, write: () => void) {
		if (world.consentProofFails(request.grant.client.clientId)) {
			throw new ApiError(
				502,
				'PROOF_STORAGE_FAILED',
				'The consent proof file could not be stored; the consent was not recorded.',
			);
		}
		write();
		return noContent();
	}

	return [
		route('POST', '/customers', CUSTOMER_PACK, (request) => {
			const reader = customerBody(request);
			const changes = readCustomerChanges(reader, store, request.grant.siteId);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			const checkDuplicate = reader.optionalBoolean('check_duplicate') ?? false;
			requireCustomerIdentity(reader, changes);
			reader.throwIfInvalid();
			const duplicate = findDuplicate(store, request.grant.siteId, changes);
			if (duplicate && checkDuplicate) {
				const existing = duplicate.customer.customers_id;
				throw new ApiError(409, 'DUPLICATE_CUSTOMER', `Customer ${existing} already has this ${duplicate.field}.`, [
					{ field: duplicate.field, message: `already used by customer ${existing}` },
				]);
			}
			if (duplicate) return ok(customerView(store, duplicate.customer), { duplicate: true });
			return created(customerView(store, createCustomer(world, request.grant.siteId, changes)));
		}),
		route('POST', '/customers/search', CUSTOMER_PACK, (request) => {
			const reader = customerBody(request);
			const agencyId = readAgencyFilter(reader, request);
			const email = reader.optionalString('email')?.trim().toLowerCase();
			const phone = reader.optionalString('phone');
			const text = reader.optionalString('query')?.toLowerCase();
			const type = reader.optionalOneOf('type', CUSTOMER_TYPES);
			const updatedSince = reader.optionalUtc('updated_since');
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const phoneDigits = phone ? normalisePhone(phone) : undefined;
			const keep = (customer: Customer) =>
				(agencyId === undefined || customer.agency_id === agencyId) &&
				(!email || customer.email?.toLowerCase() === email) &&
				(!phoneDigits || phoneNumbersOf(customer).includes(phoneDigits)) &&
				(!type || customer.type === type) &&
				(!updatedSince || customer.updated_at >= updatedSince) &&
				(!text ||
					[customer.firstname, customer.lastname, customer.email].some((value) => value?.toLowerCase().includes(text)));
			const result = cursorPage(
				store.customers.forSite(request.grant.siteId),
				(customer) => customer.customers_id,
				'desc',
				page,
				keep,
			);
			return pageReply(request, result, (customer) => customerView(store, customer, includesOf(request)));
		}),
		route('GET', '/customers/groups', CUSTOMER_PACK, () => ok(store.referentials.customerGroups)),
		route('GET', '/customers/origins', CUSTOMER_PACK, () => ok(store.referentials.customerOrigins)),
		route('GET', '/customers/{customerId}', CUSTOMER_PACK, (request) =>
			ok(customerView(store, pathCustomer(request), includesOf(request))),
		),
		route('PATCH', '/customers/{customerId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const reader = customerBody(request);
			const changes = readCustomerChanges(reader, store, request.grant.siteId);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			return ok(customerView(store, updateCustomer(world, customer, changes)));
		}),
		route('POST', '/customers/{customerId}/consent', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const reader = new FieldReader(objectBody(request.body));
			const reason = reader.requiredString('reason', { minLength: 1, maxLength: 500 });
			const collectedAt = reader.optionalUtc('collected_at') ?? utcNow();
			const proof = reader.optionalObject('proof_file', { nullable: true });
			let proofFileName: string | undefined;
			if (proof) {
				const proofReader = reader.nested(proof, 'proof_file');
				proofFileName = proofReader.requiredString('file_name', { minLength: 1, maxLength: 255 });
				const content = proofReader.requiredString('content_base64');
				if (content && !/^[A-Za-z0-9+/=\s]+$/.test(content)) proofReader.fail('content_base64', 'must be base64');
			}
			reader.throwIfInvalid();
			return writeConsent(request, () => {
				const previous = store.consents.get(customer.customers_id);
				store.consents.set(customer.customers_id, {
					customers_id: customer.customers_id,
					status: 'collected',
					reason,
					collected_at: collectedAt,
					revoked_at: null,
					// Proof files are retained on update (changelog 1.4.0).
					proof_file_name: proofFileName ?? previous?.proof_file_name ?? null,
				});
				customer.updated_at = utcNow();
			});
		}),
		route('DELETE', '/customers/{customerId}/consent', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			return writeConsent(request, () => {
				const consent = store.consents.get(customer.customers_id);
				if (consent && consent.status === 'collected')
					Object.assign(consent, { status: 'revoked', revoked_at: utcNow() });
				customer.updated_at = utcNow();
			});
		}),
		route('POST', '/customers/{customerId}/search-requests', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readNewSearchRequest(reader, store);
			reader.throwIfInvalid();
			return created(searchRequestView(addSearchRequest(store, customer, fields)));
		}),
		route('PATCH', '/customers/{customerId}/search-requests/{searchRequestId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const searchRequestId = idParam(request, 'searchRequestId');
			const searchRequest = store.searchRequests.get(searchRequestId);
			if (!searchRequest || searchRequest.customers_id !== customer.customers_id)
				throw notFound(`Search request ${searchRequestId}`);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readSearchRequestFields(reader, store);
			reader.throwIfInvalid();
			// Supplied criteria replace the existing ones entirely (spec).
			Object.assign(searchRequest, fields, { updated_at: utcNow() });
			return ok(searchRequestView(searchRequest));
		}),
		route('GET', '/customers/{customerId}/follow-ups', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const reader = FieldReader.forQuery(request.query);
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const result = cursorPage(
				store.customerFollowUps(customer.customers_id),
				(followUp) => followUp.product_id,
				'asc',
				page,
			);
			return pageReply(request, result, (followUp) => followUp);
		}),
		route('POST', '/customers/{customerId}/follow-ups/{productId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const productId = idParam(request, 'productId');
			if (!store.products.getInSite(productId, request.grant.siteId)) throw notFound(`Product ${productId}`);
			if (store.followUp(customer.customers_id, productId)) {
				throw new ApiError(
					409,
					'FOLLOW_UP_EXISTS',
					`Customer ${customer.customers_id} already follows product ${productId}.`,
				);
			}
			const reader = new FieldReader(objectBody(request.body));
			const fields = readFollowUpFields(reader);
			reader.throwIfInvalid();
			const now = utcNow();
			const followUp: FollowUp = {
				customers_id: customer.customers_id,
				product_id: productId,
				rating: null,
				status: 'new',
				comment: null,
				created_at: now,
				updated_at: now,
				...fields,
			};
			store.putFollowUp(followUp);
			return created(followUp);
		}),
		route('PATCH', '/customers/{customerId}/follow-ups/{productId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const productId = idParam(request, 'productId');
			const followUp = store.followUp(customer.customers_id, productId);
			if (!followUp) throw notFound(`Follow-up of product ${productId}`);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readFollowUpFields(reader);
			reader.throwIfInvalid();
			Object.assign(followUp, fields, { updated_at: utcNow() });
			return ok(followUp);
		}),
		route('DELETE', '/customers/{customerId}/follow-ups/{productId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(request);
			const productId = idParam(request, 'productId');
			if (!store.deleteFollowUp(customer.customers_id, productId)) throw notFound(`Follow-up of product ${productId}`);
			return noContent();
		}),
	];
}
