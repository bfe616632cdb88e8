/** The site referentials (criteria, zones, groups, types...). Fixed: they do not depend on the seed. */
import type { CriterionDefinition, Timeframe, TimeRange, Zone } from '../model';
import type { Referentials } from '../store';

/** The action type under which an incoming lead (and its comment) is logged on the customer. */
export const LEAD_ACTION_TYPE_ID = 9;

/**
 * The XML keys the sandbox's own code reads criteria by (the seed, the energy label, the console).
 * The rooms criterion is spelled per site (`ROOMS_KEYS`), as production's sites spell it.
 */
export const CRITERION_KEYS = {
	price: 'Prix',
	surface: 'Surface',
	bedrooms: 'NbChambres',
	propertyType: 'TypeBien',
	transactionType: 'TypeTransaction',
	city: 'Ville',
	postalCode: 'CodePostal',
	dpeLetter: 'DPE',
	dpeValue: 'ConsoEnergie',
	gesLetter: 'GES',
	gesValue: 'EmissionGES',
	elevator: 'Ascenseur',
	garden: 'Jardin',
	floor: 'Etage',
	constructionYear: 'AnneeConstruction',
	heating: 'Chauffage',
	description: 'Descriptif',
	status: 'Statut',
	title: 'Titre',
	zone: 'Secteur',
} as const;

/** The status code under which a listing shows in the CRM (docs/assumptions.md "Production evidence"). */
export const SHOWN_STATUS = 'EnCours';

/** The rooms criterion's key and id per site: one site spells it `NbPieces`, the other `NbPiece`. */
export const ROOMS_KEYS: Readonly<Record<number, { xml: string; id: number }>> = {
	1: { xml: 'NbPieces', id: 3 },
	2: { xml: 'NbPiece', id: 65 },
};

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

/** A zone's code as the zone criterion's value (`Lyon 2e` → `Lyon2e`). */
export function zoneCode(zone: Pick<Zone, 'label'>): string {
	return zone.label
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9]/g, '');
}

const ALL_CATEGORIES = [1, 2, 3, 4, 5, 6];
const HOUSING = [1, 2, 6];
const BUILT = [1, 2, 4, 6];
const DPE_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

/** List values from `[code, label]` pairs, numbered from 1: writes carry the code, never the number. */
const coded = (entries: [string, string][]) =>
	entries.map(([model, label], index) => ({ id: index + 1, model, label }));
/** Labels numbered from 1, in the order given. */
const numbered = (labels: string[]) => labels.map((label, index) => ({ id: index + 1, label }));
const letters = () => coded(DPE_LETTERS.map((letter) => [letter, letter]));

/** Property types: the code of each, and the category (1 to 6) that groups its criteria. */
export const PROPERTY_TYPE_VALUES: [string, string][] = [
	['Appartement', 'Appartement'],
	['Maison', 'Maison'],
	['Terrain', 'Terrain'],
	['LocalCommercial', 'Local commercial'],
	['Parking', 'Parking / box'],
	['Immeuble', 'Immeuble'],
];
const TRANSACTION_TYPE_VALUES: [string, string][] = [
	['Vente', 'Vente'],
	['Location', 'Location'],
];
/** Statuses of a listing; only `EnCours` shows in the CRM. */
export const STATUS_VALUES: [string, string][] = [
	[SHOWN_STATUS, 'En cours'],
	['SousOffre', 'Sous offre'],
	['SousCompromis', 'Sous compromis'],
	['Vendu', 'Vendu'],
	['Loue', 'Loué'],
	['Archive', 'Archivé'],
];
export const HEATING_VALUES: [string, string][] = [
	['Gaz', 'Gaz'],
	['Electrique', 'Électrique'],
	['PompeAChaleur', 'Pompe à chaleur'],
	['Bois', 'Bois / granulés'],
	['Collectif', 'Collectif'],
];

type Definition = Pick<CriterionDefinition, 'id' | 'xml' | 'label' | 'short_label' | 'type'> &
	Partial<CriterionDefinition>;

