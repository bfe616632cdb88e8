/** Search requests of a customer: created with criteria, updated partially (criteria replaced entirely). */
import { createdAt, idParam, route, withoutSite } from '../../api';
import type { ApiRoute, World } from '../../api';
import { notFound, ok, utcNow } from '../../http';
import type { Customer, SearchRequest } from '../../model';
import type { Store } from '../../store';
import { FieldReader, objectBody } from '../../validation';
import { readCriteria } from '../criterias';
import { CUSTOMER_PACK, pathCustomer } from './access';

export const searchRequestView: (request: SearchRequest) => Omit<SearchRequest, 'site_id'> = withoutSite;

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

/** Reads one search request of a lead or of the search-request endpoint; criteria are required. */
export function readNewSearchRequest(reader: FieldReader, store: Store): Partial<SearchRequest> {
	if (!reader.has('criteria')) reader.fail('criteria', 'is required');
	return readSearchRequestFields(reader, store);
}

/** Creates a search request from a body already checked by `readNewSearchRequest`. */
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

export function searchRequestRoutes({ store }: World): ApiRoute[] {
	return [
		route('POST', '/customers/{customerId}/search-requests', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = new FieldReader(objectBody(request.body));
			const fields = readNewSearchRequest(reader, store);
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
			const fields = readSearchRequestFields(reader, store);
			reader.throwIfInvalid();
			// Supplied criteria replace the existing ones entirely (spec).
			Object.assign(searchRequest, fields, { updated_at: utcNow() });
			return ok(searchRequestView(searchRequest));
		}),
	];
}
