import { criteriaField, sentAsCriterion } from '../../criteria';
import { titleField } from '../../fields';
import { choices } from '../../../../shared/choices';
import { guess, integer, rule } from '../../rules';
import type { INodeProperties } from 'n8n-workflow';

import type { CriteriaSpec, FieldSpec, OutputKeys, RuleSource } from '../../types';

/**
 * A property as production models it (docs/assumptions.md "Production evidence"): its agency, its
 * reference (`model`) and criteria of the site; price, type, surface, rooms, status and town are
 * criteria. Version 1 keeps 0.1.0's Transaction Type, Property Type, Price… and sends each as the
 * criterion it is; version 2 offers the criteria themselves, chosen by label.
 */

/** Version 1's product fields: the criteria they are sent as, and the codes of their options (our guess). */
const VERSION_ONE_AS_CRITERIA = guess('version 1 product fields are sent as criteria: their XML keys and codes');

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
export function versionOne(
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
		options: choices({ Rental: 'rental', Sale: 'sale' }),
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
			options: choices({
				Apartment: 'apartment',
				Building: 'building',
				Commercial: 'commercial',
				House: 'house',
				Land: 'land',
				Parking: 'parking',
			}),
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
			options: choices({ Active: 'active', Archived: 'archived', Sold: 'sold', 'Under Offer': 'under_offer' }),
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
		versionOne(titleField('Headline of the listing (the site’s Titre criterion)'), ['Titre']),
		referenceField,
		...PRODUCT_FEATURE_FIELDS,
		statusField(),
		criteriaField(spec),
	];
}
