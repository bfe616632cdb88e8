/**
 * Follow-ups: one per (customer, product) pair; 409 when it already exists (spec section 3). The list
 * pages as production's does, by `page` and `per_page` up to `meta.last_page`; with a `cursor`, by
 * cursor, as the spec's other lists.
 */
import { API_BASE, idParam, pageReply, route } from '../../api';
import type { ApiRoute, World } from '../../api';
import { ApiError, created, noContent, notFound, ok, utcNow } from '../../http';
import { FOLLOW_UP_STATUSES } from '../../model';
import type { FollowUp } from '../../model';
import { cursorPage, numberedPage, readNumberedPage, readPageRequest } from '../../pagination';
import { FieldReader, objectBody } from '../../validation';
import { CUSTOMER_PACK, pathCustomer } from './access';

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

export function followUpRoutes({ store }: World): ApiRoute[] {
	return [
		route('GET', '/customers/{customerId}/follow-ups', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = FieldReader.forQuery(request.query);
			const followUps = store.customerFollowUps(customer.customers_id);
			if (request.query.has('cursor')) {
				const page = readPageRequest(reader);
				reader.throwIfInvalid();
				return pageReply(request, cursorPage(followUps, 'product_id', 'asc', page), (followUp) => followUp);
			}
			const asked = readNumberedPage(reader);
			reader.throwIfInvalid();
			const { data, meta } = numberedPage(followUps, asked);
			const query = new URLSearchParams(request.query);
			query.set('page', String(meta.current_page + 1));
			const next =
				meta.current_page < meta.last_page ? `${request.origin}${API_BASE}${request.path}?${query.toString()}` : null;
			return { status: 200, body: { data, meta, links: { next } } };
		}),
		route('POST', '/customers/{customerId}/follow-ups/{productId}', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
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
			const customer = pathCustomer(store, request);
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
			const customer = pathCustomer(store, request);
			const productId = idParam(request, 'productId');
			if (!store.deleteFollowUp(customer.customers_id, productId)) throw notFound(`Follow-up of product ${productId}`);
			return noContent();
		}),
	];
}
