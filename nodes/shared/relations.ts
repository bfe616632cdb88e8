import type { INodePropertyOptions } from 'n8n-workflow';

import { choices } from './choices';

/**
 * Related data the API loads with a record. Suggestions only: the spec says the customer list has
 * "further values (full list: not shown)" and gives no product list, so any other value is sent
 * as typed (docs/assumptions.md).
 */

/**
 * `include` of `GET /customers/{id}`: the spec's nine values, those production's lead router reads
 * (`agency`, `consent`, `searchRequests`, `rgpd`: docs/assumptions.md "Production evidence"), then ours.
 */
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
	'agency',
	'consent',
	'searchRequests',
	'rgpd',
	'mandates',
];

/** 0.1.0's contact `include` values production does not know, and its names for them. */
const INCLUDES_OF_0_1_0: Readonly<Record<string, string>> = { search_requests: 'searchRequests' };

/** Contact `include` values as production takes them: 0.1.0's `search_requests` as `searchRequests`, once each. */
export function productionIncludes(values: readonly string[]): string[] {
	return [...new Set(values.map((value) => INCLUDES_OF_0_1_0[value] ?? value))];
}

/**
 * `fetch` of `GET /products/{id}` and product search: production's values (docs/assumptions.md
 * "Production evidence"), by label. Criteria come in four groups by type; photos are `products_photos`.
 */
export const PRODUCT_FETCHES: INodePropertyOptions[] = choices({
	'Assigned Agent': 'assigned_to',
	Category: 'category',
	'Criteria: Full Text': ['criteres_fulltext', 'Long text criteria, e.g. the description'],
	'Criteria: Numbers': ['criteres_number', 'Price, surface, rooms…'],
	'Criteria: Text': ['criteres_text', 'Type, status, town and other list or text criteria'],
	'Criteria: Yes or No': ['criteres_flag', 'Lift, balcony, parking…'],
	Descriptions: 'descriptions',
	'INSEE Code': 'insee',
	Owner: ['customer', 'The contact who owns the property'],
	Photos: 'products_photos',
	Publications: ['publications', 'Where the listing is published'],
	Rooms: 'rooms',
	'Sale Agreement': 'compromis',
	Statistics: 'statistic',
	Themes: 'themes',
});

/**
 * 0.1.0's product `fetch` values, which production does not know, and the production values that give
 * the same: `criteria` is the four criteria groups, `pictures` the photos; `lots` and `agency` have
 * none (Property → Get Lots and Agency → Get read them).
 */
export const FETCHES_OF_0_1_0: Readonly<Record<string, string[]>> = {
	criteria: ['criteres_text', 'criteres_number', 'criteres_fulltext', 'criteres_flag'],
	pictures: ['products_photos'],
	lots: [],
	agency: [],
};

/** Product `fetch` values as production takes them: 0.1.0's replaced by theirs, the others as given, once each. */
export function productionFetches(values: readonly string[]): string[] {
	return [...new Set(values.flatMap((value) => FETCHES_OF_0_1_0[value] ?? [value]))];
}

/** As editor options, sorted by name as n8n's lint wants. */
export function relationOptions(values: string[]): INodePropertyOptions[] {
	return [...values].sort().map((value) => ({ name: value, value }));
}

/**
 * The contact `include` choices, with 0.1.0's `search_requests` still offered, so that the workflows
 * saved with it keep their choice, and said to be sent as production's name.
 */
export const CUSTOMER_INCLUDE_OPTIONS: INodePropertyOptions[] = [
	...relationOptions(CUSTOMER_INCLUDES),
	...Object.entries(INCLUDES_OF_0_1_0).map(([value, current]) => ({
		name: `${value} (sent as ${current})`,
		value,
		description: `0.1.0's name: Agency CRM reads ${current}`,
	})),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
