import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

describe('search requests in production’s body', () => {
	test('wording, alertEmail, comment and criteria {id: XML key, operator, value: text}; PATCH replaces the criteria entirely', async () => {
		const created = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				wording: 'T3 Lyon',
				alertEmail: true,
				comment: 'Budget ferme',
				criteria: [
					{ id: 'TypeBien', operator: 'EGAL', value: 'Appartement' },
					{ id: 'Prix', operator: 'INFERIEUR', value: '300000' },
					{ id: 30, operator: 'EGAL', value: 'Lyon2e' },
				],
				areas: [2, 3],
			},
		});
		expect(created.status).toBe(201);
		expect(created.body.data).toMatchObject({
			id: expect.any(Number),
			customers_id: 10007,
			wording: 'T3 Lyon',
			alert_email: true,
			comment: 'Budget ferme',
			criteria: [
				{ id: 'TypeBien', operator: 'EGAL', value: 'Appartement' },
				{ id: 'Prix', operator: 'INFERIEUR', value: '300000' },
				{ id: 'Secteur', operator: 'EGAL', value: 'Lyon2e' },
			],
		});
		const path = `/customers/10007/search-requests/${created.body.data.id}`;
		const patched = await h.api('PATCH', path, {
			body: { criteria: [{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' }] },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({
			wording: 'T3 Lyon',
			criteria: [{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' }],
			areas: [2, 3],
		});
		expect(
			(await h.api('PATCH', `/customers/10008/search-requests/${created.body.data.id}`, { body: {} })).status,
		).toBe(404);
	});

	test('the old form is refused naming the field: title, and criteria without an operator', async () => {
		const old = await h.api('POST', '/customers/10007/search-requests', {
			body: { title: 'T3 Lyon', is_active: true, criteria: [{ id: 2, value: 300000 }] },
		});
		expect(old.status).toBe(422);
		expect(detailFields(old)).toEqual(['title', 'criteria[0].operator']);
	});

	test('criteria are checked against the site’s search-request referential, list values against their codes', async () => {
		const result = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				criteria: [
					{ id: 'Chauffage', operator: 'EGAL', value: 'Gaz' },
					{ id: 'Prix', operator: 'INFERIEUR', value: 'cheap' },
					{ id: 'TypeBien', operator: 'EGAL', value: '2' },
				],
			},
		});
		expect(result.status).toBe(422);
		expect(result.body).toEqual({
			'criteria.Chauffage': [{ xml: 'Chauffage', message: 'is not a criterion of this site' }],
			'criteria.1': [{ xml: 'Prix', message: 'must be a number' }],
			'criteria.5': [{ xml: 'TypeBien', message: '"2" is a value id; send the value\'s code (Maison), not its id' }],
			request_id: expect.any(String),
		});
		const otherSite = await h.api('POST', '/customers/900001/search-requests', {
			client: 'solo-client',
			body: { criteria: [{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' }] },
		});
		expect(otherSite.body['criteria.NbPieces']).toEqual([
			{ xml: 'NbPieces', message: 'is not a criterion of this site' },
		]);
	});
});
