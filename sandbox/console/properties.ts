/**
 * The console's properties (listings): browse and search them, edit a listing's main criteria, set
 * any criterion, add a picture. Writes go through the code the API uses (`PATCH /products/{id}`,
 * picture uploads), so they send the same webhook events: PRODUCT_UPDATE for an edit, none for a
 * picture (docs/assumptions.md).
 */
import { encodePng } from '../images';
import type { CriterionDefinition, Product } from '../model';
import {
	addPicture,
	criterionValueOf,
	deleteProduct,
	priceOf,
	productTitle,
	readProductChanges,
	updateProduct,
} from '../resources/products';
import { findCriterion } from '../resources/criterias';
import { CRITERION_KEYS, ROOMS_KEYS, STATUS_VALUES } from '../seed/referentials';
import { FieldReader } from '../validation';
import {
	consolePage,
	consoleRoute,
	eventReach,
	formatDate,
	listPage,
	recordOf,
	redirectAfterEvent,
	rejectionNotice,
	siteOf,
} from './common';
import type { ConsoleContext, ConsoleRequest, ConsoleRoute } from './common';
import { accepting, redirectWithNotice, textOrNull } from './forms';
import type { ConsoleReply, FormFields } from './forms';
import { html, Html, selectInput, table, textInput } from './html';
import type { Value } from './html';

/** The picture added when none is chosen: wide enough for the API's 800 px minimum. */
const SAMPLE_PICTURE = { width: 1200, height: 800 };

/** The listing form's fields, each a criterion of the site (rooms by the site's own key) or the reference. */
const LISTING_FIELDS = [
	{ name: 'price', label: 'Price', xml: CRITERION_KEYS.price },
	{ name: 'surface', label: 'Surface (m²)', xml: CRITERION_KEYS.surface },
	{ name: 'rooms', label: 'Rooms', xml: 'rooms' },
	{ name: 'status', label: 'Status', xml: CRITERION_KEYS.status },
	{ name: 'city', label: 'City', xml: CRITERION_KEYS.city },
	{ name: 'postal_code', label: 'Postal code', xml: CRITERION_KEYS.postalCode },
] as const;

const LABELS: Record<string, string> = { model: 'Reference', file: 'Picture' };

/** A criterion's value typed from the form's text, as its type wants it; the API's reader judges it. */
function criterionValue(definition: CriterionDefinition | undefined, text: string): unknown {
	const trimmed = text.trim();
	switch (definition?.type) {
		case 'NUMBER':
			return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
		case 'FLAG':
			return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
		case 'MULTIPLE':
			return trimmed
				.split(',')
				.map((entry) => entry.trim())
				.filter(Boolean);
		default:
			return trimmed;
	}
}

/** A gradient picture, as a photographer's placeholder. */
function samplePicture(): Buffer {
	const { width, height } = SAMPLE_PICTURE;
	return encodePng(width, height, (x, y) => [
		40 + Math.round((x / width) * 120),
		90 + Math.round((y / height) * 100),
		160,
	]);
}

