import { PRODUCT_FETCHES, relationOptions } from '../../../shared/relations';
import { agencyField, criteriaField, productField, updatedSinceField } from '../fields';
import { MAX_UPLOAD_BYTES, MIN_PICTURE_WIDTH, integer, maxBytes, minImageWidth, oneOf } from '../rules';
import type { Check, Endpoint, FieldSpec } from '../types';
import { commaList } from '../wire';

const TRANSACTION_TYPES = ['sale', 'rental'] as const;
const PROPERTY_TYPES = ['apartment', 'house', 'land', 'commercial', 'parking', 'building'] as const;
const PRODUCT_STATUSES = ['active', 'under_offer', 'sold', 'archived'] as const;

/** Keys kept by Simplify: what the listing is, where, and for how much. */
export const PRODUCT_SIMPLE_KEYS = [
	'product_id',
	'agency_id',
	'reference',
	'title',
	'transaction_type',
	'property_type',
	'price',
	'surface',
	'rooms',
	'city',
	'postal_code',
	'status',
	'updated_at',
];

export function transactionTypeField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		rules: [oneOf(TRANSACTION_TYPES)],
		property: {
			displayName: 'Transaction Type',
			name: 'transactionType',
			type: 'options',
			options: [
				{ name: 'Rental', value: 'rental' },
				{ name: 'Sale', value: 'sale' },
			],
			default: 'sale',
			required: isRequired,
		},
	};
}

export function propertyTypeField(isRequired: boolean): FieldSpec {
	return {
		in: 'body',
		rules: [oneOf(PROPERTY_TYPES)],
		property: {
			displayName: 'Property Type',
			name: 'propertyType',
			type: 'options',
			options: [
				{ name: 'Apartment', value: 'apartment' },
				{ name: 'Building', value: 'building' },
				{ name: 'Commercial', value: 'commercial' },
				{ name: 'House', value: 'house' },
				{ name: 'Land', value: 'land' },
				{ name: 'Parking', value: 'parking' },
			],
			default: 'apartment',
			required: isRequired,
		},
	};
}

