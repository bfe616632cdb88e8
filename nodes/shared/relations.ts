import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Related data the API loads with a record. Suggestions only: the spec says the customer list has
 * "further values (full list: not shown)" and gives no product list, so any other value is sent
 * as typed (docs/assumptions.md).
 */

/** `include` of `GET /customers/{id}`: the spec's nine values, then ours (docs/assumptions.md). */
export const CUSTOMER_INCLUDES = [
	'address',
	'groups',
	'color',
	'origin',
	'user',
	'gender',
	'stopSms',
	'notary',
	'relations',
	'consent',
	'search_requests',
	'mandates',
];

/** `fetch` of `GET /products/{id}` and product search (values: docs/assumptions.md). */
export const PRODUCT_FETCHES = ['agency', 'criteria', 'lots', 'pictures'];

/** As editor options, sorted by name as n8n's lint wants. */
export function relationOptions(values: string[]): INodePropertyOptions[] {
	return [...values].sort().map((value) => ({ name: value, value }));
}
