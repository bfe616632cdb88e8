import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listRecords } from '../../shared/transport';
import type { SiteCriterion } from '../catalogue/criteria/site';
import { codeOf, isListCriterion, wireIdOf } from '../catalogue/criteria/site';
import type { RequestParts } from '../catalogue/requests';
import { requestOf } from '../catalogue/requests';

/** Label and value of a referential entry, whatever the referential calls them. */
function toOption(entry: IDataObject): INodePropertyOptions {
	const value = entry.id ?? entry.code ?? entry.key ?? entry.agency_id;
	const label = entry.label ?? entry.name ?? entry.key ?? value;
	return { name: String(label), value: value as string | number };
}

/** The records of a referential, named by its catalogue entry (`action:getTypes`). */
async function referential(context: ILoadOptionsFunctions, key: string, parts?: RequestParts): Promise<IDataObject[]> {
	return await listRecords(context, requestOf(key, parts));
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

async function optionsOf(context: ILoadOptionsFunctions, key: string): Promise<INodePropertyOptions[]> {
	return (await referential(context, key)).map(toOption).sort(byName);
}

/** A criterion by its label, with its type and whether it is active; the XML key (else the ID) is its value. */
function criterionOption(criterion: SiteCriterion): INodePropertyOptions {
	const type = String(criterion.type ?? '').toLowerCase();
	const state = [type, criterion.is_activated === false ? 'inactive' : ''].filter(Boolean).join(', ');
	return {
		name: `${String(criterion.label ?? criterion.xml ?? criterion.id)}${state ? ` (${state})` : ''}`,
		value: wireIdOf(criterion),
		description: `XML key ${String(criterion.xml ?? '—')}, ID ${String(criterion.id)}`,
	};
}

/** The first choice of Value From List: a row whose criterion is no list, or whose value is typed, chooses none. */
const NO_LIST_VALUE: INodePropertyOptions = {
	name: '(None: Use the Value Above)',
	value: '',
	description: 'For a number, a date, yes/no, text, or a value typed as its code or label',
};

/**
 * The values of the list criterion chosen in the same row (`&id`, the row's Criterion), by label,
 * their code as the value, after the choice of none: a search-request criterion's are those of the
 * property criterion of the same key. Only that choice for a criterion without values, or one given
 * by an expression.
 */
async function rowValues(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const chosen = context.getCurrentNodeParameter('&id');
	if (typeof chosen !== 'string' && typeof chosen !== 'number') return [NO_LIST_VALUE];
	if (String(chosen) === '' || String(chosen).startsWith('=')) return [NO_LIST_VALUE];
	const criteria = await referential(context, 'criterion:getProductCriteria');
	const criterion = criteria.find(
		(candidate) => String(wireIdOf(candidate)) === String(chosen) || String(candidate.id) === String(chosen),
	);
	if (!criterion || (criterion.type !== undefined && !isListCriterion(criterion))) return [NO_LIST_VALUE];
	const values = await referential(context, 'criterion:getProductCriterionValues', {
		pathParams: { criteriaId: criterion.id },
	});
	const options = values.map((value) => {
		const code = codeOf(value);
		return { name: String(value.label ?? code), value: code, description: `Code ${code}` };
	});
	return [NO_LIST_VALUE, ...options.sort(byName)];
}

/**
 * The dropdowns that list a referential as the API gives it, by the catalogue entry that reads it
 * (`getProductCriterionIds`: the product criteria by their numeric ID, what the criterion endpoints' paths take).
 */
const REFERENTIAL_LISTS: Record<string, string> = {
	getActionTypes: 'action:getTypes',
	getCustomerGroups: 'customer:getGroups',
	getCustomerOrigins: 'customer:getOrigins',
	getEventTypes: 'calendar:getEventTypes',
	getProductCriterionIds: 'criterion:getProductCriteria',
	getZones: 'criterion:getZones',
	getUserGroups: 'user:getGroups',
	getUserTypes: 'user:getTypes',
	getGenders: 'user:getGenders',
};

/** Dropdowns filled from the API's referentials (one request each, when the user opens them). */
export const loadOptions = {
	...Object.fromEntries(
		Object.entries(REFERENTIAL_LISTS).map(([method, key]) => [
			method,
			async function (this: ILoadOptionsFunctions) {
				return await optionsOf(this, key);
			},
		]),
	),
	/** The event types by key: a user's availability names the types it ignores by key, the search by ID. */
	async getEventTypeKeys(this: ILoadOptionsFunctions) {
		const types = await referential(this, 'calendar:getEventTypes');
		return types.map((type) => ({ name: String(type.label ?? type.key), value: String(type.key) })).sort(byName);
	},
	async getProductCriteria(this: ILoadOptionsFunctions) {
		return (await referential(this, 'criterion:getProductCriteria')).map(criterionOption).sort(byName);
	},
	async getSearchRequestCriteria(this: ILoadOptionsFunctions) {
		return (await referential(this, 'criterion:getSearchRequestCriteria')).map(criterionOption).sort(byName);
	},
	async getCriterionValues(this: ILoadOptionsFunctions) {
		return await rowValues(this);
	},
	/** No endpoint lists categories: they are read off the product criteria (docs/assumptions.md). */
	async getCategories(this: ILoadOptionsFunctions) {
		const criteria = await referential(this, 'criterion:getProductCriteria');
		const ids = new Set(criteria.flatMap((criterion) => (criterion.category_ids ?? []) as number[]));
		return [...ids].sort((a, b) => a - b).map((id) => ({ name: `Category ${id}`, value: id }));
	},
};