/** Price, size and place: product create and update, and the product of a seller lead. */
export const PRODUCT_FEATURE_FIELDS: FieldSpec[] = [
	{
		in: 'body',
		property: {
			displayName: 'Price',
			name: 'price',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Asking price, or the monthly rent of a rental',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Surface',
			name: 'surface',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Living area in square metres',
		},
	},
	{
		in: 'body',
		rules: [integer({ min: 0 })],
		property: { displayName: 'Rooms', name: 'rooms', type: 'number', typeOptions: { minValue: 0 }, default: 0 },
	},
	{ in: 'body', property: { displayName: 'City', name: 'city', type: 'string', default: '' } },
	{ in: 'body', property: { displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' } },
];

const statusField: FieldSpec = {
	in: 'body',
	rules: [oneOf(PRODUCT_STATUSES)],
	property: {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Active', value: 'active' },
			{ name: 'Archived', value: 'archived' },
			{ name: 'Sold', value: 'sold' },
			{ name: 'Under Offer', value: 'under_offer' },
		],
		default: 'active',
	},
};

/** Listing texts and state: product create and update. */
const listingFields: FieldSpec[] = [
	{
		in: 'body',
		property: {
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'Headline of the listing',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description: 'The agency’s own reference of the listing',
		},
	},
	...PRODUCT_FEATURE_FIELDS,
	statusField,
	criteriaField('product'),
];

/** `fetch`: related data loaded with a product (search and get; values in docs/assumptions.md). */
const fetchField: FieldSpec = {
	in: 'query',
	wire: commaList,
	property: {
		displayName: 'Related Data',
		name: 'fetch',
		type: 'multiOptions',
		options: relationOptions(PRODUCT_FETCHES),
		default: [],
		description: 'Related data to load with each product. Turn off Simplify to see it.',
	},
};

/**
 * PATCH /products/{productId} must carry `product_id` equal to the path value (spec section 4,
 * scope check). The node adds it to the body; a different `product_id` given in "Extra Body
 * Fields (JSON)" is refused instead of being silently replaced.
 */
export const productIdFromPath: Check = (wire) => {
	const pathId = wire.pathParams.productId;
	if (pathId === undefined) return [];
	const bodyId = wire.body.product_id;
	if (bodyId !== undefined && String(bodyId) !== String(pathId)) {
		return [
			{
				field: '"Extra Body Fields (JSON)" (product_id)',
				message: `must equal the Product (${String(pathId)}) or be left out: the node sends it`,
			},
		];
	}
	wire.body.product_id = pathId;
	return [];
};

function pictureUpload(visibility: 'public' | 'private'): Endpoint {
	const limits = 'PNG, JPEG, WebP or GIF, at least 800 px wide, at most 20 MB';
	return {
		resource: 'product',
		operation:
			visibility === 'public'
				? {
						name: 'Upload Public Picture',
						value: 'uploadPublicPicture',
						action: 'Upload a public picture of a product',
						description: `Add a photo shown on the listing (${limits})`,
					}
				: {
						name: 'Upload Private Picture',
						value: 'uploadPrivatePicture',
						action: 'Upload a private picture of a product',
						description: `Add a photo kept for the agency only (${limits})`,
					},
		method: 'POST',
		path: `/products/{productId}/pictures/${visibility}`,
		packs: ['Properties'],
		fields: [
			productField('path'),
			{
				in: 'file',
				key: 'file',
				rules: [maxBytes(MAX_UPLOAD_BYTES), minImageWidth(MIN_PICTURE_WIDTH)],
				property: {
					displayName: 'Input Binary Field',
					name: 'binaryPropertyName',
					type: 'string',
					default: 'data',
					required: true,
					description: 'Name of the input binary field holding the image',
				},
			},
			{
				in: 'body',
				property: {
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					description: 'Caption of the photo',
				},
			},
		],
	};
}

export const productEndpoints: Endpoint[] = [
	{
		resource: 'product',
		operation: {
			name: 'Create',
			value: 'create',
			action: 'Create a product',
			description: 'Create a property listing in an agency',
		},
		method: 'POST',
		path: '/products',
		packs: ['Properties'],
		fields: [agencyField('body', true), transactionTypeField(true), propertyTypeField(true), ...listingFields],
		extraBodyJson: true,
		simplify: PRODUCT_SIMPLE_KEYS,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many products',
			description: 'Search property listings by agency, status, price, text or criteria',
		},
		method: 'POST',
		path: '/products/search',
		packs: ['Properties', 'Websites'],
		pagination: 'cursor',
		paginationModes: ['cursor', 'offset'],
		readOnly: true,
		fields: [
			agencyField('body', false),
			statusField,
			transactionTypeField(false),
			{
				in: 'body',
				property: {
					displayName: 'Search Text',
					name: 'query',
					type: 'string',
					default: '',
					description: 'Text contained in the title or the reference',
				},
			},
			{
				in: 'body',
				property: { displayName: 'Minimum Price', name: 'priceMin', type: 'number', default: 0 },
			},
			{
				in: 'body',
				property: { displayName: 'Maximum Price', name: 'priceMax', type: 'number', default: 0 },
			},
			updatedSinceField(),
			criteriaField('product'),
			fetchField,
		],
		simplify: PRODUCT_SIMPLE_KEYS,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a product',
			description: 'Get one property listing, with related data if asked',
		},
		method: 'GET',
		path: '/products/{productId}',
		packs: ['Properties', 'Websites'],
		fields: [productField('path'), fetchField],
		simplify: PRODUCT_SIMPLE_KEYS,
	},
	{
		resource: 'product',
		operation: {
			name: 'Update',
			value: 'update',
			action: 'Update a product',
			description: 'Change only the fields given; criteria sent replace the values of the same criteria',
		},
		method: 'PATCH',
		path: '/products/{productId}',
		packs: ['Properties'],
		fields: [productField('path'), transactionTypeField(false), propertyTypeField(false), ...listingFields],
		extraBodyJson: true,
		checks: [productIdFromPath],
		simplify: PRODUCT_SIMPLE_KEYS,
	},
	{
		resource: 'product',
		operation: {
			name: 'Get Lots',
			value: 'getLots',
			action: 'Get the lots of a product',
			description: 'List the lots (sub-products, such as the units of a building) of a listing',
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
			action: 'Add a view to a product',
			description: 'Count one view of the listing on an external website (adds 1 to its view counter)',
		},
		method: 'POST',
		path: '/products/{productId}/views',
		packs: ['Properties', 'Websites'],
		fields: [productField('path')],
	},
	{
		resource: 'product',
		operation: {
			name: 'Generate DPE/GES Label',
			value: 'generateDpeGes',
			action: 'Generate the DPE/GES label of a product',
			description:
				'Render the energy (DPE) and climate (GES) label image from the listing’s criteria; the image is output as binary data',
		},
		method: 'POST',
		path: '/products/{productId}/dpeGes',
		packs: ['Properties', 'Websites'],
		readOnly: true,
		output: 'imageOrRecord',
		fields: [
			productField('path'),
			{
				in: 'body',
				rules: [oneOf(['png', 'svg'])],
				property: {
					displayName: 'Format',
					name: 'format',
					type: 'options',
					options: [
						{ name: 'PNG', value: 'png' },
						{ name: 'SVG', value: 'svg' },
					],
					default: 'png',
				},
			},
			{
				in: 'body',
				rules: [integer({ min: 100, max: 2000 })],
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
				rules: [oneOf(['en', 'fr'])],
				property: {
					displayName: 'Language',
					name: 'lang',
					type: 'options',
					options: [
						{ name: 'English', value: 'en' },
						{ name: 'French', value: 'fr' },
					],
					default: 'fr',
					description: 'Language of the texts on the label',
				},
			},
		],
	},
	pictureUpload('public'),
	pictureUpload('private'),
];
