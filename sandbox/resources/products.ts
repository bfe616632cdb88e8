/**
 * Products (property listings): create, search (cursor or offset), read with `fetch`, update,
 * lots, views, the DPE/GES label and picture uploads. Create/update are shared with the admin's
 * simulated CRM edits so that both emit the same webhook events.
 */
import { createdAt, includesOf, pageReply, pathRecord, readAgencyFilter, requireAgencyInScope, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { renderEnergyLabel } from '../energy-label';
import { created, ErrorDetail, invalidField, ok, utcNow, validationError } from '../http';
import { MAX_IMAGE_BYTES, sniffImage } from '../images';
import { PRODUCT_STATUSES, PROPERTY_TYPES, TRANSACTION_TYPES } from '../model';
import type { CriterionValue, Picture, Product } from '../model';
import { parseMultipart } from '../multipart';
import { cursorPage, offsetSlice, readPageRequest } from '../pagination';
import {
	DPE_LETTER_CRITERION,
	DPE_VALUE_CRITERION,
	GES_LETTER_CRITERION,
	GES_VALUE_CRITERION,
} from '../seed/referentials';
import type { Store } from '../store';
import { FieldReader, JsonObject, objectBody } from '../validation';
import { readCriteria } from './criterias';
import { agencyView } from './discovery';

const READ_ACCESS = { pack: ['Properties', 'Websites'] } as const;
const WRITE_ACCESS = { pack: 'Properties' } as const;
const FETCH_VALUES = ['criteria', 'pictures', 'lots', 'agency'];
const MIN_PICTURE_WIDTH = 800;

export type ProductChanges = Partial<
	Pick<
		Product,
		| 'agency_id'
		| 'reference'
		| 'title'
		| 'transaction_type'
		| 'property_type'
		| 'price'
		| 'surface'
		| 'rooms'
		| 'city'
		| 'postal_code'
		| 'status'
		| 'criteria'
	>
>;

/** Reads the writable product fields; `agency_id` scope is the caller's business. */
export function readProductChanges(reader: FieldReader, store: Store): ProductChanges {
	const changes: ProductChanges = {};
	const agencyId = reader.optionalInteger('agency_id');
	if (agencyId !== undefined && agencyId !== null) changes.agency_id = agencyId;
	for (const [key, maxLength] of [
		['reference', 30],
		['title', 200],
	] as const) {
		const value = reader.optionalString(key, { minLength: 1, maxLength });
		if (value) changes[key] = value;
	}
	const transactionType = reader.optionalOneOf('transaction_type', TRANSACTION_TYPES);
	if (transactionType) changes.transaction_type = transactionType;
	const propertyType = reader.optionalOneOf('property_type', PROPERTY_TYPES);
	if (propertyType) changes.property_type = propertyType;
	const status = reader.optionalOneOf('status', PRODUCT_STATUSES);
	if (status) changes.status = status;
	for (const key of ['price', 'surface'] as const) {
		const value = reader.optionalNumber(key, { nullable: true, min: 0 });
		if (value !== undefined) changes[key] = value;
	}
	const rooms = reader.optionalInteger('rooms', { nullable: true, min: 0 });
	if (rooms !== undefined) changes.rooms = rooms;
	for (const key of ['city', 'postal_code'] as const) {
		const value = reader.optionalString(key, { nullable: true, maxLength: 100 });
		if (value !== undefined) changes[key] = value;
	}
	const criteria = readCriteria(reader, 'criteria', store.referentials.productCriteria);
	if (criteria) changes.criteria = criteria;
	return changes;
}

function requireNewProductFields(reader: FieldReader): void {
	for (const key of ['agency_id', 'transaction_type', 'property_type'])
		if (!reader.has(key)) reader.fail(key, 'is required');
}

export function createProduct({ store, events }: World, siteId: number, changes: ProductChanges): Product {
	const now = utcNow();
	const productId = store.products.nextId();
	const transactionType = changes.transaction_type ?? 'sale';
	const propertyType = changes.property_type ?? 'apartment';
	const product: Product = {
		product_id: productId,
		site_id: siteId,
		agency_id: store.agencyIdsOfSite(siteId)[0],
		reference: `${transactionType === 'sale' ? 'VA' : 'LO'}${productId}`,
		title: [propertyType, changes.city].filter(Boolean).join(' - '),
		transaction_type: transactionType,
		property_type: propertyType,
		price: null,
		surface: null,
		rooms: null,
		city: null,
		postal_code: null,
		status: 'active',
		criteria: [],
		views: 0,
		created_at: now,
		updated_at: now,
		pictures: [],
		lots: [],
		...changes,
	};
	store.products.insert(product);
	events.publish(siteId, 'PRODUCT_CREATE', productId);
	return product;
}

/** Applies a partial update; sent criteria replace the product's values of the same ids. */
export function updateProduct({ events }: World, product: Product, changes: ProductChanges): Product {
	const { criteria, ...fields } = changes;
	Object.assign(product, fields, { updated_at: utcNow() });
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

export function productView(store: Store, product: Product, fetch: ReadonlySet<string> = new Set()): JsonObject {
	const view: JsonObject = {
		product_id: product.product_id,
		agency_id: product.agency_id,
		reference: product.reference,
		title: product.title,
		transaction_type: product.transaction_type,
		property_type: product.property_type,
		price: product.price,
		surface: product.surface,
		rooms: product.rooms,
		city: product.city,
		postal_code: product.postal_code,
		status: product.status,
		views: product.views,
		created_at: product.created_at,
		updated_at: product.updated_at,
	};
	if (fetch.has('criteria')) view.criteria = product.criteria;
	if (fetch.has('pictures')) view.pictures = product.pictures;
	if (fetch.has('lots')) view.lots = product.lots;
	if (fetch.has('agency')) {
		const agency = store.agencies.get(product.agency_id);
		view.agency = agency ? agencyView(agency) : null;
	}
	return view;
}

/** The `fetch` query parameter (comma-separated), restricted to the values of docs/assumptions.md. */
function readFetch(request: ApiRequest): Set<string> {
	const values = includesOf(request, 'fetch');
	const unknown = [...values].filter((value) => !FETCH_VALUES.includes(value));
	if (unknown.length > 0)
		throw invalidField('fetch', `unknown value ${unknown.join(', ')}; available: ${FETCH_VALUES.join(', ')}`);
	return values;
}

function criterionMatches(productValue: unknown, wanted: unknown): boolean {
	if (Array.isArray(productValue))
		return Array.isArray(wanted) ? wanted.some((value) => productValue.includes(value)) : productValue.includes(wanted);
	return productValue === wanted;
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
			requireNewProductFields(reader);
			const changes = readProductChanges(reader, store);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			const product = createProduct(world, request.grant.siteId, changes);
			return createdAt(request, `/products/${product.product_id}`, productView(store, product, new Set(['criteria'])));
		}),
		route('POST', '/products/search', READ_ACCESS, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const agencyId = readAgencyFilter(reader, request);
			const status = reader.optionalOneOf('status', PRODUCT_STATUSES);
			const transactionType = reader.optionalOneOf('transaction_type', TRANSACTION_TYPES);
			const text = reader.optionalString('query')?.toLowerCase();
			const priceMin = reader.optionalNumber('price_min');
			const priceMax = reader.optionalNumber('price_max');
			const updatedSince = reader.optionalUtc('updated_since');
			const criteria = readCriteria(reader, 'criteria', store.referentials.productCriteria) ?? [];
			const offset = reader.optionalInteger('offset', { min: 0 });
			const page = readPageRequest(reader);
			if (typeof offset === 'number' && page.afterId !== undefined)
				reader.fail('offset', 'cannot be combined with cursor');
			const fetch = readFetch(request);
			reader.throwIfInvalid();
			const keep = (product: Product) =>
				(agencyId === undefined || product.agency_id === agencyId) &&
				(!status || product.status === status) &&
				(!transactionType || product.transaction_type === transactionType) &&
				(!text || product.title.toLowerCase().includes(text) || product.reference.toLowerCase().includes(text)) &&
				(typeof priceMin !== 'number' || (product.price ?? 0) >= priceMin) &&
				(typeof priceMax !== 'number' || (product.price ?? 0) <= priceMax) &&
				(!updatedSince || product.updated_at >= updatedSince) &&
				criteria.every((wanted) =>
					product.criteria.some(
						(criterion) => criterion.id === wanted.id && criterionMatches(criterion.value, wanted.value),
					),
				);
			const view = (product: Product) => productView(store, product, fetch);
			const siteProducts = store.products.forSite(request.grant.siteId);
			if (typeof offset === 'number') {
				const matching = siteProducts.filter(keep);
				const { data, hasMore } = offsetSlice(matching, offset, page.perPage);
				return ok(data.map(view), { offset, per_page: page.perPage, total: matching.length, has_more: hasMore });
			}
			return pageReply(request, cursorPage(siteProducts, 'product_id', 'asc', page, keep), view);
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
			const changes = readProductChanges(reader, store);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			return ok(productView(store, updateProduct(world, product, changes), new Set(['criteria'])));
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
			const valueOf = (criterionId: number) =>
				product.criteria.find((criterion) => criterion.id === criterionId)?.value;
			const dpeLetter = valueOf(DPE_LETTER_CRITERION);
			const gesLetter = valueOf(GES_LETTER_CRITERION);
			if (typeof dpeLetter !== 'string' || typeof gesLetter !== 'string') {
				throw invalidField(
					'criteria',
					`product ${product.product_id} has no DPE and GES letters (criteria ${DPE_LETTER_CRITERION} and ${GES_LETTER_CRITERION})`,
				);
			}
			const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
			const label = renderEnergyLabel(
				{
					dpeLetter,
					dpeValue: numberOrNull(valueOf(DPE_VALUE_CRITERION)),
					gesLetter,
					gesValue: numberOrNull(valueOf(GES_VALUE_CRITERION)),
				},
				{ format, width, lang },
			);
			return { status: 200, bytes: label.bytes, contentType: label.contentType };
		}),
		route('POST', '/products/{productId}/pictures/public', WRITE_ACCESS, uploadPicture(true)),
		route('POST', '/products/{productId}/pictures/private', WRITE_ACCESS, uploadPicture(false)),
	];
}