function criterion(definition: Definition): CriterionDefinition {
	return {
		is_activated: true,
		is_custom: false,
		is_required: false,
		is_public: true,
		category_ids: ALL_CATEGORIES,
		fulltext: false,
		values: [],
		...definition,
	};
}

const K = CRITERION_KEYS;

function productCriteria(siteId: number, rooms: { xml: string; id: number }): CriterionDefinition[] {
	const zones = ZONES.filter((zone) => zone.site_id === siteId);
	return [
		criterion({ id: 1, xml: K.price, label: 'Prix', short_label: 'Prix', type: 'NUMBER' }),
		criterion({ id: 2, xml: K.surface, label: 'Surface habitable (m²)', short_label: 'Surface', type: 'NUMBER' }),
		criterion({
			id: 4,
			xml: K.bedrooms,
			label: 'Nombre de chambres',
			short_label: 'Chambres',
			type: 'NUMBER',
			category_ids: HOUSING,
		}),
		criterion({
			id: 5,
			xml: K.propertyType,
			label: 'Type de bien',
			short_label: 'Type',
			type: 'UNIQUE',
			is_required: true,
			values: coded(PROPERTY_TYPE_VALUES),
		}),
		criterion({
			id: 6,
			xml: K.transactionType,
			label: 'Type de transaction',
			short_label: 'Transaction',
			type: 'UNIQUE',
			is_required: true,
			values: coded(TRANSACTION_TYPE_VALUES),
		}),
		criterion({ id: 7, xml: K.city, label: 'Ville', short_label: 'Ville', type: 'TEXT' }),
		criterion({ id: 8, xml: K.postalCode, label: 'Code postal', short_label: 'CP', type: 'TEXT' }),
		criterion({
			id: 9,
			xml: K.dpeLetter,
			label: 'Classe énergie (DPE)',
			short_label: 'DPE',
			type: 'UNIQUE',
			category_ids: BUILT,
			values: letters(),
		}),
		criterion({
			id: 10,
			xml: K.dpeValue,
			label: 'Consommation énergétique (kWh/m²/an)',
			short_label: 'Conso.',
			type: 'NUMBER',
			category_ids: BUILT,
		}),
		criterion({
			id: 11,
			xml: K.gesLetter,
			label: 'Émissions de gaz à effet de serre (GES)',
			short_label: 'GES',
			type: 'UNIQUE',
			category_ids: BUILT,
			values: letters(),
		}),
		criterion({
			id: 12,
			xml: K.gesValue,
			label: 'Émissions (kg CO2/m²/an)',
			short_label: 'CO2',
			type: 'NUMBER',
			category_ids: BUILT,
		}),
		criterion({ id: 13, xml: K.elevator, label: 'Ascenseur', short_label: 'Asc.', type: 'FLAG', category_ids: [1, 6] }),
		criterion({
			id: 14,
			xml: 'PlaceParking',
			label: 'Place de parking',
			short_label: 'Parking',
			type: 'FLAG',
			category_ids: HOUSING,
		}),
		criterion({ id: 15, xml: K.garden, label: 'Jardin', short_label: 'Jardin', type: 'FLAG', category_ids: [2] }),
		criterion({ id: 16, xml: K.floor, label: 'Étage', short_label: 'Étage', type: 'NUMBER', category_ids: [1, 4] }),
		criterion({
			id: 17,
			xml: K.constructionYear,
			label: 'Année de construction',
			short_label: 'Année',
			type: 'NUMBER',
			category_ids: BUILT,
		}),
		criterion({
			id: 18,
			xml: K.heating,
			label: 'Mode de chauffage',
			short_label: 'Chauffage',
			type: 'UNIQUE',
			category_ids: BUILT,
			values: coded(HEATING_VALUES),
		}),
		criterion({
			id: 19,
			xml: K.description,
			label: 'Descriptif',
			short_label: 'Descriptif',
			type: 'TEXT',
			fulltext: true,
		}),
		criterion({
			id: 20,
			xml: 'Exposition',
			label: 'Exposition',
			short_label: 'Expo.',
			type: 'MULTIPLE',
			is_activated: false,
			category_ids: HOUSING,
			values: coded([
				['Nord', 'Nord'],
				['Sud', 'Sud'],
				['Est', 'Est'],
				['Ouest', 'Ouest'],
			]),
		}),
		criterion({
			id: 21,
			xml: K.status,
			label: 'Statut',
			short_label: 'Statut',
			type: 'UNIQUE',
			values: coded(STATUS_VALUES),
		}),
		criterion({ id: 22, xml: K.title, label: 'Titre de l’annonce', short_label: 'Titre', type: 'TEXT' }),
		criterion({
			id: 23,
			xml: 'DateDisponibilite',
			label: 'Date de disponibilité',
			short_label: 'Disponible le',
			type: 'DATE',
		}),
		criterion({
			id: 30,
			xml: K.zone,
			label: 'Secteur',
			short_label: 'Secteur',
			type: 'MULTIPLE',
			values: zones.map((zone) => ({ id: zone.id, model: zoneCode(zone), label: zone.label })),
		}),
		criterion({
			id: 101,
			xml: 'VueDegagee',
			label: 'Vue dégagée',
			short_label: 'Vue',
			type: 'FLAG',
			is_custom: true,
			is_public: false,
			category_ids: HOUSING,
		}),
		criterion({
			id: rooms.id,
			xml: rooms.xml,
			label: 'Nombre de pièces',
			short_label: 'Pièces',
			type: 'NUMBER',
			category_ids: HOUSING,
		}),
	].sort((a, b) => a.id - b.id);
}

