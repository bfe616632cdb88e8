import { relationOptions } from '../../../../shared/relations';
import { commaList } from '../../convert';
import { criteriaField } from '../../fields';
import { guess, integer, rule } from '../../rules';
import type { FieldSpec, OutputKeys, RuleSource } from '../../types';

/** Product fields other than those the spec names are "not shown": their keys and values are our guess. */
const PRODUCT_FIELDS = guess('product fields and their values');

/** Simplified output: what the listing is, where, for how much, and whether it is still on offer. */
const PRODUCT_SIMPLE = [
	'agency_id',
	'reference',
	'title',
	'transaction_type',
	'property_type',
	'price',
	'surface',
	'city',
	'status',
];
export const PRODUCT_OUTPUT: OutputKeys = {
	id: 'product_id',
	simple: PRODUCT_SIMPLE,
	relationsParameter: 'fetch',
	fields: [...PRODUCT_SIMPLE, 'rooms', 'postal_code', 'criteria', 'views', 'created_at', 'updated_at'],
};

interface Given {
	placement?: FieldSpec['placement'];
	required?: RuleSource;
}

export function transactionTypeField(given: Given = {}): FieldSpec {
	return {
		in: 'body',
		placement: given.placement ?? 'collection',
		required: given.required,
		values: PRODUCT_FIELDS,
		property: {
			displayName: 'Transaction Type',
			name: 'transactionType',
			type: 'options',
			options: [
				{ name: 'Rental', value: 'rental' },
				{ name: 'Sale', value: 'sale' },
			],
			default: 'sale',
			description: 'Choose from the list, or specify another type using an expression',
		},
	};
}

export function propertyTypeField(given: Given = {}): FieldSpec {
	return {
		in: 'body',
		placement: given.placement ?? 'collection',
		required: given.required,
		values: PRODUCT_FIELDS,
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
			description: 'Choose from the list, or specify another type using an expression',
		},
	};
}

/** Price, size and place: product create and update, and the product of a seller lead. */
export const PRODUCT_FEATURE_FIELDS: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
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
		placement: 'collection',
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
		placement: 'collection',
		rules: [rule(PRODUCT_FIELDS, integer({ min: 0 }))],
		property: { displayName: 'Rooms', name: 'rooms', type: 'number', typeOptions: { minValue: 0 }, default: 0 },
	},
	{ in: 'body', placement: 'collection', property: { displayName: 'City', name: 'city', type: 'string', default: '' } },
	{
		in: 'body',
		placement: 'collection',
		property: { displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' },
	},
];

export const statusField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	values: PRODUCT_FIELDS,
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
		description: 'Choose from the list, or specify another status using an expression',
	},
};

/** Listing texts and state: product create and update. */
export const LISTING_FIELDS: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
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
		placement: 'collection',
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

/** `fetch`: related data loaded with a product (spec section 4: "same values as search"; the values are not shown). */
export const fetchField: FieldSpec = {
	in: 'query',
	placement: 'collection',
	setting: true,
	convert: commaList,
	values: guess('product fetch values'),
	property: {
		displayName: 'Related Data',
		name: 'fetch',
		type: 'multiOptions',
		options: relationOptions(['agency', 'criteria', 'lots', 'pictures']),
		default: [],
		description:
			'Related data to load with each property (the API\'s "fetch"); other values can be given with an expression',
	},
};
