/** The site referentials (criteria, zones, groups, types...). Fixed: they do not depend on the seed. */
import type { CriterionDefinition, ListValueId, Timeframe, TimeRange, Zone } from '../model';
import type { Referentials } from '../store';

export const ZONE_CRITERION_ID = 30;
/** The action type under which an incoming lead (and its comment) is logged on the customer. */
export const LEAD_ACTION_TYPE_ID = 9;
export const DPE_LETTER_CRITERION = 9;
export const DPE_VALUE_CRITERION = 10;
export const GES_LETTER_CRITERION = 11;
export const GES_VALUE_CRITERION = 12;

const ZONES: Zone[] = [
	{ id: 1, site_id: 1, label: 'Lyon', postal_code: '69000', type: 'city', parent_id: null },
	{ id: 2, site_id: 1, label: 'Lyon 2e', postal_code: '69002', type: 'district', parent_id: 1 },
	{ id: 3, site_id: 1, label: 'Lyon 3e', postal_code: '69003', type: 'district', parent_id: 1 },
	{ id: 4, site_id: 1, label: 'Lyon 6e', postal_code: '69006', type: 'district', parent_id: 1 },
	{ id: 5, site_id: 1, label: 'Lyon 7e', postal_code: '69007', type: 'district', parent_id: 1 },
	{ id: 6, site_id: 1, label: 'Villeurbanne', postal_code: '69100', type: 'city', parent_id: null },
	{ id: 7, site_id: 1, label: 'Caluire-et-Cuire', postal_code: '69300', type: 'city', parent_id: null },
	{ id: 8, site_id: 1, label: 'Annecy', postal_code: '74000', type: 'city', parent_id: null },
	{ id: 9, site_id: 1, label: 'Annecy-le-Vieux', postal_code: '74940', type: 'district', parent_id: 8 },
	{ id: 10, site_id: 1, label: 'Seynod', postal_code: '74600', type: 'district', parent_id: 8 },
	{ id: 11, site_id: 2, label: 'Bordeaux', postal_code: '33000', type: 'city', parent_id: null },
	{ id: 12, site_id: 2, label: 'Bordeaux Chartrons', postal_code: '33300', type: 'district', parent_id: 11 },
	{ id: 13, site_id: 2, label: 'Mérignac', postal_code: '33700', type: 'city', parent_id: null },
	{ id: 14, site_id: 2, label: 'Pessac', postal_code: '33600', type: 'city', parent_id: null },
	{ id: 15, site_id: 2, label: 'Talence', postal_code: '33400', type: 'city', parent_id: null },
];

const ALL_CATEGORIES = [1, 2, 3, 4, 5, 6];
const HOUSING = [1, 2, 6];
const BUILT = [1, 2, 4, 6];
const DPE_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

const labelled = (entries: [ListValueId, string][]) => entries.map(([id, label]) => ({ id, label }));
/** Labels numbered from 1, in the order given. */
const numbered = (labels: string[]) => labels.map((label, index) => ({ id: index + 1, label }));
const letters = () => DPE_LETTERS.map((letter) => ({ id: letter, label: letter }));
const zoneValues = () => ZONES.map((zone) => ({ id: zone.id, label: zone.label }));

const PROPERTY_TYPE_VALUES: [ListValueId, string][] = [
	['apartment', 'Appartement'],
	['house', 'Maison'],
	['land', 'Terrain'],
	['commercial', 'Local commercial'],
	['parking', 'Parking / box'],
	['building', 'Immeuble'],
];
const TRANSACTION_TYPE_VALUES: [ListValueId, string][] = [
	['sale', 'Vente'],
	['rental', 'Location'],
];

type Definition = Pick<CriterionDefinition, 'id' | 'xml_id' | 'label' | 'short_label' | 'type'> &
	Partial<CriterionDefinition>;

