/** Criteria referentials (`/criterias/...`) and the reading of `{id, value}` criteria lists. */
import { createHash } from 'node:crypto';
import { idParam, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { notFound, ok, Reply } from '../http';
import type { CriterionDefinition, CriterionValue } from '../model';
import { FieldReader, isObject } from '../validation';

/** The definition named by an integer id or by its XML identifier (e.g. "price"). */
function findCriterion(
	definitions: readonly CriterionDefinition[],
	reference: unknown,
): CriterionDefinition | undefined {
	if (typeof reference === 'number') return definitions.find((definition) => definition.id === reference);
	if (typeof reference !== 'string') return undefined;
	if (/^\d+$/.test(reference)) return definitions.find((definition) => definition.id === Number(reference));
	return definitions.find((definition) => definition.xml_id === reference);
}

/**
 * Reads a `[{id, value}]` list against a referential. Ids may be XML identifiers; they are
 * stored as integer ids. Values are checked against the criterion type.
 */
export function readCriteria(
	reader: FieldReader,
	key: string,
	definitions: readonly CriterionDefinition[],
): CriterionValue[] | undefined {
	const items = reader.optionalArray(key);
	if (!items) return undefined;
	const criteria: CriterionValue[] = [];
	items.forEach((item, index) => {
		const field = `${key}[${index}]`;
		if (!isObject(item)) return reader.fail(field, 'must be an object with id and value');
		const definition = findCriterion(definitions, item.id);
		if (!definition) return reader.fail(`${field}.id`, `unknown criterion ${JSON.stringify(item.id ?? null)}`);
		if (!definition.is_activated)
			return reader.fail(`${field}.id`, `criterion ${definition.id} is not activated on this site`);
		if (criteria.some((criterion) => criterion.id === definition.id))
			return reader.fail(`${field}.id`, `criterion ${definition.id} is given twice`);
		const problem = valueProblem(definition, item.value);
		if (problem) return reader.fail(`${field}.value`, problem);
		criteria.push({ id: definition.id, value: item.value });
	});
	return criteria;
}

function valueProblem(definition: CriterionDefinition, value: unknown): string | undefined {
	const allowed = definition.values.map((entry) => entry.id);
	switch (definition.type) {
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be a boolean';
		case 'text':
			return typeof value === 'string' ? undefined : 'must be a string';
		case 'list':
			return allowed.includes(value as string) ? undefined : `must be one of: ${allowed.join(', ')}`;
		case 'multi_list':
			return Array.isArray(value) && value.every((entry) => allowed.includes(entry))
				? undefined
				: `must be an array of: ${allowed.join(', ')}`;
	}
}

/** A definition as listed; `values` only appear on the single-criterion endpoint. */
function definitionView({ values: _values, ...definition }: CriterionDefinition): Omit<CriterionDefinition, 'values'> {
	return definition;
}

export function criteriaRoutes({ store }: World): ApiRoute[] {
	const { productCriteria, searchRequestCriteria, categories, zones } = store.referentials;
	const zoneEtags = new Map<number, string>();

	function zoneList(request: ApiRequest): Reply {
		const siteZones = zones
			.filter((zone) => zone.site_id === request.grant.siteId)
			.map(({ site_id: _site, ...zone }) => zone);
		let etag = zoneEtags.get(request.grant.siteId);
		if (!etag) {
			etag = `"${createHash('sha1').update(JSON.stringify(siteZones)).digest('hex').slice(0, 16)}"`;
			zoneEtags.set(request.grant.siteId, etag);
		}
		const headers = { ETag: etag, 'Cache-Control': 'private, max-age=3600' };
		if (request.headers['if-none-match'] === etag) return { status: 304, headers };
		return { status: 200, body: { data: siteZones }, headers };
	}

	return [
		route('GET', '/criterias/product/all', {}, () => ok(productCriteria.map(definitionView))),
		route('GET', '/criterias/product/{criteriaId}', {}, (request) => {
			const definition = findCriterion(productCriteria, request.params.criteriaId);
			if (!definition) throw notFound(`Criterion ${request.params.criteriaId}`);
			return ok(definition);
		}),
		route('GET', '/criterias/search-requests', {}, () => ok(searchRequestCriteria)),
		route('GET', '/criterias/zone-list', {}, zoneList),
		route('GET', '/criterias/categories/{categoryId}', {}, (request) => {
			const categoryId = idParam(request, 'categoryId');
			const category = categories.find((candidate) => candidate.id === categoryId);
			if (!category) throw notFound(`Category ${categoryId}`);
			return ok(
				productCriteria.filter((definition) => definition.category_ids.includes(categoryId)).map(definitionView),
			);
		}),
	];
}
