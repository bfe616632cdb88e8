import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest, responseData } from '../../shared/transport';
import { requestOf } from '../catalogue/requests';

/** Label and value of a referential entry, whatever the referential calls them. */
function toOption(entry: IDataObject): INodePropertyOptions {
	const value = entry.id ?? entry.code ?? entry.key ?? entry.agency_id;
	const label = entry.label ?? entry.name ?? entry.key ?? value;
	return { name: String(label), value: value as string | number };
}

/** The records of a referential, named by its catalogue entry (`action:getTypes`). */
async function referential(context: ILoadOptionsFunctions, key: string): Promise<IDataObject[]> {
	const data = responseData(await apiRequest(context, requestOf(key)));
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

async function optionsOf(context: ILoadOptionsFunctions, key: string): Promise<INodePropertyOptions[]> {
	return (await referential(context, key)).map(toOption).sort((a, b) => a.name.localeCompare(b.name));
}

/** Dropdowns filled from the API's referentials (one request each, when the user opens them). */
export const loadOptions = {
	async getActionTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'action:getTypes');
	},
	async getCustomerGroups(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'customer:getGroups');
	},
	async getCustomerOrigins(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'customer:getOrigins');
	},
	async getEventTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'calendar:getEventTypes');
	},
	/** The same types by key: a user's availability names the types it ignores by key, the search by ID. */
	async getEventTypeKeys(this: ILoadOptionsFunctions) {
		const types = await referential(this, 'calendar:getEventTypes');
		return types
			.map((type) => ({ name: String(type.label ?? type.key), value: String(type.key) }))
			.sort((a, b) => a.name.localeCompare(b.name));
	},
	async getProductCriteria(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'criterion:getProductCriteria');
	},
	async getSearchRequestCriteria(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'criterion:getSearchRequestCriteria');
	},
	/** No endpoint lists categories: they are read off the product criteria (docs/assumptions.md). */
	async getCategories(this: ILoadOptionsFunctions) {
		const criteria = await referential(this, 'criterion:getProductCriteria');
		const ids = new Set(criteria.flatMap((criterion) => (criterion.category_ids ?? []) as number[]));
		return [...ids].sort((a, b) => a - b).map((id) => ({ name: `Category ${id}`, value: id }));
	},
	async getZones(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'criterion:getZones');
	},
	async getUserGroups(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'user:getGroups');
	},
	async getUserTypes(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'user:getTypes');
	},
	async getGenders(this: ILoadOptionsFunctions) {
		return await optionsOf(this, 'user:getGenders');
	},
};
