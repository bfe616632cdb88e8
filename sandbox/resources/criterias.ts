/**
 * Criteria referentials (`/criterias/...`), each site's own, and the reading of criteria as production
 * takes them (docs/assumptions.md "Production evidence"): on writes `[{id, value}]`, `id` the site's
 * XML key or the numeric id, the value of a list criterion its `model` code; on product search and
 * search requests `[{id, operator, value}]`, the value as text. A criterion refused is answered in
 * production's criteria shape (`{"criteria.65": [{xml, message}]}`, http.ts).
 */
import { createHash } from 'node:crypto';
import { idParam, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { notFound, ok, Reply } from '../http';
import { CRITERION_OPERATORS } from '../model';
import type { CriterionDefinition, CriterionOperator, CriterionValue, SearchCriterion } from '../model';
import { FieldReader, isObject } from '../validation';

/** The definition named by a numeric id (a number or digits) or by its XML key. */
export function findCriterion(
	definitions: readonly CriterionDefinition[],
	reference: unknown,
): CriterionDefinition | undefined {
	if (typeof reference === 'number') return definitions.find((definition) => definition.id === reference);
	if (typeof reference !== 'string') return undefined;
	if (/^\d+$/.test(reference)) return definitions.find((definition) => definition.id === Number(reference));
	return definitions.find((definition) => definition.xml === reference);
}

const DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2})?([.]\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMBER = /^-?\d+([.,]\d+)?$/;

type Checked<T> = { value: T } | { problem: string };

const isList = (definition: CriterionDefinition) => definition.type === 'UNIQUE' || definition.type === 'MULTIPLE';

/**
 * One value of a list criterion: its `model` code. Production refuses a value's numeric id (the
 * value is "`Appartement`, never `1`") and any other text.
 */
function listCode(definition: CriterionDefinition, value: unknown): Checked<string> {
	if (typeof value === 'string' && definition.values.some((entry) => entry.model === value)) return { value };
	const byId = definition.values.find((entry) => String(entry.id) === String(value).trim());
	if (byId && (typeof value === 'number' || /^\d+$/.test(String(value))))
		return { problem: `${JSON.stringify(value)} is a value id; send the value's code (${byId.model}), not its id` };
	const codes = definition.values.map((entry) => entry.model).join(', ');
	return { problem: `${JSON.stringify(value)} is not a value of ${definition.xml}; its codes are ${codes}` };
}

/** A value written to a product, as its criterion's type takes it (a number may come as digits). */
function writtenValue(definition: CriterionDefinition, value: unknown): Checked<CriterionValue['value']> {
	const text = typeof value === 'string' ? value.trim() : undefined;
	switch (definition.type) {
		case 'NUMBER':
			if (typeof value === 'number' && Number.isFinite(value)) return { value };
			return text !== undefined && NUMBER.test(text)
				? { value: Number(text.replace(',', '.')) }
				: { problem: 'must be a number' };
		case 'FLAG':
			if (typeof value === 'boolean') return { value };
			if (value === 1 || value === 0 || text === '1' || text === '0') return { value: String(value) === '1' };
			if (text === 'true' || text === 'false') return { value: text === 'true' };
			return { problem: 'must be true or false (or 1 or 0)' };
		case 'TEXT':
			return typeof value === 'string' || typeof value === 'number'
				? { value: String(value) }
				: { problem: 'must be text' };
		case 'DATE': {
			const date = text === undefined ? undefined : DATE.exec(text)?.[1];
			return date && !Number.isNaN(Date.parse(date)) ? { value: date } : { problem: 'must be a date YYYY-MM-DD' };
		}
		case 'UNIQUE':
			return listCode(definition, value);
		case 'MULTIPLE': {
			const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
			const codes: string[] = [];
			for (const entry of entries) {
				const code = listCode(definition, typeof entry === 'string' ? entry.trim() : entry);
				if ('problem' in code) return code;
				codes.push(code.value);
			}
			return { value: codes };
		}
	}
}

/** The definition an item names, or why not; the key the problem is filed under. */
function namedCriterion(
	reader: FieldReader,
	definitions: readonly CriterionDefinition[],
	item: Record<string, unknown>,
): CriterionDefinition | undefined {
	const definition = findCriterion(definitions, item.id);
	const given = String(item.id ?? '');
	if (!definition) {
		reader.failCriterion(given, given, 'is not a criterion of this site');
		return undefined;
	}
	if (!definition.is_activated) {
		reader.failCriterion(definition.id, definition.xml, 'is not activated on this site');
		return undefined;
	}
	return definition;
}

/** The items of a criteria list, each an object; structural problems are the spec's details. */
function itemsOf(reader: FieldReader, key: string): Array<{ item: Record<string, unknown>; field: string }> {
	const items = reader.optionalArray(key) ?? [];
	return items.flatMap((item, index) => {
		const field = `${key}[${index}]`;
		if (isObject(item)) return [{ item, field }];
		reader.fail(field, 'must be an object with id and value');
		return [];
	});
}

/**
 * Reads a product's `[{id, value}]` against the site's product criteria: ids as given (XML key or
 * numeric id) become numeric ids, values are checked by type and stored as their criterion takes them.
 */
export function readProductCriteria(
	reader: FieldReader,
	key: string,
	definitions: readonly CriterionDefinition[],
): CriterionValue[] | undefined {
	if (!reader.has(key)) return undefined;
	const criteria: CriterionValue[] = [];
	for (const { item, field } of itemsOf(reader, key)) {
		if (!('value' in item)) {
			reader.fail(`${field}.value`, 'is required');
			continue;
		}
		const definition = namedCriterion(reader, definitions, item);
		if (!definition) continue;
		if (criteria.some((criterion) => criterion.id === definition.id)) {
			reader.failCriterion(definition.id, definition.xml, 'is given twice');
			continue;
		}
		const checked = writtenValue(definition, item.value);
		if ('problem' in checked) reader.failCriterion(definition.id, definition.xml, checked.problem);
		else criteria.push({ id: definition.id, value: checked.value });
	}
	return criteria;
}

/** `operator` of a search criterion: required, one of production's four. */
function readOperator(
	reader: FieldReader,
	item: Record<string, unknown>,
	field: string,
): CriterionOperator | undefined {
	const operator = item.operator;
	if (operator === undefined || operator === null) {
		reader.fail(`${field}.operator`, `is required: one of ${CRITERION_OPERATORS.join(', ')}`);
		return undefined;
	}
	if (!CRITERION_OPERATORS.includes(operator as CriterionOperator)) {
		reader.fail(`${field}.operator`, `must be one of ${CRITERION_OPERATORS.join(', ')}`);
		return undefined;
	}
	return operator as CriterionOperator;
}

/** A criterion to search by: its definition, its operator and its value as text. */
export interface CriterionFilter {
	definition: CriterionDefinition;
	operator: CriterionOperator;
	value: string;
}

/**
 * Whether a text value suits the criterion and operator: numbers for NUMBER and for "less" or "more"
 * on numbers, a date for DATE, a code for a list criterion (production refuses a value's id).
 */
function filterProblem(definition: CriterionDefinition, operator: CriterionOperator, text: string): string | undefined {
	if (operator === 'CONTIENT') return undefined;
	if (definition.type === 'NUMBER') return NUMBER.test(text) ? undefined : 'must be a number';
	if (definition.type === 'DATE') return DATE.test(text) ? undefined : 'must be a date YYYY-MM-DD';
	if (definition.type === 'FLAG') return /^(0|1|true|false)$/.test(text) ? undefined : 'must be 1 or 0';
	if (isList(definition) && definition.values.length) {
		// A MULTIPLE criterion is matched by any of several codes, comma-separated.
		const codes = definition.type === 'MULTIPLE' ? text.split(',').map((code) => code.trim()) : [text];
		return codes.map((code) => listCode(definition, code)).find((code) => 'problem' in code)?.problem;
	}
	return undefined;
}

/** A search value is text (production's search takes `"value": "<text>"`); numbers are taken too. */
function filterText(reader: FieldReader, item: Record<string, unknown>, field: string): string | undefined {
	const value = item.value;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	reader.fail(`${field}.value`, value === undefined ? 'is required' : 'must be text');
	return undefined;
}

/**
 * Reads `[{id, operator, value}]`: product search's `criterias`, against the product criteria; a
 * search request's `criteria`, against the search-request criteria, whose list values are the codes
 * of the product criterion of the same key (`valuesFrom`).
 */
export function readCriterionFilters(
	reader: FieldReader,
	key: string,
	definitions: readonly CriterionDefinition[],
	valuesFrom: readonly CriterionDefinition[] = definitions,
): CriterionFilter[] | undefined {
	if (!reader.has(key)) return undefined;
	const filters: CriterionFilter[] = [];
	for (const { item, field } of itemsOf(reader, key)) {
		const operator = readOperator(reader, item, field);
		const text = filterText(reader, item, field);
		const named = namedCriterion(reader, definitions, item);
		if (!operator || text === undefined || !named) continue;
		const definition = { ...named, values: findCriterion(valuesFrom, named.xml)?.values ?? named.values };
		const problem = filterProblem(definition, operator, text);
		if (problem) reader.failCriterion(named.id, named.xml, problem);
		else filters.push({ definition, operator, value: text });
	}
	return filters;
}

/** A search request's criteria as stored and shown: the XML key, the operator, the text. */
export function searchCriteriaOf(filters: CriterionFilter[]): SearchCriterion[] {
	return filters.map(({ definition, operator, value }) => ({ id: definition.xml, operator, value }));
}

const comparable = (value: unknown) => (typeof value === 'boolean' ? (value ? '1' : '0') : String(value));

/** Whether a product's value of the criterion passes the filter ("less" and "more" include the bound). */
export function passesFilter(stored: CriterionValue['value'] | undefined, filter: CriterionFilter): boolean {
	if (stored === undefined) return false;
	const values = Array.isArray(stored) ? stored : [stored];
	const wanted = filter.value;
	const numeric = filter.definition.type === 'NUMBER';
	const number = Number(wanted.replace(',', '.'));
	const anyOf = filter.definition.type === 'MULTIPLE' ? wanted.split(',').map((code) => code.trim().toLowerCase()) : [];
	return values.some((value) => {
		switch (filter.operator) {
			case 'EGAL':
				if (numeric) return Number(value) === number;
				if (filter.definition.type === 'FLAG') return comparable(value) === (/^(1|true)$/.test(wanted) ? '1' : '0');
				if (anyOf.length) return anyOf.includes(comparable(value).toLowerCase());
				return comparable(value).toLowerCase() === wanted.toLowerCase();
			case 'CONTIENT':
				return comparable(value).toLowerCase().includes(wanted.toLowerCase());
			case 'INFERIEUR':
				return numeric ? Number(value) <= number : comparable(value) <= wanted;
			case 'SUPERIEUR':
				return numeric ? Number(value) >= number : comparable(value) >= wanted;
		}
	});
}

/** A definition as listed; `values` only on the single-criterion and values endpoints, `fulltext` never. */
function definitionView({
	values: _values,
	fulltext: _fulltext,
	...definition
}: CriterionDefinition): Omit<CriterionDefinition, 'values' | 'fulltext'> {
	return definition;
}

export function criteriaRoutes({ store }: World): ApiRoute[] {
	const { categories, zones } = store.referentials;
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

	const productCriteria = (request: ApiRequest) => store.productCriteriaOf(request.grant.siteId);
	const pathCriterion = (request: ApiRequest) => {
		const definition = findCriterion(productCriteria(request), request.params.criteriaId);
		if (!definition) throw notFound(`Criterion ${request.params.criteriaId}`);
		return definition;
	};

	return [
		route('GET', '/criterias/product/all', {}, (request) => ok(productCriteria(request).map(definitionView))),
		route('GET', '/criterias/product/{criteriaId}', {}, (request) => {
			const { fulltext: _fulltext, ...definition } = pathCriterion(request);
			return ok(definition);
		}),
		// Served by production though absent from its reference: a list criterion's values (empty for the other types).
		route('GET', '/criterias/product/{criteriaId}/values', {}, (request) => ok(pathCriterion(request).values)),
		route('GET', '/criterias/search-requests', {}, (request) =>
			ok(store.searchRequestCriteriaOf(request.grant.siteId).map(definitionView)),
		),
		route('GET', '/criterias/zone-list', {}, zoneList),
		route('GET', '/criterias/categories/{categoryId}', {}, (request) => {
			const categoryId = idParam(request, 'categoryId');
			const category = categories.find((candidate) => candidate.id === categoryId);
			if (!category) throw notFound(`Category ${categoryId}`);
			return ok(
				productCriteria(request)
					.filter((definition) => definition.category_ids.includes(categoryId))
					.map(definitionView),
			);
		}),
	];
}
