/**
 * Products (property listings) as production models them (docs/assumptions.md "Production evidence"):
 * a listing is its agency, its reference (`model`), its owner and the site's criteria; price, type,
 * surface, rooms, status and town are criteria. Create, search (cursor or offset, by criteria,
 * reference and last change), read with production's `fetch` values, update, lots, views, the
 * DPE/GES label and picture uploads. Create/update are shared with the admin's simulated CRM edits
 * and the console, so that all emit the same webhook events.
 */
import { createdAt, includesOf, pathRecord, readAgencyFilter, requireAgencyInScope, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { renderEnergyLabel } from '../energy-label';
import { created, ErrorDetail, invalidField, ok, utcNow, validationError } from '../http';
import { MAX_IMAGE_BYTES, sniffImage } from '../images';
import type { CriterionDefinition, CriterionValue, Picture, Product } from '../model';
import { parseMultipart } from '../multipart';
import { offsetSlice, readSortCursor, sortedPage } from '../pagination';
import type { SortKey } from '../pagination';
import { CRITERION_KEYS, SHOWN_STATUS } from '../seed/referentials';
import type { Store } from '../store';
import { FieldReader, JsonObject, objectBody } from '../validation';
import { findCriterion, passesFilter, readCriterionFilters, readProductCriteria } from './criterias';
import { customerView } from './customers/records';

const READ_ACCESS = { pack: ['Properties', 'Websites'] } as const;
const WRITE_ACCESS = { pack: 'Properties' } as const;
const MIN_PICTURE_WIDTH = 800;

/** Criteria groups of the record, by what they hold (docs/assumptions.md "Production evidence"). */
const CRITERIA_GROUPS = ['criteres_text', 'criteres_number', 'criteres_fulltext', 'criteres_flag'] as const;
/** What a create or an update answers with: the listing and its criteria. */
export const WRITTEN_FETCH: ReadonlySet<string> = new Set(CRITERIA_GROUPS);
/** Production's `fetch` values; any other is `422` on `fetch`. */
export const FETCH_VALUES = [
	...CRITERIA_GROUPS,
	'assigned_to',
	'category',
	'products_photos',
	'descriptions',
	'publications',
	'customer',
	'compromis',
	'rooms',
	'statistic',
	'insee',
	'themes',
];
/** Product search pages: `count` records at most 100 (docs/assumptions.md "Production evidence"). */
const MAX_COUNT = 100;
const DEFAULT_COUNT = 20;
/** `last_modified` as production takes it, `+00:00`; a trailing `Z` is taken too (the evidence is one client). */
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

/** What a write may set: everything else of a listing is a criterion. */
export interface ProductChanges {
	agency_id?: number;
	model?: string;
	customers_id?: number | null;
	criteria?: CriterionValue[];
}

const PRODUCT_KEYS = ['agency_id', 'model', 'customers_id', 'criteria'];

/**
 * Reads the writable product fields of a site; any other key is refused, naming it: production keeps
 * a listing's price, type, surface, rooms, status and town as criteria. `agency_id` scope is the
 * caller's business.
 */
export function readProductChanges(
	reader: FieldReader,
	store: Store,
	siteId: number,
	alsoAllowed: readonly string[] = [],
): ProductChanges {
	reader.rejectUnknownKeys(
		[...PRODUCT_KEYS, ...alsoAllowed],
		'is not a product field: a listing is its agency_id, model (reference), customers_id (owner) and criteria; price, type, surface, rooms, status and town are criteria',
	);
	const changes: ProductChanges = {};
	const agencyId = reader.optionalInteger('agency_id');
	if (agencyId !== undefined && agencyId !== null) changes.agency_id = agencyId;
	const model = reader.optionalString('model', { minLength: 1, maxLength: 30 });
	if (model) changes.model = model;
	const owner = reader.optionalInteger('customers_id', { nullable: true });
	if (owner !== undefined && owner !== null && !store.customers.getInSite(owner, siteId))
		reader.fail('customers_id', `no contact ${owner} in this site`);
	else if (owner !== undefined) changes.customers_id = owner;
	const criteria = readProductCriteria(reader, 'criteria', store.productCriteriaOf(siteId));
	if (criteria) changes.criteria = criteria;
	return changes;
}

/** The value of a product's criterion named by its XML key (the product's site's). */
export function criterionValueOf(store: Store, product: Product, xml: string): CriterionValue['value'] | undefined {
	const definition = findCriterion(store.productCriteriaOf(product.site_id), xml);
	return definition && product.criteria.find((criterion) => criterion.id === definition.id)?.value;
}

/** A listing's price: its `Prix` criterion, as production shows it beside the criteria. */
export function priceOf(store: Store, product: Product): number | null {
	const price = criterionValueOf(store, product, CRITERION_KEYS.price);
	return typeof price === 'number' ? price : null;
}

function transactionCode(store: Store, product: Product): string | undefined {
	const code = criterionValueOf(store, product, CRITERION_KEYS.transactionType);
	return typeof code === 'string' ? code : undefined;
}

/** Whether the listing is a rental (its transaction type criterion says `Location`). */
export function isRental(store: Store, product: Product): boolean {
	return transactionCode(store, product) === 'Location';
}

/** How the CRM names a listing in lists: its type, rooms and town, else its reference. */
export function productTitle(store: Store, product: Product): string {
	const text = (xml: string) => {
		const value = criterionValueOf(store, product, xml);
		return value === undefined ? undefined : String(value);
	};
	const title = text(CRITERION_KEYS.title);
	if (title) return title;
	const typeCode = text(CRITERION_KEYS.propertyType);
	const typeLabel = findCriterion(store.productCriteriaOf(product.site_id), CRITERION_KEYS.propertyType)?.values.find(
		(value) => value.model === typeCode,
	)?.label;
	return [typeLabel, text(CRITERION_KEYS.city)].filter(Boolean).join(' - ') || product.model;
}

export function createProduct({ store, events }: World, siteId: number, changes: ProductChanges): Product {
	const now = utcNow();
	const productId = store.products.nextId();
	const product: Product = {
		product_id: productId,
		site_id: siteId,
		agency_id: store.agencyIdsOfSite(siteId)[0],
		model: '',
		customers_id: null,
		criteria: [],
		views: 0,
		created_at: now,
		last_modified: now,
		pictures: [],
		lots: [],
		...changes,
	};
	product.criteria = mergeCriteria([], product.criteria);
	if (!product.model) product.model = `${isRental(store, product) ? 'LO' : 'VA'}${productId}`;
	store.products.insert(product);
	events.publish(siteId, 'PRODUCT_CREATE', productId);
	return product;
}

/** Applies a partial update; sent criteria replace the product's values of the same criteria. */
export function updateProduct({ events }: World, product: Product, changes: ProductChanges): Product {
	const { criteria, ...fields } = changes;
	Object.assign(product, fields, { last_modified: utcNow() });
	if (criteria) product.criteria = mergeCriteria(product.criteria, criteria);
	events.publish(product.site_id, 'PRODUCT_UPDATE', product.product_id);
	return product;
}

/**
 * A listing deleted in the CRM's screens (the API has no delete endpoint): the API no longer finds
 * it, and PRODUCT_DELETE is sent (docs/assumptions.md, "Production evidence").
 */
export function deleteProduct({ store, events }: World, product: Product): void {
	store.products.delete(product.product_id);
	events.publish(product.site_id, 'PRODUCT_DELETE', product.product_id);
}

function mergeCriteria(current: CriterionValue[], sent: CriterionValue[]): CriterionValue[] {
	const byId = new Map(current.map((criterion) => [criterion.id, criterion]));
	for (const criterion of sent) byId.set(criterion.id, criterion);
	return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A date as production shows it: UTC with `+00:00`. */
export const offsetDate = (utc: string) => utc.replace(/Z$/, '+00:00');

/** The group of the record a criterion's value is shown in. */
function groupOf(definition: CriterionDefinition): (typeof CRITERIA_GROUPS)[number] {
	if (definition.type === 'NUMBER') return 'criteres_number';
	if (definition.type === 'FLAG') return 'criteres_flag';
	return definition.fulltext ? 'criteres_fulltext' : 'criteres_text';
}

/** The criteria of the groups asked for: `{critere_id, critere_name, critere_value}` items. */
function criteriaGroups(store: Store, product: Product, fetch: ReadonlySet<string>): JsonObject {
	const definitions = store.productCriteriaOf(product.site_id);
	const groups: Record<string, JsonObject[]> = {};
	for (const group of CRITERIA_GROUPS) if (fetch.has(group)) groups[group] = [];
	for (const { id, value } of product.criteria) {
		const definition = definitions.find((candidate) => candidate.id === id);
		if (definition)
			groups[groupOf(definition)]?.push({ critere_id: id, critere_name: definition.label, critere_value: value });
	}
	return groups;
}

/**
 * A listing as production returns it: `id`, `model` (the reference), `price`, the owner, the status
 * on the website, `+00:00` dates, and the related data asked for with `fetch`.
 */
export function productView(store: Store, product: Product, fetch: ReadonlySet<string> = new Set()): JsonObject {
	const view: JsonObject = {
		id: product.product_id,
		model: product.model,
		agency_id: product.agency_id,
		customers_id: product.customers_id,
		price: priceOf(store, product),
		status_web: criterionValueOf(store, product, CRITERION_KEYS.status) === SHOWN_STATUS ? 1 : 0,
		created_at: offsetDate(product.created_at),
		last_modified: offsetDate(product.last_modified),
		...criteriaGroups(store, product, fetch),
	};
	const owner = product.customers_id === null ? undefined : store.customers.get(product.customers_id);
	const typeCode = criterionValueOf(store, product, CRITERION_KEYS.propertyType);
	const category = store.referentials.categories.find((candidate) => candidate.property_type === typeCode);
	const description = criterionValueOf(store, product, CRITERION_KEYS.description);
	const related: Record<string, () => unknown> = {
		products_photos: () => product.pictures,
		assigned_to: () => null,
		category: () => (category ? { id: category.id, name: category.label } : null),
		descriptions: () => (description ? [{ lang: 'fr', text: description }] : []),
		customer: () => (owner ? customerView(store, owner) : null),
		statistic: () => ({ views: product.views }),
		insee: () => null,
	};
	for (const name of fetch) if (!(name in view)) view[name] = related[name]?.() ?? [];
	return view;
}

/** The `fetch` query parameter (comma-separated): production's values; any other is refused. */
function readFetch(request: ApiRequest): Set<string> {
	const values = includesOf(request, 'fetch');
	const unknown = [...values].filter((value) => !FETCH_VALUES.includes(value));
	if (unknown.length > 0)
		throw invalidField('fetch', `unknown value ${unknown.join(', ')}; available: ${FETCH_VALUES.join(', ')}`);
	return values;
}

/** `last_modified`, a date-time with its offset: the listings changed at or after it. */
function readModifiedSince(reader: FieldReader): string | undefined {
	const value = reader.optionalString('last_modified');
	if (value === undefined || value === null) return undefined;
	const time = Date.parse(value);
	if (OFFSET_DATE_TIME.test(value) && !Number.isNaN(time)) return new Date(time).toISOString().slice(0, 19) + 'Z';
	reader.fail('last_modified', 'must be a date-time YYYY-MM-DDTHH:MM:SS+00:00');
	return undefined;
}

function pictureProblems(data: Buffer): ErrorDetail[] {
	const details: ErrorDetail[] = [];
	if (data.length > MAX_IMAGE_BYTES)
		details.push({ field: 'file', message: `must be at most 20 MB (20,000,000 bytes; got ${data.length})` });
	const image = sniffImage(data);
	if (!image) details.push({ field: 'file', message: 'must be a PNG, JPEG, WebP or GIF image' });
	else if (image.width === undefined || image.width < MIN_PICTURE_WIDTH) {
		details.push({
			field: 'file',
			message: `must be at least ${MIN_PICTURE_WIDTH} px wide (got ${image.width ?? 'unknown'} px)`,
		});
	}
	return details;
}

/**
 * Adds a picture to the listing (an upload through the API or the console), after the checks of
 * docs/assumptions.md (an image, at most 20 MB, at least 800 px wide). Sends no webhook event.
 */
export function addPicture(
	store: Store,
	product: Product,
	data: Buffer,
	{ isPublic, title }: { isPublic: boolean; title: string | null },
): Picture {
	const problems = pictureProblems(data);
	if (problems.length > 0) throw validationError(problems, `file: ${problems[0].message}`);
	const image = sniffImage(data);
	const pictureId = store.nextPictureId();
	const picture: Picture = {
		picture_id: pictureId,
		url: `https://media.agency-crm.invalid/sites/${product.site_id}/products/${product.product_id}/${pictureId}.${image?.format === 'jpeg' ? 'jpg' : image?.format}`,
		width: image?.width ?? 0,
		height: image?.height ?? 0,
		size: data.length,
		is_public: isPublic,
		title,
	};
	product.pictures.push(picture);
	return picture;
}

export function productRoutes(world: World): ApiRoute[] {
	const { store } = world;
	const pathProduct = (request: ApiRequest) => pathRecord(request, store.products, 'productId', 'Product');

	function uploadPicture(isPublic: boolean) {
		return (request: ApiRequest) => {
			const product = pathProduct(request);
			const parts = parseMultipart(request.rawBody, request.contentType);
			const file = parts.find((part) => part.name === 'file');
			if (!file) throw invalidField('file', 'is required: send the image in the multipart part "file"');
			const title = parts.find((part) => part.name === 'title')?.data.toString('utf8') ?? null;
			return created(addPicture(store, product, file.data, { isPublic, title }));
		};
	}

	return [
		route('POST', '/products', WRITE_ACCESS, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			if (!reader.has('agency_id')) reader.fail('agency_id', 'is required');
			const changes = readProductChanges(reader, store, request.grant.siteId);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			const product = createProduct(world, request.grant.siteId, changes);
			return createdAt(request, `/products/${product.product_id}`, productView(store, product, WRITTEN_FETCH));
		}),
		route('POST', '/products/search', READ_ACCESS, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const siteId = request.grant.siteId;
			const agencyId = readAgencyFilter(reader, request);
			const model = reader.optionalString('model')?.toLowerCase();
			const since = readModifiedSince(reader);
			const filters = readCriterionFilters(reader, 'criterias', store.productCriteriaOf(siteId)) ?? [];
			const count = reader.optionalInteger('count', { min: 1, max: MAX_COUNT }) ?? DEFAULT_COUNT;
			const sortType = reader.optionalOneOf('sort_type', ['id', 'date'] as const) ?? 'id';
			const sortOrder = reader.optionalOneOf('sort_order', ['asc', 'desc'] as const) ?? 'asc';
			const offset = reader.optionalInteger('offset', { min: 0 });
			const after = readSortCursor(reader);
			if (typeof offset === 'number' && after !== undefined) reader.fail('offset', 'cannot be combined with cursor');
			const fetch = readFetch(request);
			reader.throwIfInvalid();
			const keep = (product: Product) =>
				(agencyId === undefined || product.agency_id === agencyId) &&
				(!model || product.model.toLowerCase().includes(model)) &&
				(!since || product.last_modified >= since) &&
				filters.every((filter) =>
					passesFilter(product.criteria.find((criterion) => criterion.id === filter.definition.id)?.value, filter),
				);
			const keyOf = (product: Product): SortKey =>
				sortType === 'date' ? [product.last_modified, product.product_id] : [product.product_id, product.product_id];
			const view = (product: Product) => productView(store, product, fetch);
			const siteProducts = store.products.forSite(siteId);
			if (typeof offset === 'number') {
				const matching = sortedPage(siteProducts, keyOf, sortOrder, { after: undefined, perPage: Infinity }, keep).data;
				const { data, hasMore } = offsetSlice(matching, offset, count);
				return ok(data.map(view), { offset, count, total: matching.length, has_more: hasMore });
			}
			const { data, meta } = sortedPage(siteProducts, keyOf, sortOrder, { after, perPage: count }, keep);
			const { per_page: _size, ...paging } = meta;
			// POST searches carry their cursor in the body: no `links.next` to follow.
			return { status: 200, body: { data: data.map(view), meta: { count, ...paging }, links: { next: null } } };
		}),
		route('GET', '/products/{productId}', READ_ACCESS, (request) =>
			ok(productView(store, pathProduct(request), readFetch(request))),
		),
		route('PATCH', '/products/{productId}', WRITE_ACCESS, (request) => {
			const product = pathProduct(request);
			const reader = new FieldReader(objectBody(request.body));
			const bodyProductId = reader.requiredInteger('product_id');
			if (reader.valid && bodyProductId !== product.product_id)
				reader.fail('product_id', `must equal the product id of the path (${product.product_id})`);
			const changes = readProductChanges(reader, store, product.site_id, ['product_id']);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			return ok(productView(store, updateProduct(world, product, changes), WRITTEN_FETCH));
		}),
		route('GET', '/products/{productId}/lots', READ_ACCESS, (request) => ok(pathProduct(request).lots)),
		route('POST', '/products/{productId}/views', READ_ACCESS, (request) => {
			const product = pathProduct(request);
			product.views++;
			return ok({ product_id: product.product_id, views: product.views });
		}),
		route('POST', '/products/{productId}/dpeGes', READ_ACCESS, (request) => {
			const product = pathProduct(request);
			const reader = new FieldReader(objectBody(request.body));
			reader.rejectUnknownKeys(['format', 'width', 'lang'], 'is not a rendering option (format, width, lang)');
			const format = reader.optionalOneOf('format', ['png', 'svg'] as const) ?? 'png';
			const width = reader.optionalInteger('width', { min: 100, max: 2000 }) ?? 400;
			const lang = reader.optionalOneOf('lang', ['fr', 'en'] as const) ?? 'fr';
			reader.throwIfInvalid();
			const valueOf = (xml: string) => criterionValueOf(store, product, xml);
			const { dpeLetter: dpeKey, dpeValue, gesLetter: gesKey, gesValue } = CRITERION_KEYS;
			const dpeLetter = valueOf(dpeKey);
			const gesLetter = valueOf(gesKey);
			if (typeof dpeLetter !== 'string' || typeof gesLetter !== 'string') {
				throw invalidField(
					'criteria',
					`product ${product.product_id} has no DPE and GES letters (criteria ${dpeKey} and ${gesKey})`,
				);
			}
			const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
			const label = renderEnergyLabel(
				{
					dpeLetter,
					dpeValue: numberOrNull(valueOf(dpeValue)),
					gesLetter,
					gesValue: numberOrNull(valueOf(gesValue)),
				},
				{ format, width, lang },
			);
			return { status: 200, bytes: label.bytes, contentType: label.contentType };
		}),
		route('POST', '/products/{productId}/pictures/public', WRITE_ACCESS, uploadPicture(true)),
		route('POST', '/products/{productId}/pictures/private', WRITE_ACCESS, uploadPicture(false)),
	];
}
