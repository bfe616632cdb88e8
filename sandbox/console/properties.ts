/**
 * The console's properties (listings): browse and search them, edit a listing's fields, set one of
 * its criteria, add a picture. Writes go through the code the API uses (`PATCH /products/{id}`,
 * picture uploads), so they send the same webhook events: PRODUCT_UPDATE for an edit, none for a
 * picture (docs/assumptions.md).
 */
import { encodePng } from '../images';
import { PRODUCT_STATUSES } from '../model';
import type { CriterionDefinition, Product } from '../model';
import { addPicture, readProductChanges, updateProduct } from '../resources/products';
import { FieldReader } from '../validation';
import { consolePage, consoleRoute, formatDate, listPage, recordOf, redirectAfterEvent, siteOf } from './common';
import type { ConsoleContext, ConsoleRequest, ConsoleRoute } from './common';
import { accepting, numberOrNull, redirectWithNotice, textOrNull } from './forms';
import type { ConsoleReply, FormFields } from './forms';
import { html, Html, selectInput, table, textInput } from './html';
import type { Value } from './html';

/** The picture added when none is chosen: wide enough for the API's 800 px minimum. */
const SAMPLE_PICTURE = { width: 1200, height: 800 };

const LABELS: Record<string, string> = {
	title: 'Title',
	price: 'Price',
	surface: 'Surface',
	rooms: 'Rooms',
	status: 'Status',
	city: 'City',
	postal_code: 'Postal code',
	'criteria[0].id': 'Criterion',
	'criteria[0].value': 'Value',
	file: 'Picture',
};

/** A criterion's value typed from the form's text, as its definition wants it; anything else stays text. */
function criterionValue(definition: CriterionDefinition | undefined, text: string): unknown {
	const allowedId = (entry: string) =>
		definition?.values.find((value) => String(value.id) === entry.trim())?.id ?? entry.trim();
	switch (definition?.type) {
		case 'number':
			return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
		case 'boolean':
			return text === 'true' ? true : text === 'false' ? false : text;
		case 'list':
			return allowedId(text);
		case 'multi_list':
			return text
				.split(',')
				.filter((entry) => entry.trim())
				.map(allowedId);
		default:
			return text;
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
	const { productCriteria } = store.referentials;
	const criterionLabel = (id: number) => productCriteria.find((criterion) => criterion.id === id)?.label ?? String(id);

	const propertyOf = (request: ConsoleRequest) => recordOf(store.products, request, 'Property');

	function list(request: ConsoleRequest): ConsoleReply {
		const siteId = siteOf(context, request);
		const { shown, controls, next } = listPage(request, {
			path: '/console/properties',
			siteId,
			records: store.products.forSite(siteId),
			searched: (product) => [product.product_id, product.reference, product.title, product.city, product.postal_code],
			noun: 'properties',
			searchLabel: 'reference, title, city, id',
		});
		const link = (product: Product, text: Value) =>
			html`<a href="/console/properties/${product.product_id}">${text}</a>`;
		const content = html`${controls}
		${table('properties', shown, [
			{ label: 'ID', cell: (product) => link(product, product.product_id) },
			{ label: 'Reference', cell: (product) => link(product, product.reference) },
			{ label: 'Title', cell: (product) => product.title },
			{ label: 'Transaction', cell: (product) => product.transaction_type },
			{ label: 'Price', cell: (product) => product.price },
			{ label: 'Surface', cell: (product) => product.surface },
			{ label: 'Rooms', cell: (product) => product.rooms },
			{ label: 'City', cell: (product) => product.city },
			{ label: 'Status', cell: (product) => product.status },
			{ label: 'Pictures', cell: (product) => product.pictures.length },
			{ label: 'Updated', cell: (product) => formatDate(product.updated_at) },
		])}
		${next}`;
		return { page: consolePage(context, request, { title: 'Properties', section: 'properties', siteId }, content) };
	}

	function propertyPage(request: ConsoleRequest, product: Product, form?: FormFields, errors?: string[]): Html {
		const values: FormFields = form ?? {
			title: product.title,
			price: String(product.price ?? ''),
			surface: String(product.surface ?? ''),
			rooms: String(product.rooms ?? ''),
			status: product.status,
			city: product.city ?? '',
			postal_code: product.postal_code ?? '',
		};
		const activeCriteria = productCriteria.filter((criterion) => criterion.is_activated);
		const content = html` <p class="muted">
				${product.transaction_type} · ${product.property_type} · agency ${store.agencies.get(product.agency_id)?.name} ·
				created ${formatDate(product.created_at)} · updated ${formatDate(product.updated_at)}
			</p>
			<form method="post" action="/console/properties/${product.product_id}" id="edit-property">
				<fieldset>
					<legend>Edit the listing (sends PRODUCT_UPDATE)</legend>
					${textInput('Title', 'title', values.title, html`size="40"`)} ${textInput('Price', 'price', values.price)}
					${textInput('Surface (m²)', 'surface', values.surface)} ${textInput('Rooms', 'rooms', values.rooms)}<br />
					${selectInput(
						'Status',
						'status',
						PRODUCT_STATUSES.map((status) => ({ value: status, label: status })),
						values.status,
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
							label: `${criterion.id} · ${criterion.label} (${criterion.type})`,
						})),
						form?.criterion_id,
					)}
					<label
						><span>Value (list: a value's id; several: ids separated by commas; yes/no: true or false)</span>
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
			<h2>Criteria</h2>
			${table('criteria', product.criteria, [
				{ label: 'ID', cell: (criterion) => criterion.id },
				{ label: 'Criterion', cell: (criterion) => criterionLabel(criterion.id) },
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
				title: `Property ${product.product_id}: ${product.reference}`,
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

	function editProperty(request: ConsoleRequest): Promise<ConsoleReply> {
		const product = propertyOf(request);
		const { form } = request;
		return accepting(
			() => {
				const reader = new FieldReader({
					title: textOrNull(form, 'title') ?? '',
					price: numberOrNull(form, 'price'),
					surface: numberOrNull(form, 'surface'),
					rooms: numberOrNull(form, 'rooms'),
					status: form.status,
					city: textOrNull(form, 'city'),
					postal_code: textOrNull(form, 'postal_code'),
				});
				const changes = readProductChanges(reader, store);
				reader.throwIfInvalid();
				updateProduct(context.world, product, changes);
				return saved(product, 'Listing saved.');
			},
			LABELS,
			(problems) => propertyPage(request, product, form, problems),
		);
	}

	function setCriterion(request: ConsoleRequest): Promise<ConsoleReply> {
		const product = propertyOf(request);
		const { form } = request;
		return accepting(
			() => {
				const id = Number(form.criterion_id);
				const definition = productCriteria.find((criterion) => criterion.id === id);
				const reader = new FieldReader({ criteria: [{ id, value: criterionValue(definition, form.value ?? '') }] });
				const changes = readProductChanges(reader, store);
				reader.throwIfInvalid();
				updateProduct(context.world, product, changes);
				return saved(product, `Criterion ${id} (${criterionLabel(id)}) set.`);
			},
			LABELS,
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

	return [
		consoleRoute('GET', '/properties', list),
		consoleRoute('GET', '/properties/{id}', (request) => ({ page: propertyPage(request, propertyOf(request)) })),
		consoleRoute('POST', '/properties/{id}', editProperty),
		consoleRoute('POST', '/properties/{id}/criteria', setCriterion),
		consoleRoute('POST', '/properties/{id}/pictures', addPictureTo),
	];
}
