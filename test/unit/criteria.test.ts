import type { IDataObject } from 'n8n-workflow';

import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { siteCriteriaOf } from '../../nodes/AgencyCrm/actions/siteCriteria';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import { criteriaServer, siteCriteria } from '../support/criteriaSite';
import { fakeContext } from '../support/fakeN8n';

/**
 * Each wire body that carries criteria, as production takes them (docs/assumptions.md "Production
 * evidence"): the criterion by the site's XML key, a list value by its `model` code, an operator on
 * searches, values as text on searches and search requests; what the user gave by label or id mapped
 * with a notice, what the site does not list sent as given with a hint.
 */

interface Run {
	body: IDataObject;
	notices: string[];
	hints: string[];
	calls: string[];
}

async function sent(
	resource: string,
	operation: string,
	parameters: IDataObject,
	{ typeVersion = 2, server = criteriaServer() } = {},
): Promise<Run> {
	const endpoint = findEndpoint(resource, operation)!;
	const context = fakeContext({
		parameters: { resource, operation, ...parameters },
		typeVersion,
		timezone: 'UTC',
		httpRequestWithAuthentication: server.httpRequestWithAuthentication,
	}).execute;
	const request = await prepareRequest(context, endpoint, 0, await siteCriteriaOf(context, 1));
	return {
		body: request.body,
		notices: request.notices,
		hints: request.hints.map((hint) => `${hint.field} ${hint.message}`),
		calls: server.calls,
	};
}

/** Criteria rows as the editor saves them. */
const rows = (...criteria: IDataObject[]) => ({ criterion: criteria });

/** A property create for agency 101 with these criteria rows. */
const created = (...criteria: IDataObject[]) =>
	sent('product', 'create', { agencyId: '101', additionalFields: { criteria: rows(...criteria) } });