export function propertyRoutes(context: ConsoleContext): ConsoleRoute[] {
	const { store } = context.world;
	const definitionsOf = (product: Product) => store.productCriteriaOf(product.site_id);
	/** The XML key of a listing field on the product's site (rooms is spelled per site). */
	const keyOf = (product: Product, xml: string) =>
		xml === 'rooms' ? (ROOMS_KEYS[product.site_id] ?? ROOMS_KEYS[1]).xml : xml;
	const shown = (product: Product, xml: string) => {
		const value = criterionValueOf(store, product, keyOf(product, xml));
		return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
	};
	const criterionLabel = (product: Product, id: number) =>
		definitionsOf(product).find((criterion) => criterion.id === id)?.label ?? String(id);

	const propertyOf = (request: ConsoleRequest) => recordOf(store.products, request, 'Property');

	function list(request: ConsoleRequest): ConsoleReply {
		const siteId = siteOf(context, request);
		const {
			shown: page,
			controls,
			next,
		} = listPage(request, {
			path: '/console/properties',
			siteId,
			records: store.products.forSite(siteId),
			searched: (product) => [
				product.product_id,
				product.model,
				productTitle(store, product),
				shown(product, CRITERION_KEYS.city),
				shown(product, CRITERION_KEYS.postalCode),
			],
			noun: 'properties',
			searchLabel: 'reference, title, city, id',
		});
		const link = (product: Product, text: Value) =>
			html`<a href="/console/properties/${product.product_id}">${text}</a>`;
		const content = html`${controls}
		${table('properties', page, [
			{ label: 'ID', cell: (product) => link(product, product.product_id) },
			{ label: 'Reference', cell: (product) => link(product, product.model) },
			{ label: 'Title', cell: (product) => productTitle(store, product) },
			{ label: 'Transaction', cell: (product) => shown(product, CRITERION_KEYS.transactionType) },
			{ label: 'Price', cell: (product) => priceOf(store, product) },
			{ label: 'Surface', cell: (product) => shown(product, CRITERION_KEYS.surface) },
			{ label: 'Rooms', cell: (product) => shown(product, 'rooms') },
			{ label: 'City', cell: (product) => shown(product, CRITERION_KEYS.city) },
			{ label: 'Status', cell: (product) => shown(product, CRITERION_KEYS.status) },
			{ label: 'Pictures', cell: (product) => product.pictures.length },
			{ label: 'Modified', cell: (product) => formatDate(product.last_modified) },
		])}
		${next}`;
		return { page: consolePage(context, request, { title: 'Properties', section: 'properties', siteId }, content) };
	}

	function propertyPage(request: ConsoleRequest, product: Product, form?: FormFields, errors?: string[]): Html {
		const values: FormFields = form ?? {
			model: product.model,
			...Object.fromEntries(LISTING_FIELDS.map(({ name, xml }) => [name, shown(product, xml)])),
		};
		const definitions = definitionsOf(product);
		const activeCriteria = definitions.filter((criterion) => criterion.is_activated);
		const content = html`${rejectionNotice(context, 'product', product.product_id)}
			<p class="muted">
				${productTitle(store, product)} · agency ${store.agencies.get(product.agency_id)?.name} · created
				${formatDate(product.created_at)} · modified ${formatDate(product.last_modified)}
				${shown(product, CRITERION_KEYS.status) === STATUS_VALUES[0][0] ? '' : '· hidden in the CRM (status is not EnCours)'}
			</p>
			<form method="post" action="/console/properties/${product.product_id}" id="edit-property">
				<fieldset>
					<legend>Edit the listing (sends PRODUCT_UPDATE; each field but the reference is a criterion)</legend>
					${textInput('Reference', 'model', values.model)} ${textInput('Price', 'price', values.price)}
					${textInput('Surface (m²)', 'surface', values.surface)} ${textInput('Rooms', 'rooms', values.rooms)}<br />
					${selectInput(
						'Status',
						'status',
						STATUS_VALUES.map(([code, label]) => ({ value: code, label })),
						values.status,
						'(none)',
					)}
					${textInput('City', 'city', values.city)} ${textInput('Postal code', 'postal_code', values.postal_code)}<br />
					<button type="submit">Save</button>
				</fieldset>
			</form>
			<form method="post" action="/console/properties/${product.product_id}/criteria" id="set-criterion">
				<fieldset>
					<legend>Set a criterion (sends PRODUCT_UPDATE)</legend>
					${selectInput(
						'Criterion',
						'criterion_id',
						activeCriteria.map((criterion) => ({
							value: criterion.id,
							label: `${criterion.id} · ${criterion.label} · ${criterion.xml} (${criterion.type})`,
						})),
						form?.criterion_id,
					)}
					<label
						><span>Value (list: a value's code; several: codes separated by commas; yes/no: true or false)</span>
						<input name="value" value="${form?.value}"
					/></label>
					<button type="submit">Set</button>
				</fieldset>
			</form>
			<form
				method="post"
				action="/console/properties/${product.product_id}/pictures"
				enctype="multipart/form-data"
				id="add-picture"
			>
				<fieldset>
					<legend>Add a picture (as through the API, sends no webhook event)</legend>
					<label
						><span
							>Image (PNG, JPEG, WebP or GIF, at least 800 px wide; none: a generated
							${SAMPLE_PICTURE.width}×${SAMPLE_PICTURE.height} picture)</span
						>
						<input type="file" name="file" accept="image/*"
					/></label>
					<label><span>Title</span><input name="title" /></label>
					<label><input type="checkbox" name="is_public" value="true" checked /> public</label>
					<button type="submit">Add</button>
				</fieldset>
			</form>
			<form method="post" action="/console/properties/${product.product_id}/delete" id="delete-property">
				<fieldset>
					<legend>Delete the listing (sends PRODUCT_DELETE; the API no longer finds it)</legend>
					<button type="submit">Delete</button>
				</fieldset>
			</form>
			<h2>Criteria</h2>
			${table('criteria', product.criteria, [
				{ label: 'ID', cell: (criterion) => criterion.id },
				{ label: 'XML key', cell: (criterion) => definitions.find((candidate) => candidate.id === criterion.id)?.xml },
				{ label: 'Criterion', cell: (criterion) => criterionLabel(product, criterion.id) },
				{ label: 'Value', cell: (criterion) => html`<code>${JSON.stringify(criterion.value)}</code>` },
			])}
			<h2>Pictures</h2>
			${table('pictures', product.pictures, [
				{ label: 'ID', cell: (picture) => picture.picture_id },
				{ label: 'Title', cell: (picture) => picture.title },
				{ label: 'Size', cell: (picture) => `${picture.width}×${picture.height}` },
				{ label: 'Public', cell: (picture) => (picture.is_public ? 'yes' : 'no') },
				{ label: 'URL', cell: (picture) => picture.url },
			])}`;
		return consolePage(
			context,
			request,
			{
				title: `Property ${product.product_id}: ${product.model}`,
				section: 'properties',
				siteId: product.site_id,
				errors,
			},
			content,
		);
	}

	const saved = (product: Product, what: string) =>
		redirectAfterEvent(
			context,
			{ siteId: product.site_id, event: 'PRODUCT_UPDATE', resourceId: product.product_id },
			`/console/properties/${product.product_id}`,
			what,
		);

	/** Writes criteria through the API's reader; its problems are named by the form's labels. */
	function writeCriteria(product: Product, body: Record<string, unknown>) {
		const reader = new FieldReader(body);
		const changes = readProductChanges(reader, store, product.site_id);
		reader.throwIfInvalid();
		updateProduct(context.world, product, changes);
	}

	/** The form's labels of the criteria it writes, by their `criteria.<id>` keys. */
	function criteriaLabels(product: Product, fields: ReadonlyArray<{ label: string; xml: string }>) {
		return Object.fromEntries(
			fields.flatMap(({ label, xml }) => {
				const definition = findCriterion(definitionsOf(product), keyOf(product, xml));
				return definition ? [[`criteria.${definition.id}`, label]] : [];
			}),
		);
	}

	function editProperty(request: ConsoleRequest): Promise<ConsoleReply> {
		const product = propertyOf(request);
		const { form } = request;
		const labels = { ...LABELS, ...criteriaLabels(product, LISTING_FIELDS) };
		return accepting(
			() => {
				const criteria = LISTING_FIELDS.flatMap(({ name, xml }) => {
					const text = textOrNull(form, name);
					const definition = findCriterion(definitionsOf(product), keyOf(product, xml));
					return text === null ? [] : [{ id: keyOf(product, xml), value: criterionValue(definition, text) }];
				});
				writeCriteria(product, { model: textOrNull(form, 'model') ?? product.model, criteria });
				return saved(product, 'Listing saved.');
			},
			labels,
			(problems) => propertyPage(request, product, form, problems),
		);
	}

	function setCriterion(request: ConsoleRequest): Promise<ConsoleReply> {
		const product = propertyOf(request);
		const { form } = request;
		const id = Number(form.criterion_id);
		const definition = definitionsOf(product).find((criterion) => criterion.id === id);
		const labels = { ...LABELS, [`criteria.${id}`]: `Criterion ${definition?.xml ?? id}` };
		return accepting(
			() => {
				writeCriteria(product, { criteria: [{ id, value: criterionValue(definition, form.value ?? '') }] });
				return saved(product, `Criterion ${id} (${criterionLabel(product, id)}) set.`);
			},
			labels,
			(problems) => propertyPage(request, product, form, problems),
		);
	}

	function addPictureTo(request: ConsoleRequest): Promise<ConsoleReply> {
		const product = propertyOf(request);
		return accepting(
			() => {
				const chosen = request.files.find((file) => file.name === 'file' && file.data.length > 0);
				const picture = addPicture(store, product, chosen?.data ?? samplePicture(), {
					isPublic: request.form.is_public === 'true',
					title: textOrNull(request.form, 'title'),
				});
				return redirectWithNotice(
					`/console/properties/${product.product_id}`,
					`Picture ${picture.picture_id} added (${picture.width}×${picture.height}). As through the API, a picture upload sends no webhook event.`,
				);
			},
			LABELS,
			(problems) => propertyPage(request, product, undefined, problems),
		);
	}

	function deleteProperty(request: ConsoleRequest): ConsoleReply {
		const product = propertyOf(request);
		deleteProduct(context.world, product);
		return redirectWithNotice(
			`/console/properties?site=${product.site_id}`,
			`Listing ${product.product_id} (${product.model}) deleted. ${eventReach(context, product.site_id, 'PRODUCT_DELETE')}`,
		);
	}

	return [
		consoleRoute('GET', '/properties', list),
		consoleRoute('GET', '/properties/{id}', (request) => ({ page: propertyPage(request, propertyOf(request)) })),
		consoleRoute('POST', '/properties/{id}', editProperty),
		consoleRoute('POST', '/properties/{id}/criteria', setCriterion),
		consoleRoute('POST', '/properties/{id}/pictures', addPictureTo),
		consoleRoute('POST', '/properties/{id}/delete', deleteProperty),
	];
}
