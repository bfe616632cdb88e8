import { FETCHES_OF_0_1_0, PRODUCT_FETCHES, productionFetches, relationOptions } from '../../../../shared/relations';
import { commaList, filterUnlessZeroOrOff, listEntries, toOffsetDateTime } from '../../convert';
import { criteriaField, sentAsCriterion } from '../../criteria';
import { OFFSET_DATE_TIME } from '../../fields';
import { evidence, guess, integer, rule } from '../../rules';
import type { INodeProperties } from 'n8n-workflow';

import type { Converter, CriteriaSpec, FieldSpec, OutputKeys, RuleSource } from '../../types';

/**
 * A property as production models it (docs/assumptions.md "Production evidence"): its agency, its
 * reference (`model`) and criteria of the site; price, type, surface, rooms, status and town are
 * criteria. Version 1 keeps 0.1.0's Transaction Type, Property Type, Price… and sends each as the
 * criterion it is; version 2 offers the criteria themselves, chosen by label.
 */

/** Version 1's product fields: the criteria they are sent as, and the codes of their options (our guess). */
const VERSION_ONE_AS_CRITERIA = guess('version 1 product fields are sent as criteria: their XML keys and codes');

/** Product search as production takes it (the n8n node generated from the vendor's reference, and the lead router's adapter). */
export const PRODUCT_SEARCH = evidence(
	'product search: criterias with an operator each, model, count (at most 100), cursor, sort_type, sort_order, last_modified',
);

/** Simplified output: the listing's id and reference, when it changed, its price and its criteria by label. */
const PRODUCT_SIMPLE = ['model', 'agency_id', 'price', 'status_web', 'last_modified'];
/** The groups production returns a listing's criteria in, by what they hold. */
export const CRITERIA_GROUPS = ['criteres_text', 'criteres_number', 'criteres_fulltext', 'criteres_flag'];
export const PRODUCT_OUTPUT: OutputKeys = {
	id: 'id',
	simple: PRODUCT_SIMPLE,
	relationsParameter: 'fetch',
	fields: [...PRODUCT_SIMPLE, 'customers_id', 'created_at', ...CRITERIA_GROUPS, 'products_photos'],
	criteriaGroups: CRITERIA_GROUPS,
};

interface Given {
	placement?: FieldSpec['placement'];
	required?: RuleSource;
}

/** A version 1 field, sent as the criterion it is on the site. */
function versionOne(
	field: FieldSpec,
	keys: string[],
	options: { operator?: string; codes?: Record<string, string[]> } = {},
) {
	return { ...sentAsCriterion(field, { keys, ...options }), versions: [1] };
}

const TRANSACTION_CODES = { sale: ['Vente'], rental: ['Location'] };

/** Sale or rental: 0.1.0's input, kept by version 1 of a listing, and a buyer lead's own (lead.ts). */
export function transactionTypeProperty(description: string): INodeProperties {
	return {
		displayName: 'Transaction Type',
		name: 'transactionType',
		type: 'options',
		options: [
			{ name: 'Rental', value: 'rental' },
			{ name: 'Sale', value: 'sale' },
		],
		default: 'sale',
		description,
	};
}

export function transactionTypeField(given: Given & { operator?: string } = {}): FieldSpec {
	const field: FieldSpec = {
		in: 'body',
		placement: given.placement ?? 'collection',
		required: given.required,
		values: VERSION_ONE_AS_CRITERIA,
		property: transactionTypeProperty(
			'Sent as the site’s transaction type criterion (TypeTransaction); another value with an expression',
		),
	};
	return versionOne(field, ['TypeTransaction'], { operator: given.operator, codes: TRANSACTION_CODES });
}

export function propertyTypeField(given: Given = {}): FieldSpec {
	const field: FieldSpec = {
		in: 'body',
		placement: given.placement ?? 'collection',
		required: given.required,
		values: VERSION_ONE_AS_CRITERIA,
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
			description: 'Sent as the site’s property type criterion (TypeBien); another value with an expression',
		},
	};
	return versionOne(field, ['TypeBien'], {
		codes: {
			apartment: ['Appartement'],
			building: ['Immeuble'],
			commercial: ['LocalCommercial', 'Local commercial', 'Commerce'],
			house: ['Maison'],
			land: ['Terrain'],
			parking: ['Parking'],
		},
	});
}

/** Price, size and place: product create and update, and the product of a seller lead (version 1). */
export const PRODUCT_FEATURE_FIELDS: FieldSpec[] = [
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			property: {
				displayName: 'Price',
				name: 'price',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Asking price, or the monthly rent of a rental (the site’s Prix criterion)',
			},
		},
		['Prix'],
	),
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			property: {
				displayName: 'Surface',
				name: 'surface',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Living area in square metres (the site’s Surface criterion)',
			},
		},
		['Surface'],
	),
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			rules: [rule(VERSION_ONE_AS_CRITERIA, integer({ min: 0 }))],
			property: { displayName: 'Rooms', name: 'rooms', type: 'number', typeOptions: { minValue: 0 }, default: 0 },
		},
		['NbPieces', 'NbPiece'],
	),
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			property: { displayName: 'City', name: 'city', type: 'string', default: '' },
		},
		['Ville', 'VilleWeb'],
	),
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			property: { displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' },
		},
		['CodePostal', 'CodePostalWeb'],
	),
];

