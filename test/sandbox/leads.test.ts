import { detailFields, useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

describe('seller leads', () => {
	test('create the customer and the product, and record consent with the normalised reason', async () => {
		const result = await h.api('POST', '/leads/sellers', {
			body: {
				agency_id: 102,
				customer: {
					firstname: 'Hélène',
					lastName: 'Vendeuse',
					email: 'helene.vendeuse@example.org',
					mobile_phone: '0699887766',
				},
				product: {
					criteria: [
						{ id: 'TypeTransaction', value: 'Vente' },
						{ id: 'TypeBien', value: 'Maison' },
						{ id: 'Prix', value: 450000 },
						{ id: 'Ville', value: 'Villeurbanne' },
						{ id: 2, value: 120 },
					],
				},
				request_nature: 'Valuation',
				comment: 'Estimation souhaitée avant l’été',
			},
		});
		expect(result.status).toBe(201);
		expect(result.body.meta).toEqual({ duplicate_customer: false });
		const { customer, product } = result.body.data;
		expect(customer).toMatchObject({ lastname: 'Vendeuse', agency_id: 102, type: 'seller' });
		expect(customer.consent).toMatchObject({
			reason: 'Demo Portal - Sale - Valuation',
			consentDate: expect.stringMatching(/Z$/),
			revokedAt: null,
		});
		expect(product).toMatchObject({
			agency_id: 102,
			price: 450000,
			criteres_number: [
				{ critere_id: 1, critere_name: 'Prix', critere_value: 450000 },
				{ critere_id: 2, critere_name: 'Surface habitable (m²)', critere_value: 120 },
			],
		});
		expect((await h.api('GET', `/products/${product.id}`)).status).toBe(200);
		expect((await h.admin('GET', `/records/consent/${customer.customers_id}`)).body.data.reason).toBe(
			'Demo Portal - Sale - Valuation',
		);
		const history = await h.api('GET', `/customers/${customer.customers_id}/actions`);
		expect(history.body.data).toEqual([
			expect.objectContaining({ action_id: 9, result: 'Estimation souhaitée avant l’été' }),
		]);
	});

	test('require the customer and the product', async () => {
		const result = await h.api('POST', '/leads/sellers', { body: { agency_id: 101 } });
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['customer', 'product']);
		const agency = await h.api('POST', '/leads/sellers', {
			body: { agency_id: 201, customer: { lastname: 'X' }, product: {} },
		});
		expect(agency.status).toBe(403);
	});
});

describe('buyer leads', () => {
	test('reuse a customer found by mobile phone and create the search requests', async () => {
		const existing = (await h.api('GET', '/customers/10010')).body.data;
		const result = await h.api('POST', '/leads/buyers', {
			body: {
				agency_id: 101,
				customer: { lastname: 'Acheteur', mobile_phone: existing.mobile_phone },
				transaction_type: 'rental',
				request_nature: 'Visit request',
				search_requests: [
					{
						wording: 'T2 Lyon 3e',
						criteria: [
							{ id: 'Prix', operator: 'INFERIEUR', value: '900' },
							{ id: 30, operator: 'EGAL', value: 'Lyon3e' },
						],
					},
				],
			},
		});
		expect(result.status).toBe(201);
		expect(result.body.meta.duplicate_customer).toBe(true);
		expect(result.body.data.customer.customers_id).toBe(10010);
		expect(result.body.data.customer.consent.reason).toBe('Demo Portal - Rental - Visit request');
		expect(result.body.data.search_requests).toEqual([
			expect.objectContaining({
				customers_id: 10010,
				wording: 'T2 Lyon 3e',
				criteria: [
					{ id: 'Prix', operator: 'INFERIEUR', value: '900' },
					{ id: 'Secteur', operator: 'EGAL', value: 'Lyon3e' },
				],
			}),
		]);
	});

	test('reuse a customer found by landline phone or email', async () => {
		const all = await h.api('POST', '/customers/search', { body: { per_page: 200 } });
		const withLandline = all.body.data.find((candidate: { phone: string | null }) => candidate.phone);
		const byPhone = await h.api('POST', '/leads/buyers', {
			body: { agency_id: 101, customer: { lastname: 'Fixe', phone: withLandline.phone } },
		});
		expect(byPhone.body.data.customer.customers_id).toBe(withLandline.customers_id);
		const byEmail = await h.api('POST', '/leads/buyers', {
			body: { agency_id: 101, customer: { lastname: 'Mail', email: all.body.data[0].email } },
		});
		expect(byEmail.body.data.customer.customers_id).toBe(all.body.data[0].customers_id);
		expect(byEmail.body.data.customer.consent.reason).toBe('Demo Portal - Sale - Search');
	});

	test('create a new customer when nothing matches', async () => {
		const result = await h.api('POST', '/leads/buyers', {
			body: { agency_id: 103, customer: { lastname: 'Inconnu', email: 'inconnu@example.org' } },
		});
		expect(result.body.meta.duplicate_customer).toBe(false);
		expect(result.body.data.customer).toMatchObject({ agency_id: 103, type: 'buyer' });
		expect(result.body.data.search_requests).toEqual([]);
	});
});
