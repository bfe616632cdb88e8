/**
 * Search requests of a customer, in production's body (docs/assumptions.md "Production evidence"):
 * `wording`, `alertEmail`, `comment` and criteria `[{id: <the site's XML key>, operator, value: "<text>"}]`;
 * created, updated partially (criteria replaced entirely). The old form (`title`, criteria without
 * an operator) is refused naming the field, as production would not read it.
 */
import { createdAt, idParam, route } from '../../api';
import type { ApiRoute, World } from '../../api';
import { notFound, ok, utcNow } from '../../http';
import type { Customer, SearchRequest } from '../../model';
import type { Store } from '../../store';
import { FieldReader, JsonObject, objectBody } from '../../validation';
import { readCriterionFilters, searchCriteriaOf } from '../criterias';
import { CUSTOMER_PACK, pathCustomer } from './access';

/** A search request as shown: `id` for its identifier, the internal `site_id` removed. */
export function searchRequestView({ site_id: _site, search_request_id, ...searchRequest }: SearchRequest): JsonObject {
	return { id: search_request_id, ...searchRequest };
}

function readSearchRequestFields(reader: FieldReader, store: Store, siteId: number): Partial<SearchRequest> {
	const fields: Partial<SearchRequest> = {};
	if (reader.has('title')) reader.fail('title', 'is not a search request field: its title is "wording"');
	const wording = reader.optionalString('wording', { nullable: true, maxLength: 200 });
	if (wording !== undefined) fields.wording = wording;
	// `alertEmail` arrives as `alert_email` (deprecated camelCase keys, sandbox/aliases.ts).
	const alertEmail = reader.optionalBoolean('alert_email');
	if (alertEmail !== undefined && alertEmail !== null) fields.alert_email = alertEmail;
	const comment = reader.optionalString('comment', { nullable: true, maxLength: 5000 });
	if (comment !== undefined) fields.comment = comment;
	const isActive = reader.optionalBoolean('is_active');
	if (isActive !== undefined && isActive !== null) fields.is_active = isActive;
	const filters = readCriterionFilters(
		reader,
		'criteria',
		store.searchRequestCriteriaOf(siteId),
		store.productCriteriaOf(siteId),
	);
	if (filters) fields.criteria = searchCriteriaOf(filters);
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
		?.filter((id) => !store.referentials.zones.some((zone) => zone.id === id && zone.site_id === siteId))
		.forEach((id) => reader.fail('areas', `unknown zone ${id}`));
	if (areas) fields.areas = areas;
	return fields;
}

/** Reads one search request of a lead or of the search-request endpoint; criteria are required. */
export function readNewSearchRequest(reader: FieldReader, store: Store, siteId: number): Partial<SearchRequest> {
	if (!reader.has('criteria')) reader.fail('criteria', 'is required');
	return readSearchRequestFields(reader, store, siteId);
}

/** Creates a search request from a body already checked by `readNewSearchRequest`. */
export function addSearchRequest(store: Store, customer: Customer, fields: Partial<SearchRequest>): SearchRequest {
	const now = utcNow();
	return store.addSearchRequest({
		search_request_id: store.searchRequests.nextId(),
		site_id: customer.site_id,
		customers_id: customer.customers_id,
		wording: null,
		alert_email: false,
		comment: null,
		is_active: true,
		criteria: [],
		key_points: { pros: [], cons: [] },
		areas: [],
		created_at: now,
		updated_at: now,
		...fields,
	});
}

export function searchRequestRoutes({ store }: World): ApiRoute[] {
	return [
		route('POST', '/customers/{customerId}/search-requests', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readNewSearchRequest(reader, store, customer.site_id);
			reader.throwIfInvalid();
			const searchRequest = addSearchRequest(store, customer, fields);
			const path = `/customers/${customer.customers_id}/search-requests/${searchRequest.search_request_id}`;
			return createdAt(request, path, searchRequestView(searchRequest));
		}),
		route('PATCH', '/customers/{customerId}/search-requests/{searchRequestId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const searchRequestId = idParam(request, 'searchRequestId');
			const searchRequest = store.searchRequests.get(searchRequestId);
			if (!searchRequest || searchRequest.customers_id !== customer.customers_id)
				throw notFound(`Search request ${searchRequestId}`);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readSearchRequestFields(reader, store, customer.site_id);
			reader.throwIfInvalid();
			// Supplied criteria replace the existing ones entirely (spec).
			Object.assign(searchRequest, fields, { updated_at: utcNow() });
			return ok(searchRequestView(searchRequest));
		}),
	];
}
