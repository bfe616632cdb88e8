/** Word lists that make the demo data look like a French real-estate network. */

export const MALE_FIRST_NAMES = [
	'Julien',
	'Thomas',
	'Nicolas',
	'Maxime',
	'Antoine',
	'Hugo',
	'Lucas',
	'Mathieu',
	'Pierre',
	'Alexandre',
	'Romain',
	'Guillaume',
	'Olivier',
	'Laurent',
	'Philippe',
	'Sébastien',
	'Vincent',
	'Damien',
	'François',
	'Benoît',
];

export const FEMALE_FIRST_NAMES = [
	'Camille',
	'Julie',
	'Marie',
	'Sophie',
	'Claire',
	'Laura',
	'Émilie',
	'Sarah',
	'Manon',
	'Chloé',
	'Isabelle',
	'Nathalie',
	'Céline',
	'Aurélie',
	'Hélène',
	'Élodie',
	'Pauline',
	'Anne',
	'Lucie',
	'Margaux',
];

export const LAST_NAMES = [
	'Martin',
	'Bernard',
	'Dubois',
	'Thomas',
	'Robert',
	'Richard',
	'Petit',
	'Durand',
	'Leroy',
	'Moreau',
	'Simon',
	'Laurent',
	'Lefebvre',
	'Michel',
	'Garcia',
	'David',
	'Bertrand',
	'Roux',
	'Vincent',
	'Fournier',
	'Morel',
	'Girard',
	'André',
	'Lefèvre',
	'Mercier',
	'Dupont',
	'Lambert',
	'Bonnet',
	'François',
	'Martinez',
	'Legrand',
	'Garnier',
	'Faure',
	'Rousseau',
	'Blanc',
	'Guérin',
	'Muller',
	'Henry',
	'Roussel',
	'Nicolas',
	'Perrin',
	'Morin',
	'Mathieu',
	'Clément',
	'Gauthier',
	'Dumont',
	'Lopez',
	'Fontaine',
	'Chevalier',
	'Robin',
];

export const COMPANY_NAMES = [
	'SCI Les Tilleuls',
	'SCI du Parc',
	'Immo Invest Rhône',
	'SAS Patrimoine Alpin',
	'SCI Bellecour',
	'SARL Les Chartrons',
];

export const STREETS = [
	'rue de la République',
	'avenue Jean Jaurès',
	'rue Victor Hugo',
	'boulevard des Belges',
	'rue Garibaldi',
	'cours Lafayette',
	'rue des Marronniers',
	'quai Saint-Vincent',
	'place Bellecour',
	'rue Sainte-Claire',
	'avenue de Genève',
	'rue Carnot',
	'chemin des Vignes',
	'impasse des Lilas',
	'rue du Pâquier',
];

/** Where the demo listings are, by agency; `zoneId` refers to the zone referential. */
export interface Place {
	agencyId: number;
	zoneId: number;
	area: string;
	city: string;
	postalCode: string;
	pricePerSquareMetre: number;
}

export const PLACES: Place[] = [
	{ agencyId: 101, zoneId: 2, area: 'Lyon 2e', city: 'Lyon', postalCode: '69002', pricePerSquareMetre: 6200 },
	{ agencyId: 101, zoneId: 4, area: 'Lyon 6e', city: 'Lyon', postalCode: '69006', pricePerSquareMetre: 6500 },
	{
		agencyId: 101,
		zoneId: 7,
		area: 'Caluire-et-Cuire',
		city: 'Caluire-et-Cuire',
		postalCode: '69300',
		pricePerSquareMetre: 4600,
	},
	{
		agencyId: 102,
		zoneId: 6,
		area: 'Villeurbanne',
		city: 'Villeurbanne',
		postalCode: '69100',
		pricePerSquareMetre: 4300,
	},
	{ agencyId: 102, zoneId: 3, area: 'Lyon 3e', city: 'Lyon', postalCode: '69003', pricePerSquareMetre: 5200 },
	{ agencyId: 102, zoneId: 5, area: 'Lyon 7e', city: 'Lyon', postalCode: '69007', pricePerSquareMetre: 5000 },
	{ agencyId: 103, zoneId: 8, area: 'Annecy', city: 'Annecy', postalCode: '74000', pricePerSquareMetre: 5800 },
	{ agencyId: 103, zoneId: 9, area: 'Annecy-le-Vieux', city: 'Annecy', postalCode: '74940', pricePerSquareMetre: 6100 },
	{ agencyId: 103, zoneId: 10, area: 'Seynod', city: 'Annecy', postalCode: '74600', pricePerSquareMetre: 4400 },
	{ agencyId: 201, zoneId: 11, area: 'Bordeaux', city: 'Bordeaux', postalCode: '33000', pricePerSquareMetre: 4800 },
	{ agencyId: 201, zoneId: 12, area: 'Chartrons', city: 'Bordeaux', postalCode: '33300', pricePerSquareMetre: 5300 },
	{ agencyId: 201, zoneId: 13, area: 'Mérignac', city: 'Mérignac', postalCode: '33700', pricePerSquareMetre: 3900 },
	{ agencyId: 201, zoneId: 14, area: 'Pessac', city: 'Pessac', postalCode: '33600', pricePerSquareMetre: 3600 },
	{ agencyId: 201, zoneId: 15, area: 'Talence', city: 'Talence', postalCode: '33400', pricePerSquareMetre: 3800 },
];

/** Lowercase ASCII for e-mail addresses: "Émilie Lefèvre" gives "emilie" and "lefevre". */
export function slug(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}
