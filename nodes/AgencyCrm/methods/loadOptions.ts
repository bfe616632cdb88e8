import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest, responseData } from '../../shared/transport';

/** Label and value of a referential entry, whatever the referential calls them. */
function toOption(entry: IDataObject): INodePropertyOptions {
	const value = entry.id ?? entry.code ?? entry.key ?? entry.agency_id;
	const label = entry.label ?? entry.name ?? entry.key ?? value;
	return { name: String(label), value: value as string | number };
}

async function referential(context: ILoadOptionsFunctions, path: string): Promise<IDataObject[]> {
	const data = responseData(await apiRequest(context, { method: 'GET', path, idempotent: true }));
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

async function optionsOf(context: ILoadOptionsFunctions, path: string): Promise<INodePropertyOptions[]> {
	return (await referential(context, path)).map(toOption).sort((a, b) => a.name.localeCompare(b.name));
}

/** Dropdowns filled from the API's referentials (one request each, when the user opens them). */
export const loadOptions = {
	async getActionTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/actions/types');
	},
	async getCustomerGroups(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/customers/groups');
	},
	async getCustomerOrigins(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/customers/origins');
	},
	async getEventTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/calendar/events/types');
	},
	async getProductCriteria(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/criterias/product/all');
	},
	async getSearchRequestCriteria(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/criterias/search-requests');
	},
	/** No endpoint lists categories: they are read off the product criteria (docs/assumptions.md). */
	async getCategories(this: ILoadOptionsFunctions) {
		const criteria = await referential(this, '/criterias/product/all');
		const ids = new Set(criteria.flatMap((criterion) => (criterion.category_ids ?? []) as number[]));
		return [...ids].sort((a, b) => a - b).map((id) => ({ name: `Category ${id}`, value: id }));
	},
	async getZones(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/criterias/zone-list');
	},
	async getUserGroups(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/users/groups');
	},
	async getUserTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/users/types');
	},
	async getGenders(this: ILoadOptionsFunctions) {
		return await optionsOf(this, '/users/genders');
	},
};
