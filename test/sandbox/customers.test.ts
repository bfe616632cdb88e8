import { detailFields, Harness } from './harness';

let h: Harness;

beforeAll(async () => {
	h = await Harness.start();
});
afterAll(() => h.close());

async function customer(id: number) {
	return (await h.api('GET', `/customers/${id}`)).body.data;
}

describe('customer creation and duplicates', () => {
	test('creates a customer (201) with defaults', async () => {
		const result = await h.api('POST', '/customers', {
			body: { firstname: 'Léa', lastname: 'Nouvelle', email: 'lea.nouvelle@example.org', type: 'buyer' },
		});
		expect(result.status).toBe(201);
		expect(result.body.data).toMatchObject({
			customers_id: expect.any(Number),
			agency_id: 101,
			firstname: 'Léa',
			type: 'buyer',
			phones: [],
		});
		expect(result.body.data.customers_id).toBeGreaterThan(900000);
	});

	test('finds a duplicate by email (case-insensitive) and returns the existing customer', async () => {
		const existing = await customer(10001);
		const result = await h.api('POST', '/customers', {
			body: { lastname: 'Autre', email: existing.email.toUpperCase() },
		});
		expect(result.status).toBe(200);
		expect(result.body.meta).toEqual({ duplicate: true });
		expect(result.body.data.customers_id).toBe(10001);
	});

	test('finds a duplicate by phone, whatever its formatting', async () => {
		const existing = await customer(10002);
		const digits: string = existing.mobile_phone;
		const international = `+33 ${digits.slice(1, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 6)} ${digits.slice(6, 8)} ${digits.slice(8)}`;
		const result = await h.api('POST', '/customers', {
			body: { lastname: 'Téléphone', phones: [{ type: 'work', number: international }] },
		});
		expect(result.status).toBe(200);
		expect(result.body.data.customers_id).toBe(10002);
	});

	test('check_duplicate refuses a duplicate with 409', async () => {
		const existing = await customer(10003);
		const result = await h.api('POST', '/customers', {
			body: { lastname: 'Doublon', email: existing.email, check_duplicate: true },
		});
		expect(result.status).toBe(409);
		expect(result.body.error.code).toBe('DUPLICATE_CUSTOMER');
		expect(result.body.error.details[0]).toEqual({ field: 'email', message: 'already used by customer 10003' });
	});

	test('validates the body', async () => {
		const result = await h.api('POST', '/customers', {
			body: { email: 'not-an-email', type: 'alien', group_ids: [99] },
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['email', 'type', 'group_ids', 'lastname']);
	});
});

describe('deprecated aliases', () => {
	test('camelCase keys are accepted and the snake_case key wins', async () => {
		const result = await h.api('POST', '/customers', {
			body: {
				firstName: 'Camel',
				lastName: 'Camel',
				lastname: 'Snake',
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

describe('read and update', () => {
	test('include loads relations', async () => {
		const result = await h.api('GET', '/customers/10001', {
			query: {
				include: 'address,groups,color,origin,user,gender,stopSms,notary,relations,consent,search_requests,mandates',
			},
		});
		expect(result.body.data).toEqual(
			expect.objectContaining({
				address: expect.objectContaining({ city: expect.any(String) }),
				groups: expect.any(Array),
				color: expect.objectContaining({ code: expect.stringMatching(/^#/) }),
				gender: expect.objectContaining({ code: expect.any(String), is_entity: expect.any(Boolean) }),
				stop_sms: expect.any(Boolean),
				search_requests: expect.any(Array),
				mandates: expect.any(Array),
			}),
		);
		expect((await customer(10001)).address).toBeUndefined();
	});

	test('PATCH changes only the supplied fields', async () => {
		const before = await customer(10004);
		const result = await h.api('PATCH', '/customers/10004', { body: { firstname: 'Modifié', stop_sms: true } });
		expect(result.status).toBe(200);
		expect(result.body.data).toEqual({ ...before, firstname: 'Modifié', updated_at: expect.any(String) });
		expect(result.body.data.updated_at >= before.updated_at).toBe(true);
	});
});

describe('consent', () => {
	test('upsert and revoke answer 204 and are recorded', async () => {
		const upsert = await h.api('POST', '/customers/10005/consent', {
			body: { reason: 'Accord signé', proof_file: { file_name: 'accord.pdf', content_base64: 'JVBERi0xLjQ=' } },
		});
		expect(upsert.status).toBe(204);
		expect(upsert.bytes).toHaveLength(0);
		expect((await h.admin('GET', '/records/consent/10005')).body.data).toMatchObject({
			status: 'collected',
			reason: 'Accord signé',
			revoked_at: null,
			proof_file_name: 'accord.pdf',
		});
		expect((await h.api('DELETE', '/customers/10005/consent')).status).toBe(204);
		const revoked = (await h.admin('GET', '/records/consent/10005')).body.data;
		expect(revoked).toMatchObject({
			status: 'revoked',
			revoked_at: expect.stringMatching(/Z$/),
			proof_file_name: 'accord.pdf',
		});
		const again = await h.api('POST', '/customers/10005/consent', { body: { reason: 'Nouvel accord' } });
		expect(again.status).toBe(204);
		expect((await h.admin('GET', '/records/consent/10005')).body.data).toMatchObject({
			status: 'collected',
			revoked_at: null,
			proof_file_name: 'accord.pdf',
		});
	});

	test('revoking a missing consent still answers 204', async () => {
		const created = await h.api('POST', '/customers', {
			body: { lastname: 'Sans consentement', email: 'sans.consentement@example.org' },
		});
		expect((await h.api('DELETE', `/customers/${created.body.data.customers_id}/consent`)).status).toBe(204);
	});

	test('a proof storage failure answers 502 and records nothing', async () => {
		const created = await h.api('POST', '/customers', { body: { lastname: 'Preuve', email: 'preuve@example.org' } });
		const customerId = created.body.data.customers_id;
		await h.admin('POST', '/faults', { client_id: 'demo-client', consent_proof_failure: true });
		try {
			const result = await h.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Accord' } });
			expect(result.status).toBe(502);
			expect(result.body.error.code).toBe('PROOF_STORAGE_FAILED');
			expect((await h.admin('GET', `/records/consent/${customerId}`)).status).toBe(404);
		} finally {
			await h.admin('DELETE', '/faults');
		}
		expect((await h.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Accord' } })).status).toBe(204);
	});

	test('a reason is required', async () => {
		const result = await h.api('POST', '/customers/10005/consent', { body: { collected_at: '2025-01-01T10:00:00' } });
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['reason', 'collected_at']);
	});
});

describe('follow-ups', () => {
	test('create, conflict, update, list and delete', async () => {
		const created = await h.api('POST', '/customers/10006/follow-ups/5010', { body: { rating: 3 } });
		expect(created.status).toBe(201);
		expect(created.body.data).toMatchObject({ customers_id: 10006, product_id: 5010, rating: 3, status: 'new' });
		const conflict = await h.api('POST', '/customers/10006/follow-ups/5010');
		expect(conflict.status).toBe(409);
		expect(conflict.body.error.code).toBe('FOLLOW_UP_EXISTS');
		const updated = await h.api('PATCH', '/customers/10006/follow-ups/5010', {
			body: { rating: 5, status: 'visited' },
		});
		expect(updated.body.data).toMatchObject({ rating: 5, status: 'visited' });
		const list = await h.api('GET', '/customers/10006/follow-ups');
		expect(list.body.data.map((followUp: { product_id: number }) => followUp.product_id)).toContain(5010);
		expect((await h.api('DELETE', '/customers/10006/follow-ups/5010')).status).toBe(204);
		expect((await h.api('DELETE', '/customers/10006/follow-ups/5010')).status).toBe(404);
		expect((await h.api('POST', '/customers/10006/follow-ups/90001')).status).toBe(404);
	});
});

describe('search requests', () => {
	test('PATCH replaces the criteria entirely', async () => {
		const created = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				title: 'T3 Lyon',
				criteria: [
					{ id: 2, value: 300000 },
					{ id: 'zone', value: [2, 3] },
				],
				areas: [2, 3],
			},
		});
		expect(created.status).toBe(201);
		expect(created.body.data.criteria).toEqual([
			{ id: 2, value: 300000 },
			{ id: 30, value: [2, 3] },
		]);
		const path = `/customers/10007/search-requests/${created.body.data.search_request_id}`;
		const patched = await h.api('PATCH', path, { body: { criteria: [{ id: 4, value: 3 }] } });
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({ title: 'T3 Lyon', criteria: [{ id: 4, value: 3 }], areas: [2, 3] });
		expect(
			(await h.api('PATCH', `/customers/10008/search-requests/${created.body.data.search_request_id}`, { body: {} }))
				.status,
		).toBe(404);
	});

	test('criteria are checked against the search-request referential', async () => {
		const result = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				criteria: [
					{ id: 999, value: 1 },
					{ id: 2, value: 'cheap' },
				],
			},
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['criteria[0].id', 'criteria[1].value']);
	});
});
