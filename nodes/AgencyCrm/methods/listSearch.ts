import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { ApiRequest } from '../../shared/transport';
import { fetchPage } from '../../shared/transport';

const PAGE_SIZE = 50;

/** One page of a server-side search, turned into list entries; the cursor pages further. */
async function searchPage(
	context: ILoadOptionsFunctions,
	request: ApiRequest,
	paginationToken: string | undefined,
	toEntry: (record: IDataObject) => { name: string; value: string },
): Promise<INodeListSearchResult> {
	const params = { per_page: PAGE_SIZE, ...(paginationToken ? { cursor: paginationToken } : {}) };
	const { records, meta } = await fetchPage(context, { ...request, idempotent: true }, params);
	const next = meta.has_more && meta.next_cursor ? String(meta.next_cursor) : undefined;
	return { results: records.map(toEntry), paginationToken: next };
}

const text = (filter?: string) => (filter ? filter.trim() : undefined);

/** "From list" searches for resource locators: filtered by the API, never downloaded whole. */
export const listSearch = {
	async searchCustomers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			{ method: 'POST', path: '/customers/search', body: { query: text(filter) } },
			paginationToken,
			(customer) => ({
				name:
					[customer.firstname, customer.lastname].filter(Boolean).join(' ') +
					(customer.email ? ` <${String(customer.email)}>` : ''),
				value: String(customer.customers_id),
			}),
		);
	},
	async searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			{ method: 'POST', path: '/products/search', body: { query: text(filter) } },
			paginationToken,
			(product) => ({
				name: [product.reference, product.title].filter(Boolean).join(' - ') || String(product.product_id),
				value: String(product.product_id),
			}),
		);
	},
	async searchAgencies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			{ method: 'GET', path: '/agencies', qs: { search: text(filter) } },
			paginationToken,
			(agency) => ({
				name: String(agency.name ?? agency.agency_id),
				value: String(agency.agency_id),
			}),
		);
	},
	async searchUsers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			{ method: 'GET', path: '/users', qs: { search: text(filter) } },
			paginationToken,
			(user) => ({
				name:
					[user.firstname, user.lastname].filter(Boolean).join(' ') + (user.email ? ` <${String(user.email)}>` : ''),
				value: String(user.user_id),
			}),
		);
	},
};