/** Version 1's Status: production's `Statut` criterion; `active` is `EnCours`, the status listings show under. */
export function statusField(operator?: string): FieldSpec {
	const field: FieldSpec = {
		in: 'body',
		placement: 'collection',
		values: VERSION_ONE_AS_CRITERIA,
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
			description: 'Sent as the site’s Statut criterion (Active is EnCours); another value with an expression',
		},
	};
	return versionOne(field, ['Statut'], {
		operator,
		codes: {
			active: ['EnCours'],
			archived: ['Archive', 'Archivé'],
			sold: ['Vendu'],
			under_offer: ['SousOffre', 'SousCompromis'],
		},
	});
}

/** The listing's reference: production's `model`. */
export const referenceField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	key: 'model',
	property: {
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		default: '',
		description: 'The agency’s own reference of the listing (the API’s model)',
	},
};

/** What a listing is written with: version 1's fields, the reference and the criteria rows. */
export function listingFields(spec: CriteriaSpec): FieldSpec[] {
	return [
		versionOne(
			{
				in: 'body',
				placement: 'collection',
				property: {
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					description: 'Headline of the listing (the site’s Titre criterion)',
				},
			},
			['Titre'],
		),
		referenceField,
		...PRODUCT_FEATURE_FIELDS,
		statusField(),
		criteriaField(spec),
	];
}

/** Version 1's price bounds: the Prix criterion, at least or at most. */
export const PRICE_RANGE_FIELDS: FieldSpec[] = [
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			convert: filterUnlessZeroOrOff,
			property: {
				displayName: 'Minimum Price',
				name: 'priceMin',
				type: 'number',
				default: 0,
				description: '0: no minimum',
			},
		},
		['Prix'],
		{ operator: 'SUPERIEUR' },
	),
	versionOne(
		{
			in: 'body',
			placement: 'collection',
			convert: filterUnlessZeroOrOff,
			property: {
				displayName: 'Maximum Price',
				name: 'priceMax',
				type: 'number',
				default: 0,
				description: '0: no maximum',
			},
		},
		['Prix'],
		{ operator: 'INFERIEUR' },
	),
];

/** Listings changed at or after a moment: production's `last_modified`, with `+00:00`. */
export const modifiedSinceField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	key: 'last_modified',
	convert: toOffsetDateTime,
	rules: [OFFSET_DATE_TIME],
	property: {
		displayName: 'Modified Since',
		name: 'updatedSince',
		type: 'dateTime',
		default: '',
		description: 'Only listings changed at or after this moment (a catch-up after downtime; the API prohibits polling)',
	},
};

/** How production sorts a search: by ID or by date, either way. */
export const SORT_FIELDS: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		setting: true,
		key: 'sort_type',
		values: PRODUCT_SEARCH,
		property: {
			displayName: 'Sort By',
			name: 'sortType',
			type: 'options',
			options: [
				{ name: 'Date', value: 'date', description: 'When the listing last changed' },
				{ name: 'ID', value: 'id' },
			],
			default: 'id',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		setting: true,
		key: 'sort_order',
		values: PRODUCT_SEARCH,
		property: {
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'asc' },
				{ name: 'Descending', value: 'desc' },
			],
			default: 'asc',
		},
	},
];

const FETCH_DESCRIPTION =
	'Related data to load with each property (the API\'s "fetch"): criteria, photos…; other values can be given with an expression';

/** `fetch` (spec section 4: "same values as search"): production's values by label (shared/relations.ts). */
const fetchField: FieldSpec = {
	in: 'query',
	placement: 'collection',
	setting: true,
	convert: commaList,
	values: guess('product fetch values beyond those production is seen to take'),
	versions: [2],
	property: {
		displayName: 'Related Data',
		name: 'fetch',
		type: 'multiOptions',
		options: PRODUCT_FETCHES,
		default: [],
		description: FETCH_DESCRIPTION,
	},
};

/** Version 1's Related Data: what 0.1.0's values are sent as (docs/assumptions.md). */
export const OLD_FETCHES = guess('0.1.0’s product fetch values are sent as production’s');

/** Version 1's values → production's (`criteria` → the four criteria groups); those without one are left out, with a hint. */
const versionOneFetch: Converter = (value) => {
	const given = listEntries(value);
	const fetch = productionFetches(given);
	const dropped = given.filter((entry) => FETCHES_OF_0_1_0[entry]?.length === 0);
	const notes = dropped.map((entry) => ({
		message: `has "${entry}", which production's fetch has no equivalent for: left out (${entry === 'lots' ? 'Property → Get Lots reads them' : 'Agency → Get reads it'})`,
		source: OLD_FETCHES,
	}));
	return { value: fetch.length ? fetch.join(',') : undefined, notes };
};

/** Version 1's Related Data: 0.1.0's values still read (and sent as production's), production's offered too. */
const versionOneFetchField: FieldSpec = {
	...fetchField,
	convert: versionOneFetch,
	versions: [1],
	property: {
		...fetchField.property,
		options: [
			...PRODUCT_FETCHES,
			...relationOptions(Object.keys(FETCHES_OF_0_1_0)).map((option) => ({
				...option,
				name: `${String(option.name)} (0.1.0)`,
			})),
		].sort((a, b) => a.name.localeCompare(b.name)),
	},
};

export const FETCH_FIELDS: FieldSpec[] = [fetchField, versionOneFetchField];