function criterion(definition: Definition): CriterionDefinition {
	return {
		is_activated: true,
		is_custom: false,
		is_required: false,
		is_public: true,
		category_ids: ALL_CATEGORIES,
		values: [],
		...definition,
	};
}

/** Sale or rental: a criterion of products (required) and of search requests. */
const TRANSACTION_TYPE: Definition = {
	id: 6,
	xml_id: 'transaction_type',
	label: 'Type de transaction',
	short_label: 'Transaction',
	type: 'list',
	values: labelled(TRANSACTION_TYPE_VALUES),
};

const PRODUCT_CRITERIA: CriterionDefinition[] = [
	criterion({ id: 1, xml_id: 'price', label: 'Prix', short_label: 'Prix', type: 'number', is_required: true }),
	criterion({ id: 2, xml_id: 'surface', label: 'Surface habitable (m²)', short_label: 'Surface', type: 'number' }),
	criterion({
		id: 3,
		xml_id: 'rooms',
		label: 'Nombre de pièces',
		short_label: 'Pièces',
		type: 'number',
		category_ids: HOUSING,
	}),
	criterion({
		id: 4,
		xml_id: 'bedrooms',
		label: 'Nombre de chambres',
		short_label: 'Chambres',
		type: 'number',
		category_ids: HOUSING,
	}),
	criterion({
		id: 5,
		xml_id: 'property_type',
		label: 'Type de bien',
		short_label: 'Type',
		type: 'list',
		is_required: true,
		values: labelled(PROPERTY_TYPE_VALUES),
	}),
	criterion({ ...TRANSACTION_TYPE, is_required: true }),
	criterion({ id: 7, xml_id: 'city', label: 'Ville', short_label: 'Ville', type: 'text' }),
	criterion({ id: 8, xml_id: 'postal_code', label: 'Code postal', short_label: 'CP', type: 'text' }),
	criterion({
		id: 9,
		xml_id: 'dpe_letter',
		label: 'Classe énergie (DPE)',
		short_label: 'DPE',
		type: 'list',
		category_ids: BUILT,
		values: letters(),
	}),
	criterion({
		id: 10,
		xml_id: 'dpe_value',
		label: 'Consommation énergétique (kWh/m²/an)',
		short_label: 'Conso.',
		type: 'number',
		category_ids: BUILT,
	}),
	criterion({
		id: 11,
		xml_id: 'ges_letter',
		label: 'Émissions de gaz à effet de serre (GES)',
		short_label: 'GES',
		type: 'list',
		category_ids: BUILT,
		values: letters(),
	}),
	criterion({
		id: 12,
		xml_id: 'ges_value',
		label: 'Émissions (kg CO2/m²/an)',
		short_label: 'CO2',
		type: 'number',
		category_ids: BUILT,
	}),
	criterion({
		id: 13,
		xml_id: 'elevator',
		label: 'Ascenseur',
		short_label: 'Asc.',
		type: 'boolean',
		category_ids: [1, 6],
	}),
	criterion({
		id: 14,
		xml_id: 'parking',
		label: 'Place de parking',
		short_label: 'Parking',
		type: 'boolean',
		category_ids: HOUSING,
	}),
	criterion({ id: 15, xml_id: 'garden', label: 'Jardin', short_label: 'Jardin', type: 'boolean', category_ids: [2] }),
	criterion({ id: 16, xml_id: 'floor', label: 'Étage', short_label: 'Étage', type: 'number', category_ids: [1, 4] }),
	criterion({
		id: 17,
		xml_id: 'construction_year',
		label: 'Année de construction',
		short_label: 'Année',
		type: 'number',
		category_ids: BUILT,
	}),
	criterion({
		id: 18,
		xml_id: 'heating',
		label: 'Mode de chauffage',
		short_label: 'Chauffage',
		type: 'list',
		category_ids: BUILT,
		values: labelled([
			['gas', 'Gaz'],
			['electric', 'Électrique'],
			['heat_pump', 'Pompe à chaleur'],
			['wood', 'Bois / granulés'],
			['collective', 'Collectif'],
		]),
	}),
	criterion({ id: 19, xml_id: 'description', label: 'Descriptif', short_label: 'Descriptif', type: 'text' }),
	criterion({
		id: 20,
		xml_id: 'exposure',
		label: 'Exposition',
		short_label: 'Expo.',
		type: 'list',
		is_activated: false,
		category_ids: HOUSING,
		values: labelled([
			['north', 'Nord'],
			['south', 'Sud'],
			['east', 'Est'],
			['west', 'Ouest'],
		]),
	}),
	criterion({
		id: ZONE_CRITERION_ID,
		xml_id: 'zone',
		label: 'Secteur',
		short_label: 'Secteur',
		type: 'multi_list',
		values: zoneValues(),
	}),
	criterion({
		id: 101,
		xml_id: 'clear_view',
		label: 'Vue dégagée',
		short_label: 'Vue',
		type: 'boolean',
		is_custom: true,
		is_public: false,
		category_ids: HOUSING,
	}),
];

