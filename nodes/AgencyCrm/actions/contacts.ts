import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, fetchPage } from '../../shared/transport';
import { endpointOf } from '../catalogue';
import { emailOf, phoneOf, phonesOf } from '../catalogue/contacts';
import { requestFor, requestOf } from '../catalogue/requests';
import type { Endpoint, PreparedRequest } from '../catalogue/types';
import { outputShaper } from './output';
import type { ItemRun } from './itemRun';
import { writtenRecords } from './writtenRecord';

/**
 * Customer Create and Create or Update (reference use case 1). The API answers a create whose email
 * or phone it already knows with the existing contact (spec section 4 "Customers": "a found duplicate
 * leads to the existing customer being used"), and shows no flag that says so: the node tells it by
 * comparing what came back with what was sent (`existedBefore`). Both operations say what happened
 * under `outcome`.
 */

/** The output key that says what happened to the contact. */
export const OUTCOME = 'outcome';

/** Contacts looked at per search: the first whose email or phone is the one searched is the match. */
const SEARCH_PAGE_SIZE = 10;

type Filter = { email: unknown } | { phone: unknown };

/** The searches of reference use case 1, step 1: by email, then by each phone. */
function searchFilters(body: IDataObject): Filter[] {
	const filters: Filter[] = [];
	if (emailOf(body.email)) filters.push({ email: body.email });
	for (const phone of [body.phone, body.mobile_phone]) if (phoneOf(phone)) filters.push({ phone });
	return filters;
}

/** Whether a contact the search returned is the one searched: its email, or one of its phones, is the value given. */
function isSearched(record: IDataObject, filter: Filter): boolean {
	if ('email' in filter) return emailOf(record.email) === emailOf(filter.email);
	return phonesOf(record).includes(phoneOf(filter.phone) as string);
}

/** A value sent that comes back otherwise: emails compare case-insensitively, phones by digits, other values as text. */
function differs(key: string, sent: unknown, stored: unknown): boolean {
	if (typeof sent === 'object' && sent !== null) return false;
	if (key === 'email') return emailOf(sent) !== emailOf(stored);
	if (key === 'phone' || key === 'mobile_phone') return phoneOf(sent) !== phoneOf(stored);
	return String(sent).trim() !== String(stored ?? '').trim();
}

/**
 * Whether the contact a create answered with existed before it: a field sent comes back with another
 * value. Lists and objects (phones, address, groups) are left out: the API may merge them. When every
 * field sent comes back as sent, the contact holds the item's fields either way, so nothing can be
 * lost by taking it for new; an API that rewrites a value it stores (a name in capitals) only costs
 * an update that writes the same values again.
 */
export function existedBefore(sent: IDataObject, record: IDataObject): boolean {
	return Object.entries(sent).some(([key, value]) => key in record && differs(key, value, record[key]));
}

/** The contact's id, which an update needs: a record without one cannot be the contact meant. */
function contactId(context: IExecuteFunctions, record: IDataObject, item: ItemRun): string | number {
	const id = record.customers_id;
	if (typeof id === 'number' || (typeof id === 'string' && id !== '')) return id;
	throw new NodeOperationError(
		context.getNode(),
		`The contact the API returned has no customers_id, so the node cannot update it (keys found: ${Object.keys(record).join(', ') || 'none'})`,
		{ itemIndex: item.index },
	);
}

/**
 * The contact searched for, by email then by each phone: the first record of a search whose email
 * or phone is the value searched. Other records (an API whose filter is named or matches otherwise)
 * are never taken for it; the execution gets a hint that the search returned them.
 */
async function findContact(context: IExecuteFunctions, body: IDataObject, item: ItemRun) {
	let strayRecords = false;
	for (const filter of searchFilters(body)) {
		const search = requestOf('customer:getAll', { body: filter as IDataObject }, item.index);
		const { records } = await fetchPage(context, search, { size: SEARCH_PAGE_SIZE });
		const match = records.find((record) => isSearched(record, filter));
		if (match) return match;
		strayRecords ||= records.length > 0;
	}
	if (strayRecords) {
		item.notices.push(
			'The contact search returned contacts whose email and phones are not those searched: they were left alone. The API may not filter the search as the node expects',
		);
	}
	return undefined;
}

/** Creates the contact; answers the record and whether the API gave an existing contact instead. */
async function createContact(context: IExecuteFunctions, request: PreparedRequest, item: ItemRun) {
	const create = endpointOf('customer:create');
	const response = await apiRequest(context, requestFor(create, request, item.index));
	const [record] = await writtenRecords(context, create, request, response, item);
	return { record, existed: existedBefore(request.body, record) };
}

/** Applies the item's fields to a contact; the agency is where a new contact is created, a contact found keeps its own. */
async function updateContact(context: IExecuteFunctions, request: PreparedRequest, id: string | number, item: ItemRun) {
	const update = endpointOf('customer:update');
	const changes = { ...request.body };
	delete changes.agency_id;
	delete changes.check_duplicate;
	const prepared: PreparedRequest = { ...request, pathParams: { customerId: id }, body: changes };
	const response = await apiRequest(context, requestFor(update, prepared, item.index));
	return (await writtenRecords(context, update, prepared, response, item))[0];
}

function outputOf(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
	record: IDataObject,
	outcome: 'created' | 'existing' | 'updated',
): INodeExecutionData[] {
	return [{ json: { ...outputShaper(context, endpoint, request, item)(record), [OUTCOME]: outcome } }];
}

/**
 * Customer Create: the contact the API answers with, and whether it is new (`created`) or one the API
 * already had (`existing`, returned unchanged: the item's fields were not applied, and the execution
 * gets a hint saying so).
 */
export async function createCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const { record, existed } = await createContact(this, request, item);
	if (existed) {
		item.notices.push(
			'The API answered the create with a contact it already had (same email or phone), unchanged: this item\'s fields were not applied. "Create or Update" applies them',
		);
	}
	return outputOf(this, endpoint, request, item, record, existed ? 'existing' : 'created');
}

/**
 * Reference use case 1, steps 1-2: search by email, then by phone; update the contact found with
 * the fields given, or create it. A create the API answers with an existing contact (one the search
 * missed) gets the fields with an update too. `outcome` says `created` or `updated`.
 */
export async function upsertCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const output = (record: IDataObject, outcome: 'created' | 'updated') =>
		outputOf(this, endpoint, request, item, record, outcome);
	const update = async (contact: IDataObject) =>
		output(await updateContact(this, request, contactId(this, contact, item), item), 'updated');
	const found = await findContact(this, request.body, item);
	if (found) return await update(found);
	const { record, existed } = await createContact(this, request, item);
	return existed ? await update(record) : output(record, 'created');
}
