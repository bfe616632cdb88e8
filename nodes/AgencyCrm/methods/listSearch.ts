import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { fetchPage } from '../../shared/transport';
import type { RequestParts } from '../catalogue/requests';
import { requestOf } from '../catalogue/requests';

const PAGE_SIZE = 50;

/** One page of a server-side search (a catalogue entry, `customer:getAll`), turned into list entries; the cursor pages further. */
async function searchPage(
	context: ILoadOptionsFunctions,
	key: string,
	parts: RequestParts,
	paginationToken: string | undefined,
	toEntry: (record: IDataObject) => { name: string; value: string },
): Promise<INodeListSearchResult> {
	const position = { size: PAGE_SIZE, cursor: paginationToken || undefined };
	const { records, meta } = await fetchPage(context, requestOf(key, parts), position);
	const next = meta.has_more !== false && meta.next_cursor ? String(meta.next_cursor) : undefined;
	return { results: records.map(toEntry), paginationToken: next };
}

const text = (filter?: string) => (filter ? filter.trim() : undefined);

/** "From list" searches for resource locators: filtered by the API, never downloaded whole. */
export const listSearch = {
	async searchCustomers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(
			this,
			'customer:getAll',
			{ body: { query: text(filter) } },
			paginationToken,
			(customer) => ({
				name:
					[customer.firstname, customer.lastname].filter(Boolean).join(' ') +
					(customer.email ? ` <${String(customer.email)}>` : ''),
				value: String(customer.customers_id),
			}),
		);
	},
	/** By reference (production's `model`); each named by its reference, its first text criteria and its price. */
	async searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const parts = { body: { model: text(filter) }, qs: { fetch: 'criteres_text' } };
		return await searchPage(this, 'product:getAll', parts, paginationToken, (product) => {
			const texts = Array.isArray(product.criteres_text) ? (product.criteres_text as IDataObject[]) : [];
			const described = texts.slice(0, 3).map((criterion) => String(criterion.critere_value ?? ''));
			return {
				name:
					[product.model, described.filter(Boolean).join(', '), product.price].filter(Boolean).join(' - ') ||
					String(product.id),
				value: String(product.id),
			};
		});
	},
	async searchAgencies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(this, 'agency:getAll', { qs: { search: text(filter) } }, paginationToken, (agency) => ({
			name: String(agency.name ?? agency.agency_id),
			value: String(agency.agency_id),
		}));
	},
	async searchUsers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		return await searchPage(this, 'user:getAll', { qs: { search: text(filter) } }, paginationToken, (user) => ({
			name: [user.firstname, user.lastname].filter(Boolean).join(' ') + (user.email ? ` <${String(user.email)}>` : ''),
			value: String(user.user_id),
		}));
	},
};
