import type { IDataObject } from 'n8n-workflow';

import { endpointOf } from '../AgencyCrm/catalogue';
import { maxPageSizeOf } from '../AgencyCrm/catalogue/fields';
import { requestOf } from '../AgencyCrm/catalogue/requests';
import type { ApiRequest } from '../shared/transport';

/**
 * Every request the trigger sends, built from the catalogue's entries (one path, one resend
 * decision, one refusal guide per endpoint, as the action node's): its hook and the replay's
 * searches (the record a delivery names: decision.ts).
 */

export const hookRequests = {
	list: (): ApiRequest => requestOf('webhook:getAll'),
	create: (body: IDataObject): ApiRequest => requestOf('webhook:create', { body }),
	update: (hookId: number, body: IDataObject): ApiRequest =>
		requestOf('webhook:update', { pathParams: { hookId }, body }),
	remove: (hookId: number): ApiRequest => requestOf('webhook:delete', { pathParams: { hookId } }),
};

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
