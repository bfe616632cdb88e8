import { FETCHES_OF_0_1_0, PRODUCT_FETCHES, productionFetches, relationOptions } from '../../../../shared/relations';
import { listEntries } from '../../../../shared/values';
import { commaList, filterUnlessZeroOrOff, toOffsetDateTime } from '../../convert';
import { OFFSET_DATE_TIME } from '../../fields';
import { choices } from '../../../../shared/choices';
import { evidence, guess } from '../../rules';
import type { Converter, FieldSpec } from '../../types';
import { versionOne } from './fields';

/**
 * What a property search filters and sorts by besides its criteria, and the related data a read
 * loads (`fetch`), as production takes them; version 1 keeps 0.1.0's price bounds and fetch values.
 */

/** Product search as production takes it (the n8n node generated from the vendor's reference, and the lead router's adapter). */
export const PRODUCT_SEARCH = evidence(
	'product search: criterias with an operator each, model, count (at most 100), cursor, sort_type, sort_order, last_modified',
);

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
			options: choices({ Ascending: 'asc', Descending: 'desc' }),
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
