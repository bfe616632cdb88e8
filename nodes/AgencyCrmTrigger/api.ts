import type { IDataObject } from 'n8n-workflow';

import { endpointOf } from '../AgencyCrm/catalogue';
import { maxPageSizeOf } from '../AgencyCrm/catalogue/fields';
import { requestOf } from '../AgencyCrm/catalogue/requests';
import type { ApiRequest } from '../shared/transport';
import type { IdentifiedSubject } from './notification';

/**
 * Every request the trigger sends, built from the catalogue's entries (one path, one resend
 * decision, one refusal guide per endpoint, as the action node's): its hook, the record a delivery
 * names, and the catch-up's searches.
 */

export const hookRequests = {
	list: (): ApiRequest => requestOf('webhook:getAll'),
	create: (body: IDataObject): ApiRequest => requestOf('webhook:create', { body }),
	update: (hookId: number, body: IDataObject): ApiRequest =>
		requestOf('webhook:update', { pathParams: { hookId }, body }),
	remove: (hookId: number): ApiRequest => requestOf('webhook:delete', { pathParams: { hookId } }),
};

const relationsQuery = (parameter: string, relations: string[]) =>
	relations.length ? { [parameter]: relations.join(',') } : undefined;

/** The record a delivery names, with its related data (spec section 4: customers take `include`, products `fetch`). */
export function recordRequest({ resourceType, resourceId }: IdentifiedSubject, relations: string[]): ApiRequest {
	return resourceType === 'customer'
		? requestOf('customer:get', { pathParams: { customerId: resourceId }, qs: relationsQuery('include', relations) })
		: requestOf('product:get', { pathParams: { productId: resourceId }, qs: relationsQuery('fetch', relations) });
}

/** The properties changed since a time (production's `last_modified` filter), and the largest page the search serves. */
export function changedPropertiesRequest(lastModified: string) {
	return {
		request: requestOf('product:getAll', { body: { last_modified: lastModified } }),
		pageSize: maxPageSizeOf(endpointOf('product:getAll')).size,
	};
}

/** The contact search, newest first (spec section 4); `perPage` asks one page of that size. */
export function contactsRequest(perPage?: number): ApiRequest {
	const request = requestOf('customer:getAll');
	return perPage === undefined ? request : { ...request, body: { ...request.body, per_page: perPage } };
}