const SEARCH_REQUEST_CRITERIA: CriterionDefinition[] = [
	criterion({ id: 1, xml_id: 'budget_min', label: 'Budget minimum', short_label: 'Budget min', type: 'number' }),
	criterion({ id: 2, xml_id: 'budget_max', label: 'Budget maximum', short_label: 'Budget max', type: 'number' }),
	criterion({
		id: 3,
		xml_id: 'surface_min',
		label: 'Surface minimum (m²)',
		short_label: 'Surface min',
		type: 'number',
	}),
	criterion({
		id: 4,
		xml_id: 'rooms_min',
		label: 'Pièces minimum',
		short_label: 'Pièces min',
		type: 'number',
		category_ids: HOUSING,
	}),
	criterion({
		id: 5,
		xml_id: 'property_type',
		label: 'Types de bien',
		short_label: 'Types',
		type: 'multi_list',
		values: labelled(PROPERTY_TYPE_VALUES),
	}),
	criterion(TRANSACTION_TYPE),
	criterion({
		id: 7,
		xml_id: 'bedrooms_min',
		label: 'Chambres minimum',
		short_label: 'Chambres min',
		type: 'number',
		category_ids: HOUSING,
	}),
	criterion({
		id: 13,
		xml_id: 'elevator',
		label: 'Ascenseur souhaité',
		short_label: 'Asc.',
		type: 'boolean',
		category_ids: [1, 6],
	}),
	criterion({
		id: 15,
		xml_id: 'garden',
		label: 'Jardin souhaité',
		short_label: 'Jardin',
		type: 'boolean',
		category_ids: [2],
	}),
	criterion({
		id: ZONE_CRITERION_ID,
		xml_id: 'zone',
		label: 'Secteurs recherchés',
		short_label: 'Secteurs',
		type: 'multi_list',
		values: zoneValues(),
	}),
];

function hours(startHours: number, startMinutes: number, endHours: number, endMinutes: number): TimeRange {
	return { start: { hours: startHours, minutes: startMinutes }, end: { hours: endHours, minutes: endMinutes } };
}

function weekTimeframe(weekday: TimeRange[], saturday: TimeRange[], closedOn: ('MO' | 'SA')[] = []): Timeframe {
	return {
		MO: closedOn.includes('MO') ? [] : weekday,
		TU: weekday,
		WE: weekday,
		TH: weekday,
		FR: weekday,
		SA: closedOn.includes('SA') ? [] : saturday,
		SU: [],
	};
}

