import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, collectPages, responseData } from '../../shared/transport';
import { requestOf } from '../catalogue/requests';
import type { Endpoint, PreparedRequest } from '../catalogue/types';
import { outputShaper } from './output';

/** First contact matching one filter (the search is ordered newest first). */
async function findOne(context: IExecuteFunctions, filter: IDataObject, itemIndex: number) {
	const [match] = await collectPages(context, requestOf('customer:getAll', { body: filter }, itemIndex), 'cursor', 1);
	return match as IDataObject | undefined;
}

/**
 * Reference use case 1, steps 1-2: search by email, then by phone; update the contact found with
 * the fields given, or create it. The output says which happened in `upsert`.
 */
export async function upsertCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { email, phone, mobile_phone: mobilePhone } = request.body;
	const filters = [email && { email }, phone && { phone }, mobilePhone && { phone: mobilePhone }].filter(
		Boolean,
	) as IDataObject[];
	const result = (record: unknown, upsert: 'created' | 'updated') => [
		{ json: { ...outputShaper(this, endpoint, request, itemIndex)(record as IDataObject), upsert } },
	];
	let existing: IDataObject | undefined;
	for (const filter of filters) {
		existing = await findOne(this, filter, itemIndex);
		if (existing) break;
	}
	if (!existing) {
		const created = await apiRequest(this, requestOf('customer:create', request, itemIndex));
		const duplicate = (created.body as { meta?: { duplicate?: boolean } }).meta?.duplicate === true;
		// The API's own duplicate check (any phone of the contact) may find one the search missed: it
		// then returns that contact unchanged, so the fields are applied below as for any match.
		if (!duplicate) return result(responseData(created), 'created');
		existing = responseData(created) as IDataObject;
	}
	// The agency is where a new contact is created; a contact found keeps its own.
	const changes = { ...request.body };
	delete changes.agency_id;
	const updated = await apiRequest(
		this,
		requestOf(
			'customer:update',
			{ pathParams: { customerId: existing.customers_id }, qs: request.qs, body: changes },
			itemIndex,
		),
	);
	return result(responseData(updated), 'updated');
}
