import type { NodeVersion } from '../../nodes/AgencyCrm/catalogue/form';
import { testContext } from '../support/real-n8n/context';
import { admin } from '../support/sandbox/admin';
import { asVersion } from '../support/versions';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import type { NodeSpec } from '../../tools/n8n/workflows';
import { byId, crmNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 27, points 1 and 2: properties as the site defines them, inside real n8n against the sandbox,
 * in one workflow: a chain of node version 1 then one of version 2, each creating a listing with
 * criteria chosen from the lists (type, price, rooms, status, zone) and one value typed as its label,
 * updating its price, searching the catalogue by two criteria with operators, then by Modified Since.
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credProperties01', origin, client('demo-client'));

function chain(version: NodeVersion): NodeSpec[] {
	const name = (operation: string) => `${operation} v${version}`;
	const created = `={{ $('${name('Create Listing')}').first().json.id }}`;
	const node = (operation: string, parameters: Record<string, unknown>) =>
		crmNode(name(operation), credential, asVersion({ resource: 'product', ...parameters }, version), {
			executeOnce: true,
			typeVersion: version,
		});
	return [
		node('Create Listing', {
			operation: 'create',
			agencyId: byId(101),
			// Version 1 has 0.1.0's Transaction Type and Property Type on top: sent as those criteria.
			...(version === 1 ? { transactionType: 'sale', propertyType: 'house' } : {}),
			additionalFields: {
				reference: `CRIT-${version}`,
				criteria: {
					criterion: [
						...(version === 2
							? [
									{ id: 'TypeTransaction', listValue: 'Vente' },
									{ id: 'TypeBien', listValue: 'Maison' },
								]
							: []),
						{ id: 'Prix', value: '415000' },
						{ id: 'NbPieces', value: '5' },
						{ id: 'Statut', listValue: 'EnCours' },
						{ id: 'Secteur', listValue: 'Villeurbanne' },
						// A value typed as its label: sent as its code.
						{ id: 'Chauffage', value: 'Pompe à chaleur' },
					],
				},
			},
		}),
		node('Update Price', {
			operation: 'update',
			productId: byId(created),
			additionalFields: { criteria: { criterion: [{ id: 'Prix', value: '399000' }] } },
		}),
		node('Search by Criteria', {
			operation: 'getAll',
			returnAll: true,
			// As version 1 holds them (asVersion moves Related Data and the sort to version 2's Options).
			filters: {
				criteria: {
					criterion: [
						{ id: 'TypeBien', operator: 'EGAL', listValue: 'Maison' },
						{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
					],
				},
				fetch: ['criteres_text', 'criteres_number'],
			},
			options: { perPage: 100 },
		}),
		node('Modified Since', {
			operation: 'getAll',
			returnAll: true,
			filters: {
				updatedSince: `={{ $('${name('Create Listing')}').first().json.last_modified }}`,
				sortType: 'date',
				sortOrder: 'desc',
			},
			options: { perPage: 100 },
		}),
	];
}

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [linearWorkflow('wfProperties0001', [...chain(1), ...chain(2)])]);
});

test('a listing created with criteria chosen by label, repriced, found by two criteria with operators and by Modified Since, in both node versions', async () => {
	await admin(origin, 'POST', '/reset');
	const run = await executeWorkflow(instance, 'wfProperties0001');
	expect(run.error).toBeUndefined();
	const { data: requests } = await admin<{
		data: Array<{ method: string; route: string; query: Record<string, string>; body: Record<string, unknown> }>;
	}>(origin, 'GET', '/requests?limit=200');
	const bodies = (route: string) => requests.filter((request) => request.route === route).map(({ body }) => body);
	const listings = [1, 2].map((version) => run.output[`Create Listing v${version}`][0]);

	// The wire: criteria by the site's XML key, list values by code, the label typed sent as its code.
	expect(bodies('POST /products')).toEqual(
		[1, 2].map((version) => ({
			agency_id: 101,
			model: `CRIT-${version}`,
			criteria: [
				{ id: 'TypeTransaction', value: 'Vente' },
				{ id: 'TypeBien', value: 'Maison' },
				{ id: 'Prix', value: 415000 },
				{ id: 'NbPieces', value: 5 },
				{ id: 'Statut', value: 'EnCours' },
				{ id: 'Secteur', value: ['Villeurbanne'] },
				{ id: 'Chauffage', value: 'PompeAChaleur' },
			],
		})),
	);
	expect(bodies('PATCH /products/{productId}')).toEqual(
		listings.map((listing) => ({ product_id: listing.id, criteria: [{ id: 'Prix', value: 399000 }] })),
	);
	const byCriteria = {
		criterias: [
			{ id: 'TypeBien', operator: 'EGAL', value: 'Maison' },
			{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
		],
		count: 100,
	};
	const since = (listing: Record<string, unknown>) => ({
		last_modified: listing.last_modified,
		sort_type: 'date',
		sort_order: 'desc',
		count: 100,
	});
	expect(bodies('POST /products/search')).toEqual([byCriteria, since(listings[0]), byCriteria, since(listings[1])]);
	expect(listings[0].last_modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
	// The referential read once per run and node, each list criterion's values once.
	expect(requests.filter((request) => request.route === 'GET /criterias/product/all').length).toBeLessThanOrEqual(8);

	for (const [index, version] of [1, 2].entries()) {
		const listing = listings[index];
		// What the sandbox stored, by the criteria's numeric ids.
		const { data: stored } = await admin<{ data: { model: string; criteria: Array<{ id: number; value: unknown }> } }>(
			origin,
			'GET',
			`/records/product/${String(listing.id)}`,
		);
		expect(stored.model).toBe(`CRIT-${version}`);
		expect(stored.criteria).toEqual(
			expect.arrayContaining([
				{ id: 1, value: 399000 },
				{ id: 3, value: 5 },
				{ id: 5, value: 'Maison' },
				{ id: 6, value: 'Vente' },
				{ id: 18, value: 'PompeAChaleur' },
				{ id: 21, value: 'EnCours' },
				{ id: 30, value: ['Villeurbanne'] },
			]),
		);
		// Simplified: the criteria as name: value pairs.
		const found = run.output[`Search by Criteria v${version}`];
		expect(found.find((candidate) => candidate.id === listing.id)).toMatchObject({
			model: `CRIT-${version}`,
			price: 399000,
			criteria: expect.objectContaining({ 'Type de bien': 'Maison', Prix: 399000, 'Nombre de pièces': 5 }),
		});
		for (const candidate of found) {
			const criteria = candidate.criteria as Record<string, unknown>;
			expect([candidate.id, criteria['Type de bien']]).toEqual([candidate.id, 'Maison']);
			expect(candidate.price as number).toBeLessThanOrEqual(400000);
		}
		const changed = run.output[`Modified Since v${version}`];
		expect(changed.map((candidate) => candidate.id)).toContain(listing.id);
		const dates = changed.map((candidate) => String(candidate.last_modified));
		expect(dates.every((date) => date >= String(listing.last_modified))).toBe(true);
		expect(dates).toEqual([...dates].sort().reverse());
	}
});
