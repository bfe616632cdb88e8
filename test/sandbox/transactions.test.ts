import { detailFields, useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

describe('transaction search', () => {
	test('each endpoint lists one kind; offers carry offer_status', async () => {
		const agreements = await h.api('POST', '/transactions/agreement/search', { body: {} });
		const offers = await h.api('POST', '/transactions/sales-offers/search', { body: { per_page: 200 } });
		const leases = await h.api('POST', '/transactions/leases/search', { body: {} });
		expect(agreements.body.data.length).toBeGreaterThan(0);
		expect(leases.body.data.length).toBeGreaterThan(0);
		expect(new Set(agreements.body.data.map((item: { kind: string }) => item.kind))).toEqual(new Set(['agreement']));
		expect(new Set(leases.body.data.map((item: { kind: string }) => item.kind))).toEqual(new Set(['lease']));
		expect(new Set(offers.body.data.map((item: { offer_status: string }) => item.offer_status))).toEqual(
			new Set(['attente', 'acceptee', 'refusee', 'annulee']),
		);
		expect(agreements.body.data[0].offer_status).toBeUndefined();
		const accepted = await h.api('POST', '/transactions/sales-offers/search', { body: { offer_status: 'acceptee' } });
		for (const offer of accepted.body.data) expect(offer.offer_status).toBe('acceptee');
	});

	test('include loads relations, deprecated aliases included', async () => {
		const result = await h.api('POST', '/transactions/agreement/search', {
			body: { per_page: 1 },
			query: { include: 'compromis_cs,agencies,buyer,buyer_groups,seller,fees,user' },
		});
		expect(result.status).toBe(200);
		expect(result.body.data[0]).toEqual(
			expect.objectContaining({
				compromis_cs: expect.any(Array),
				agencies: [expect.objectContaining({ agency_id: expect.any(Number) })],
				buyer: expect.objectContaining({ customers_id: expect.any(Number) }),
				buyer_groups: expect.any(Array),
				seller: expect.objectContaining({ customers_id: expect.any(Number) }),
				fees: expect.objectContaining({ fees_user: expect.any(Number), total: expect.any(Number) }),
				user: expect.objectContaining({ user_id: expect.any(Number) }),
			}),
		);
		const aliases = await h.api('GET', `/agreement/${result.body.data[0].compromis_id}`, {
			query: { include: 'followed_nego,fees_nego,fees_customer_manufacturer' },
		});
		expect(aliases.status).toBe(200);
		expect(aliases.body.data.followed_nego).toEqual(aliases.body.data.user);
		expect(aliases.body.data.fees).toEqual(expect.objectContaining({ fees_agency: expect.any(Number) }));
	});

	test('an unknown include is 422 INVALID_INCLUDE listing the available ones', async () => {
		for (const result of [
			await h.api('POST', '/transactions/leases/search', { body: {}, query: { include: 'buyer,bogus' } }),
			await h.api('GET', '/agreement/7001', { query: { include: 'notary' } }),
		]) {
			expect(result.status).toBe(422);
			expect(result.body.error.code).toBe('INVALID_INCLUDE');
			expect(result.body.error.message).toContain('compromis_cs, agencies, buyer, buyer_groups, seller, fees, user');
			expect(result.body.error.details[0]).toEqual({
				field: 'include',
				message: expect.stringContaining('available includes: compromis_cs'),
			});
		}
	});
});

describe('PUT /agreement/{id}', () => {
	test('takes billing fields, with the deprecated fee names (current name wins)', async () => {
		const result = await h.api('PUT', '/agreement/7001', {
			body: {
				invoice_number: 'FA-2025-0001',
				payment_status: 'paid',
				payment_date: '2025-11-02',
				conformity: true,
				fees_nego: 1234,
				fees_agency: 5000,
				fees_manufacturer: 1,
			},
		});
		expect(result.status).toBe(200);
		expect(result.body.data).toMatchObject({
			compromis_id: 7001,
			invoice_number: 'FA-2025-0001',
			payment_status: 'paid',
			payment_date: '2025-11-02',
			fees_user: 1234,
			fees_agency: 5000,
		});
	});

	test('refuses every other key with details', async () => {
		const before = (await h.api('GET', '/agreement/7001')).body.data;
		const result = await h.api('PUT', '/agreement/7001', { body: { price: 1, product_id: 5001, invoice_number: 'X' } });
		expect(result.status).toBe(422);
		expect(result.body.error.code).toBe('VALIDATION_ERROR');
		expect(detailFields(result)).toEqual(['price', 'product_id']);
		expect((await h.api('GET', '/agreement/7001')).body.data).toEqual(before);
		expect(detailFields(await h.api('PUT', '/agreement/7001', { body: { payment_date: '02/11/2025' } }))).toEqual([
			'payment_date',
		]);
	});
});