export function buildReferentials(): Referentials {
	const splitDay = [hours(9, 0, 12, 0), hours(14, 0, 19, 0)];
	return {
		productCriteria: PRODUCT_CRITERIA,
		searchRequestCriteria: SEARCH_REQUEST_CRITERIA,
		categories: PROPERTY_TYPE_VALUES.map(([propertyType, label], index) => ({
			id: index + 1,
			label,
			property_type: String(propertyType),
		})),
		zones: ZONES,
		customerGroups: numbered([
			'Acquéreurs actifs',
			'Vendeurs',
			'Investisseurs',
			'Locataires',
			'Clients VIP',
			'Lettre d’information',
		]),
		customerOrigins: numbered([
			'Site web de l’agence',
			'Portail immobilier',
			'Passage en vitrine',
			'Recommandation',
			'Boîtage',
			'Réseaux sociaux',
			'API partenaire',
		]),
		actionTypes: [
			{ id: 1, label: 'Appel téléphonique', show_in_history: true },
			{ id: 2, label: 'Visite', show_in_history: true },
			{ id: 3, label: 'Email envoyé', show_in_history: true },
			{ id: 4, label: 'SMS envoyé', show_in_history: true },
			{ id: 5, label: 'Rendez-vous en agence', show_in_history: true },
			{ id: 6, label: 'Synchronisation technique', show_in_history: false },
			{ id: 7, label: 'Relance automatique', show_in_history: false },
			{ id: 8, label: 'Estimation', show_in_history: true },
			{ id: LEAD_ACTION_TYPE_ID, label: 'Demande reçue (lead)', show_in_history: true },
		],
		userGroups: [
			{ id: 1, label: 'Administrateur', level: 100 },
			{ id: 2, label: 'Responsable d’agence', level: 50 },
			{ id: 3, label: 'Négociateur', level: 10 },
			{ id: 4, label: 'Assistant(e)', level: 5 },
		],
		userTypes: numbered([
			'Agent commercial',
			'Négociateur salarié',
			'Assistant(e) commercial(e)',
			'Directeur d’agence',
			'Gestionnaire locatif',
		]),
		genders: [
			{ code: 'M', label: 'Monsieur', is_entity: false },
			{ code: 'MME', label: 'Madame', is_entity: false },
			{ code: 'M_MME', label: 'Monsieur et Madame', is_entity: false },
			{ code: 'SOC', label: 'Société', is_entity: true },
			{ code: 'SCI', label: 'Société civile immobilière', is_entity: true },
		],
		configLists: [
			{
				id: 1,
				label: 'Motifs de perte de mandat',
				values: numbered(['Vendu par un confrère', 'Vendu par le propriétaire', 'Projet abandonné', 'Prix trop élevé']),
			},
			{ id: 2, label: 'Modes de financement', values: numbered(['Prêt immobilier', 'Comptant', 'Prêt relais']) },
			{
				id: 3,
				label: 'États du bien',
				values: numbered(['Neuf', 'Très bon état', 'Bon état', 'Travaux à prévoir', 'À rénover']),
			},
			{ id: 4, label: 'Types de mandat', values: numbered(['Simple', 'Exclusif', 'Semi-exclusif']) },
		],
		eventTypes: [
			{ id: '1', key: 'VISIT', label: 'Visite' },
			{ id: '2', key: 'APPOINTMENT', label: 'Rendez-vous' },
			{ id: '3', key: 'VALUATION', label: 'Estimation' },
			{ id: '4', key: 'SIGNATURE', label: 'Signature' },
			{ id: '5', key: 'OPEN_HOUSE', label: 'Portes ouvertes' },
			{ id: '6', key: 'OTHER', label: 'Autre' },
		],
		permanences: new Map([
			[101, weekTimeframe(splitDay, [hours(9, 30, 12, 30)])],
			[102, weekTimeframe(splitDay, [hours(10, 0, 13, 0), hours(14, 0, 17, 0)], ['MO'])],
			[103, weekTimeframe([hours(9, 0, 12, 30), hours(14, 0, 18, 30)], [], ['SA'])],
			[201, weekTimeframe([hours(9, 0, 18, 0)], [hours(9, 0, 12, 0)])],
		]),
	};
}
