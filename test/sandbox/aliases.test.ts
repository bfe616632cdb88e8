import { useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

describe('deprecated aliases', () => {
	test('camelCase keys are accepted and the snake_case key wins', async () => {
		const result = await h.api('POST', '/customers', {
			body: {
				firstName: 'Camel',
				lastName: 'Camel',
				lastname: 'Snake',
				email: 'camel.snake@example.org',
				mobilePhone: '0611223344',
				checkDuplicate: true,
			},
		});
		expect(result.status).toBe(201);
		expect(result.body.data).toMatchObject({ firstname: 'Camel', lastname: 'Snake', mobile_phone: '0611223344' });
	});

	test('manufacturer_id stands for agency_id in bodies and queries; agency_id wins', async () => {
		const aliased = await h.api('POST', '/customers', {
			body: { lastname: 'Alias', email: 'alias1@example.org', manufacturer_id: 102 },
		});
		expect(aliased.body.data.agency_id).toBe(102);
		const both = await h.api('POST', '/customers', {
			body: { lastname: 'Alias', email: 'alias2@example.org', manufacturer_id: 102, agency_id: 103 },
		});
		expect(both.body.data.agency_id).toBe(103);
		const users = await h.api('GET', '/users', { query: { manufacturer_id: 102 } });
		expect(users.body.data.length).toBeGreaterThan(0);
		for (const user of users.body.data) expect(user.agency_id).toBe(102);
	});
});

describe('camelCase keys on every customer endpoint (spec sections 2 "Customer" and 9)', () => {
	test('customer search: body keys, snake_case winning', async () => {
		expect((await h.api('POST', '/customers/search', { body: { perPage: 1 } })).body.data).toHaveLength(1);
		expect((await h.api('POST', '/customers/search', { body: { perPage: 1, per_page: 2 } })).body.data).toHaveLength(2);
		const future = await h.api('POST', '/customers/search', { body: { updatedSince: '2999-01-01T00:00:00Z' } });
		expect(future.body.data).toEqual([]);
		const scoped = await h.api('POST', '/customers/search', { body: { agencyId: 102, perPage: 5 } });
		expect(scoped.body.data.map((customer: { agency_id: number }) => customer.agency_id)).toEqual(Array(5).fill(102));
	});

	test('customer update: keys at any depth, snake_case winning', async () => {
		const result = await h.api('PATCH', '/customers/10011', {
			body: {
				firstName: 'Camel',
				firstname: 'Snake',
				mobilePhone: '0655443322',
				stopSms: true,
				genderCode: 'MME',
				address: { street: '1 rue Neuve', postalCode: '69001', city: 'Lyon', country: 'FR' },
			},
		});
		expect(result.status).toBe(204);
		const read = await h.api('GET', '/customers/10011', { query: { include: 'address,stopSms' } });
		expect(read.body.data).toMatchObject({ firstname: 'Snake', mobile_phone: '0655443322', gender_code: 'MME' });
		const stored = (await h.admin('GET', '/records/customer/10011')).body.data;
		expect(stored).toMatchObject({
			stop_sms: true,
			address: { street: '1 rue Neuve', postal_code: '69001', city: 'Lyon', country: 'FR' },
		});
	});

	test('consent: keys of the body', async () => {
		const result = await h.api('POST', '/customers/10012/consent', {
			body: { reason: 'Accord', consentDate: '2025-01-02T03:04:05+00:00', acceptOutsideHours: '0' },
		});
		expect(result.status).toBe(204);
		expect((await h.admin('GET', '/records/consent/10012')).body.data).toMatchObject({
			collected_at: '2025-01-02T03:04:05+00:00',
			accept_outside_hours: false,
		});
	});

	test('search requests: {"isActive": false} creates an inactive request; snake_case wins', async () => {
		const inactive = await h.api('POST', '/customers/10013/search-requests', {
			body: {
				isActive: false,
				alertEmail: true,
				keyPoints: { pros: ['calme'], cons: [] },
				criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '250000' }],
			},
		});
		expect(inactive.status).toBe(201);
		expect(inactive.body.data).toMatchObject({
			is_active: false,
			alert_email: true,
			key_points: { pros: ['calme'], cons: [] },
		});
		const path = `/customers/10013/search-requests/${inactive.body.data.id}`;
		expect((await h.api('PATCH', path, { body: { isActive: true } })).body.data.is_active).toBe(true);
		expect((await h.api('PATCH', path, { body: { isActive: true, is_active: false } })).body.data.is_active).toBe(
			false,
		);
	});

	test('follow-ups: query parameter names, snake_case winning', async () => {
		for (const productId of [5011, 5012, 5013])
			expect((await h.api('POST', `/customers/10014/follow-ups/${productId}`)).status).toBe(201);
		const onePage = await h.api('GET', '/customers/10014/follow-ups', { query: { perPage: 1 } });
		expect(onePage.body.data).toHaveLength(1);
		expect(onePage.body.meta).toMatchObject({ per_page: 1, current_page: 1 });
		expect(onePage.body.meta.last_page).toBeGreaterThanOrEqual(3);
		const both = await h.api('GET', '/customers/10014/follow-ups', { query: { perPage: 1, per_page: 2 } });
		expect(both.body.data).toHaveLength(2);
	});

	test('customer actions: body keys', async () => {
		const result = await h.api('POST', '/customers/10015/actions', {
			body: { actionId: 1, userId: 1001, result: 'Appel', datePerformed: '2026-05-01T10:00:00.000Z' },
		});
		expect(result.status).toBe(201);
		expect(result.body.data).toMatchObject({
			action_id: 1,
			user_id: 1001,
			customers_id: 10015,
			result: 'Appel',
			date_performed: '2026-05-01T10:00:00Z',
		});
	});

	test('leads: keys of the lead, of its customer and of its search requests', async () => {
		const result = await h.api('POST', '/leads/buyers', {
			body: {
				agencyId: 103,
				requestNature: 'Visite',
				transactionType: 'rental',
				customer: { lastName: 'Locataire', email: 'camel.locataire@example.org', mobilePhone: '0677889900' },
				searchRequests: [{ isActive: false, criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '900' }] }],
			},
		});
		expect(result.status).toBe(201);
		const { customer, search_requests: searchRequests } = result.body.data;
		expect(customer).toMatchObject({
			lastname: 'Locataire',
			mobile_phone: '0677889900',
			agency_id: 103,
			type: 'tenant',
		});
		expect(customer.consent.reason).toBe('Demo Portal - Rental - Visite');
		expect(searchRequests).toEqual([expect.objectContaining({ is_active: false })]);
	});

	test('outside the customer endpoints camelCase keys are not renamed', async () => {
		const product = await h.api('POST', '/products', {
			body: { agencyId: 101, modelCode: 'REF-1' },
		});
		expect(product.status).toBe(422);
		expect(product.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
			'agency_id',
			'agencyId',
			'modelCode',
		]);
	});
});