/**
 * The criteria a buyer's search request takes (`GET /criterias/search-requests`): the site's XML keys,
 * typed; a list criterion takes the value codes of the product criterion of the same key.
 */
function searchRequestCriteria(rooms: { xml: string; id: number }): CriterionDefinition[] {
	return [
		criterion({ id: 1, xml: K.price, label: 'Budget', short_label: 'Budget', type: 'NUMBER' }),
		criterion({ id: 2, xml: K.surface, label: 'Surface (m²)', short_label: 'Surface', type: 'NUMBER' }),
		criterion({
			id: 4,
			xml: K.bedrooms,
			label: 'Chambres',
			short_label: 'Chambres',
			type: 'NUMBER',
			category_ids: HOUSING,
		}),
		criterion({ id: 5, xml: K.propertyType, label: 'Type de bien', short_label: 'Type', type: 'UNIQUE' }),
		criterion({
			id: 6,
			xml: K.transactionType,
			label: 'Type de transaction',
			short_label: 'Transaction',
			type: 'UNIQUE',
		}),
		criterion({ id: 7, xml: 'CPVille', label: 'Code postal ou ville', short_label: 'Lieu', type: 'TEXT' }),
		criterion({
			id: 13,
			xml: K.elevator,
			label: 'Ascenseur souhaité',
			short_label: 'Asc.',
			type: 'FLAG',
			category_ids: [1, 6],
		}),
		criterion({
			id: 15,
			xml: K.garden,
			label: 'Jardin souhaité',
			short_label: 'Jardin',
			type: 'FLAG',
			category_ids: [2],
		}),
		criterion({ id: 30, xml: K.zone, label: 'Secteurs recherchés', short_label: 'Secteurs', type: 'MULTIPLE' }),
		criterion({
			id: rooms.id,
			xml: rooms.xml,
			label: 'Pièces',
			short_label: 'Pièces',
			type: 'NUMBER',
			category_ids: HOUSING,
		}),
	].sort((a, b) => a.id - b.id);
}

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
		productCriteria: new Map(
			Object.entries(ROOMS_KEYS).map(([siteId, rooms]) => [Number(siteId), productCriteria(Number(siteId), rooms)]),
		),
		searchRequestCriteria: new Map(
			Object.entries(ROOMS_KEYS).map(([siteId, rooms]) => [Number(siteId), searchRequestCriteria(rooms)]),
		),
		categories: PROPERTY_TYPE_VALUES.map(([code, label], index) => ({ id: index + 1, label, property_type: code })),
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
