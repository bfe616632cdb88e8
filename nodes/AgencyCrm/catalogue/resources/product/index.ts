import { NEW_LISTING_CRITERIA, PRODUCT_CRITERIA, PRODUCT_SEARCH_CRITERIA, criteriaField } from '../../criteria';
import { agencyField, productField } from '../../fields';
import { choices } from '../../../../shared/choices';
import { check, guess, integer, rule, spec } from '../../rules';
import { SEARCH_RESEND } from '../../resend';
import type { Endpoint, PreparedRequest } from '../../types';
import { PRODUCT_OUTPUT, listingFields, propertyTypeField, statusField, transactionTypeField } from './fields';
import { pictureUpload } from './pictures';
import { FETCH_FIELDS, PRICE_RANGE_FIELDS, PRODUCT_SEARCH, SORT_FIELDS, modifiedSinceField } from './search';

/** What a product create needs, as the sandbox decides (docs/assumptions.md "Product"). */
const CREATE_NEEDS = guess('a product create needs agency_id');

const PATCH_PRODUCT = spec(
	'section 4 "Products", PATCH /products/{productId}: "Body must include product_id equal to the path value (used for scope verification)"',
);

/** The node sends `product_id` itself, from the path, unless the user gave one (checked below). */
function productIdFromPath(request: PreparedRequest): PreparedRequest {
	if (request.body.product_id !== undefined) return request;
	return { ...request, body: { ...request.body, product_id: request.pathParams.productId } };
}

const productIdEqualsPath = check(PATCH_PRODUCT, ({ body, pathParams }) =>
	String(body.product_id) === String(pathParams.productId)
		? []
		: [
				{
					field: '"Extra Body Fields (JSON)" (product_id)',
					message: `must equal the Product (${String(pathParams.productId)}) or be left out: the node sends it`,
				},
			],
);

/** DPE/GES rendering options: the spec says "only rendering options can be sent; all optional", not which. */
const RENDERING = guess('DPE/GES rendering options');

export const productEndpoints: Endpoint[] = [
	{
		resource: 'product',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a property',
			description:
				'Create a property listing in an agency from its criteria (type, price, rooms, status…), chosen by label. Returns the listing.',
		},
		method: 'POST',
		path: '/products',
		packs: ['Properties'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Creates a listing": a second send makes a second listing; the spec names no duplicate rule for products.',
		},
		fields: [
			agencyField('body', { placement: 'top', required: CREATE_NEEDS }),
			transactionTypeField({ placement: 'top' }),
			propertyTypeField({ placement: 'top' }),
			...listingFields(NEW_LISTING_CRITERIA),
		],
		criteria: NEW_LISTING_CRITERIA,
		outputKeys: PRODUCT_OUTPUT,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many properties',
			description:
				'Search property listings by criteria (type, price, status…) with operators, reference or last change: the whole catalogue, or what changed since',
		},
		method: 'POST',
		path: '/products/search',
		packs: ['Properties', 'Websites'],
		// The one operation whose right the evidence names (docs/assumptions.md "Production evidence").
		rights: 'SITE_PRODUCT:READ + RS:PRODUCT_SEARCH',
		pagination: 'cursor',
		paginationModes: ['cursor', 'offset'],
		pageSizeKey: 'count',
		maxPageSize: { size: 100, source: PRODUCT_SEARCH },
		resend: SEARCH_RESEND,
		fields: [
			agencyField('body'),
			statusField('EGAL'),
			transactionTypeField({ operator: 'EGAL' }),
			{
				in: 'body',
				placement: 'collection',
				key: 'model',
				property: {
					displayName: 'Reference',
					name: 'query',
					type: 'string',
					default: '',
					description: 'The listing’s reference, or part of it (the API’s model)',
				},
			},
			...PRICE_RANGE_FIELDS,
			modifiedSinceField,
			criteriaField(PRODUCT_SEARCH_CRITERIA),
			...SORT_FIELDS,
			...FETCH_FIELDS,
		],
		criteria: PRODUCT_SEARCH_CRITERIA,
		outputKeys: PRODUCT_OUTPUT,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a property',
			description: 'Get one property listing by its ID, with the related data asked for (criteria, photos…)',
		},
		method: 'GET',
		path: '/products/{productId}',
		packs: ['Properties', 'Websites'],
		fields: [productField('path'), ...FETCH_FIELDS],
		outputKeys: PRODUCT_OUTPUT,
	},
	{
		resource: 'product',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a property',
			description:
				'Change only the criteria given on one listing (each replaces the value of the same criterion) or its reference. Returns the listing.',
		},
		method: 'PATCH',
		path: '/products/{productId}',
		packs: ['Properties'],
		fields: [productField('path'), transactionTypeField(), propertyTypeField(), ...listingFields(PRODUCT_CRITERIA)],
		criteria: PRODUCT_CRITERIA,
		derive: productIdFromPath,
		checks: [productIdEqualsPath],
		outputKeys: PRODUCT_OUTPUT,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get Lots',
			value: 'getLots',
			action: 'Get the lots of a property',
			description: 'List the lots (sub-listings, such as the units of a building) of a listing',
		},
		method: 'GET',
		path: '/products/{productId}/lots',
		packs: ['Properties', 'Websites'],
		fields: [productField('path')],
	},
	{
		resource: 'product',
		operation: {
			name: 'Add View',
			value: 'addView',
			action: 'Add a view to a property',
			description: 'Count one view of the listing on an external website (adds 1 to its view counter)',
		},
		method: 'POST',
		path: '/products/{productId}/views',
		packs: ['Properties', 'Websites'],
		resend: {
			resend: false,
			reason: 'Spec section 4: "Increments the view counter": a second send counts a second view.',
		},
		fields: [productField('path')],
	},
	{
		resource: 'product',
		operation: {
			name: 'Generate DPE/GES Label',
			value: 'generateDpeGes',
			action: 'Generate the DPE/GES label of a property',
			description:
				'Render the energy (DPE) and climate (GES) label image from the listing’s criteria; the image is output as binary data',
		},
		method: 'POST',
		path: '/products/{productId}/dpeGes',
		packs: ['Properties', 'Websites'],
		resend: {
			resend: true,
			reason:
				'Spec section 4: "Generates the DPE/GES label visual. Letters and values come from the product\'s criteria": it renders an image from what is stored and records nothing.',
		},
		output: 'imageOrRecord',
		fields: [
			productField('path'),
			{
				in: 'body',
				placement: 'collection',
				values: RENDERING,
				property: {
					displayName: 'Format',
					name: 'format',
					type: 'options',
					options: choices({ PNG: 'png', SVG: 'svg' }),
					default: 'png',
				},
			},
			{
				in: 'body',
				placement: 'collection',
				rules: [rule(RENDERING, integer({ min: 100, max: 2000 }))],
				property: {
					displayName: 'Width',
					name: 'width',
					type: 'number',
					typeOptions: { minValue: 100, maxValue: 2000 },
					default: 400,
					description: 'Width of the image in pixels',
				},
			},
			{
				in: 'body',
				placement: 'collection',
				values: RENDERING,
				property: {
					displayName: 'Language',
					name: 'lang',
					type: 'options',
					options: choices({ English: 'en', French: 'fr' }),
					default: 'fr',
					description: 'Language of the texts on the label',
				},
			},
		],
	},
	pictureUpload('public'),
	pictureUpload('private'),
];