describe('property create', () => {
	test('criteria chosen by label travel as {id: XML key, value}: a list value as its code, a number as a number', async () => {
		const run = await sent('product', 'create', {
			agencyId: { __rl: true, mode: 'id', value: '101' },
			additionalFields: {
				reference: 'REF-7',
				criteria: rows(
					{ id: 'TypeBien', listValue: 'Appartement' },
					{ id: 'Prix', value: '250000' },
					{ id: 'NbPieces', value: '3' },
					{ id: 'Statut', listValue: 'EnCours' },
					{ id: 'Ascenseur', value: 'true' },
					{ id: 'DateDisponibilite', value: '2026-03-01T10:00:00Z' },
				),
			},
		});
		expect(run.body).toEqual({
			agency_id: 101,
			model: 'REF-7',
			criteria: [
				{ id: 'TypeBien', value: 'Appartement' },
				{ id: 'Prix', value: 250000 },
				{ id: 'NbPieces', value: 3 },
				{ id: 'Statut', value: 'EnCours' },
				{ id: 'Ascenseur', value: true },
				{ id: 'DateDisponibilite', value: '2026-03-01' },
			],
		});
		expect(run.notices).toEqual([]);
		expect(run.hints).toEqual([]);
		// The referential once, then the values of each list criterion used, once.
		expect(run.calls).toEqual([
			'GET /criterias/product/all',
			'GET /criterias/product/5/values',
			'GET /criterias/product/21/values',
		]);
	});

	test('a label or a value id is sent as its code, a criterion named by label or id as its XML key, each with a notice', async () => {
		const run = await created(
			{ id: 'Type de bien', value: 'Local commercial' },
			{ id: '21', value: '1' },
			{ id: 'Nombre de pièces', value: '4' },
		);
		expect(run.body.criteria).toEqual([
			{ id: 'TypeBien', value: 'LocalCommercial' },
			{ id: 'Statut', value: 'EnCours' },
			{ id: 'NbPieces', value: 4 },
		]);
		expect(run.notices).toEqual([
			'"Criteria" row 1: "Type de bien" is the label of the criterion TypeBien',
			'"Criteria" row 1: "Local commercial" is sent as TypeBien\'s code LocalCommercial',
			'"Criteria" row 2: 1 is the id of Statut\'s value EnCours; production takes the code, so it is sent',
			'"Criteria" row 3: "Nombre de pièces" is the label of the criterion NbPieces',
		]);
	});

	test('a code, a criterion or a number the site does not list is sent as given, with a hint', async () => {
		const run = await created(
			{ id: 'TypeBien', value: 'Chateau' },
			{ id: 'Piscine', value: 'true' },
			{ id: 'Prix', value: 'cheap' },
			{ id: 20, value: 'Nord' },
			{ id: 'Statut', value: 'EnCours' },
		);
		expect(run.body.criteria).toEqual([
			{ id: 'TypeBien', value: 'Chateau' },
			{ id: 'Piscine', value: true },
			{ id: 'Prix', value: 'cheap' },
			{ id: 'Exposition', value: ['Nord'] },
			{ id: 'Statut', value: 'EnCours' },
		]);
		expect(run.hints).toEqual([
			'"Criteria" row 1 "Chateau" is not a value the site lists for TypeBien (Appartement, Maison, LocalCommercial)',
			'"Criteria" row 2 names Piscine, which is not a criterion the site lists',
			'"Criteria" row 3 "cheap" is not a number, which Prix (NUMBER) takes',
			'"Criteria" row 4 names Exposition, which is not active on this site',
		]);
	});

	test('a new listing whose Statut is not EnCours is told it will not show in the CRM; an update is not', async () => {
		const sold = await created({ id: 'Statut', listValue: 'Vendu' });
		expect(sold.notices).toEqual([
			'The new listing will not show in the CRM: a listing shows there only when its Statut criterion is EnCours, and its Statut is Vendu',
		]);
		const none = await created({ id: 'Prix', value: '1' });
		expect(none.notices).toEqual([
			'The new listing will not show in the CRM: a listing shows there only when its Statut criterion is EnCours, and no Statut criterion was given',
		]);
		const update = await sent('product', 'update', {
			productId: '5001',
			additionalFields: { criteria: rows({ id: 'Statut', listValue: 'Vendu' }) },
		});
		expect(update.notices).toEqual([]);
	});

	test('version 1’s Transaction Type, Property Type, Price, Rooms and Status are sent as the criteria they are, by the site’s spelling', async () => {
		const run = await sent(
			'product',
			'create',
			{
				agencyId: '201',
				transactionType: 'sale',
				propertyType: 'commercial',
				additionalFields: { price: 180000, rooms: 2, status: 'active', title: 'Boutique' },
			},
			{ typeVersion: 1, server: criteriaServer(siteCriteria({ xml: 'NbPiece', id: 65 })) },
		);
		expect(run.body).toEqual({
			agency_id: 201,
			criteria: [
				{ id: 'TypeTransaction', value: 'Vente' },
				{ id: 'TypeBien', value: 'LocalCommercial' },
				{ id: 'Titre', value: 'Boutique' },
				{ id: 'Prix', value: 180000 },
				{ id: 'NbPiece', value: 2 },
				{ id: 'Statut', value: 'EnCours' },
			],
		});
		expect(run.hints).toEqual(['"Title" names Titre, which is not a criterion the site lists']);
	});

	test('a write names each criterion once: a row giving what version 1’s Property Type gives wins, with a notice', async () => {
		const run = await sent(
			'product',
			'create',
			{
				agencyId: '101',
				propertyType: 'house',
				additionalFields: { criteria: rows({ id: 'TypeBien', listValue: 'Appartement' }) },
			},
			{ typeVersion: 1 },
		);
		// Transaction Type's default (sale) stays; one TypeBien, the row's.
		expect(run.body.criteria).toEqual([
			{ id: 'TypeTransaction', value: 'Vente' },
			{ id: 'TypeBien', value: 'Appartement' },
		]);
		expect(run.notices).toEqual([
			'"Transaction Type": "sale" is sent as TypeTransaction\'s code Vente',
			'"Property Type" and "Criteria" row 1 both give TypeBien: "Criteria" row 1\'s value is sent',
			expect.stringMatching(/^The new listing will not show in the CRM/),
		]);
	});

	test('criteria typed are sent after those Extra Body Fields give, never replacing them', async () => {
		const run = await sent('product', 'create', {
			agencyId: '101',
			additionalFields: { criteria: rows({ id: 'Prix', value: '1' }, { id: 'Statut', value: 'EnCours' }) },
			options: { extraBodyJson: '{"criteria": [{"id": "Surface", "value": 60}]}' },
		});
		expect(run.body.criteria).toEqual([
			{ id: 'Surface', value: 60 },
			{ id: 'Prix', value: 1 },
			{ id: 'Statut', value: 'EnCours' },
		]);
	});

	test('rows without a criterion, with two values or an operator production does not know are refused before sending', async () => {
		const refused = sent('product', 'getAll', {
			returnAll: true,
			filters: {
				criteria: rows(
					{ value: '3' },
					{ id: 'TypeBien', value: 'Maison', listValue: 'Maison' },
					{ id: 'Prix', operator: 'MOINS', value: '1' },
				),
			},
		});
		await expect(refused).rejects.toThrow(InputError);
		await expect(refused).rejects.toThrow(
			'"Criteria" (criteria) has "Criteria" row 1 with no criterion; "Criteria" (criteria) has "Criteria" row 2 with both a Value and a Value From List: keep one; "Criteria" (criteria) has "Criteria" row 3 with the operator "MOINS", not one of CONTIENT, EGAL, INFERIEUR, SUPERIEUR',
		);
	});

	test('when the referential cannot be read, the criteria are sent as typed, with a hint', async () => {
		const run = await sent(
			'product',
			'create',
			{
				agencyId: '101',
				additionalFields: { criteria: rows({ id: 'Prix', value: '250000' }, { id: 'TypeBien', value: 'Maison' }) },
			},
			{ server: criteriaServer(siteCriteria(), true) },
		);
		expect(run.body.criteria).toEqual([
			{ id: 'Prix', value: 250000 },
			{ id: 'TypeBien', value: 'Maison' },
		]);
		expect(run.hints).toEqual([
			expect.stringMatching(/^"Criteria" could not be checked against the site's criteria, which could not be read \(/),
		]);
	});
});

describe('property update and search', () => {
	test('update: product_id, then the criteria given', async () => {
		const run = await sent('product', 'update', {
			productId: '5001',
			additionalFields: { criteria: rows({ id: 'Prix', value: '240000' }) },
		});
		expect(run.body).toEqual({ product_id: 5001, criteria: [{ id: 'Prix', value: 240000 }] });
	});

	test('search: criterias with an operator each, values as text; reference as model; Modified Since as +00:00; the sort', async () => {
		const run = await sent('product', 'getAll', {
			returnAll: true,
			filters: {
				query: 'VA50',
				updatedSince: '2026-01-05T09:30:00.000+01:00',
				criteria: rows(
					{ id: 'TypeBien', operator: 'EGAL', listValue: 'Maison' },
					{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
					{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' },
					{ id: 'Ville', operator: 'CONTIENT', value: 'Lyon' },
				),
			},
			options: { sortType: 'date', sortOrder: 'desc', fetch: ['criteres_text', 'criteres_number'] },
		});
		expect(run.body).toEqual({
			model: 'VA50',
			last_modified: '2026-01-05T08:30:00+00:00',
			sort_type: 'date',
			sort_order: 'desc',
			criterias: [
				{ id: 'TypeBien', operator: 'EGAL', value: 'Maison' },
				{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
				{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' },
				{ id: 'Ville', operator: 'CONTIENT', value: 'Lyon' },
			],
		});
	});

	test('version 1’s status, transaction type and price bounds filter as criterias, and its Related Data as production’s', async () => {
		const endpoint = findEndpoint('product', 'getAll')!;
		const parameters = {
			resource: 'product',
			operation: 'getAll',
			returnAll: true,
			filters: {
				status: 'active',
				transactionType: 'rental',
				priceMin: 500,
				priceMax: 900,
				fetch: ['criteria', 'pictures', 'lots'],
			},
		};
		const server = criteriaServer();
		const context = fakeContext({
			parameters,
			typeVersion: 1,
			httpRequestWithAuthentication: server.httpRequestWithAuthentication,
		}).execute;
		const request = await prepareRequest(context, endpoint, 0, await siteCriteriaOf(context, 1));
		expect(request.body).toEqual({
			criterias: [
				{ id: 'Statut', operator: 'EGAL', value: 'EnCours' },
				{ id: 'TypeTransaction', operator: 'EGAL', value: 'Location' },
				{ id: 'Prix', operator: 'SUPERIEUR', value: '500' },
				{ id: 'Prix', operator: 'INFERIEUR', value: '900' },
			],
		});
		expect(request.qs).toEqual({
			fetch: 'criteres_text,criteres_number,criteres_fulltext,criteres_flag,products_photos',
		});
		expect(request.hints.map((hint) => `${hint.field} ${hint.message}`)).toEqual([
			'"Related Data" (fetch) has "lots", which production\'s fetch has no equivalent for: left out (Property → Get Lots reads them)',
		]);
	});
});

describe('search requests and leads', () => {
	test('search request: wording, alertEmail, comment and criteria {id: XML key, operator, value: text}', async () => {
		const run = await sent('searchRequest', 'create', {
			customerId: '10003',
			criteria: rows(
				{ id: 'TypeBien', operator: 'EGAL', listValue: 'Appartement' },
				{ id: 'Prix', operator: 'INFERIEUR', value: '350000' },
				{ id: 'CPVille', operator: 'CONTIENT', value: '69003' },
			),
			additionalFields: { title: 'T3 Lyon', alertEmail: true, comment: 'Budget ferme' },
		});
		expect(run.body).toEqual({
			wording: 'T3 Lyon',
			alertEmail: true,
			comment: 'Budget ferme',
			criteria: [
				{ id: 'TypeBien', operator: 'EGAL', value: 'Appartement' },
				{ id: 'Prix', operator: 'INFERIEUR', value: '350000' },
				{ id: 'CPVille', operator: 'CONTIENT', value: '69003' },
			],
		});
		// A search-request criterion's list values are those of the property criterion of the same key.
		expect(run.calls).toEqual([
			'GET /criterias/search-requests',
			'GET /criterias/product/all',
			'GET /criterias/product/5/values',
		]);
	});

	test('a row saved by version 1 (no operator) is Equals; a numeric id is sent as the XML key', async () => {
		const run = await sent(
			'searchRequest',
			'create',
			{ customerId: '10003', criteria: rows({ id: '1', value: '350000' }) },
			{ typeVersion: 1 },
		);
		expect(run.body).toEqual({ criteria: [{ id: 'Prix', operator: 'EGAL', value: '350000' }] });
	});

	test('buyer lead: the criteria typed are one more search request after those Extra Body Fields give', async () => {
		const run = await sent('lead', 'createBuyer', {
			agencyId: '101',
			additionalFields: {
				email: 'ana@example.com',
				criteria: rows({ id: 'TypeBien', operator: 'EGAL', value: 'Maison' }),
			},
			options: {
				extraBodyJson: JSON.stringify({
					search_requests: [
						{ wording: 'From the portal', criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '300000' }] },
					],
				}),
			},
		});
		expect(run.body).toEqual({
			agency_id: 101,
			customer: { email: 'ana@example.com' },
			search_requests: [
				{ wording: 'From the portal', criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '300000' }] },
				{ criteria: [{ id: 'TypeBien', operator: 'EGAL', value: 'Maison' }] },
			],
		});
	});

	test('seller lead: the product’s criteria under product.criteria, version 1’s fields among them', async () => {
		const run = await sent(
			'lead',
			'createSeller',
			{
				agencyId: '101',
				transactionType: 'sale',
				propertyType: 'house',
				additionalFields: { lastname: 'Martin', price: 320000, criteria: rows({ id: 'Ville', value: 'Lyon' }) },
			},
			{ typeVersion: 1 },
		);
		expect(run.body).toEqual({
			agency_id: 101,
			customer: { lastname: 'Martin' },
			product: {
				criteria: [
					{ id: 'TypeTransaction', value: 'Vente' },
					{ id: 'TypeBien', value: 'Maison' },
					{ id: 'Prix', value: 320000 },
					{ id: 'Ville', value: 'Lyon' },
				],
			},
		});
	});
});

test('the referential and each list’s values are read once per run, whatever the number of items', async () => {
	const endpoint = findEndpoint('product', 'update')!;
	const server = criteriaServer();
	const item = (productId: string) => ({
		resource: 'product',
		operation: 'update',
		productId,
		additionalFields: { criteria: rows({ id: 'TypeBien', value: 'Maison' }, { id: 'Prix', value: '1' }) },
	});
	const context = fakeContext({
		itemParameters: [item('5001'), item('5002'), item('5003')],
		typeVersion: 2,
		httpRequestWithAuthentication: server.httpRequestWithAuthentication,
	}).execute;
	const site = await siteCriteriaOf(context, 3);
	const bodies = await Promise.all(
		[0, 1, 2].map(async (index) => (await prepareRequest(context, endpoint, index, site)).body),
	);
	expect(bodies.map((body) => body.criteria)).toEqual(
		Array(3).fill([
			{ id: 'TypeBien', value: 'Maison' },
			{ id: 'Prix', value: 1 },
		]),
	);
	expect(server.calls).toEqual(['GET /criterias/product/all', 'GET /criterias/product/5/values']);
});
