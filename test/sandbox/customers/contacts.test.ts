import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

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
			body: {
				lastname: 'Téléphone',
				email: 'telephone@example.com',
				phones: [{ type: 'work', number: international }],
			},
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

	test('validates the body; an email given but refused is not also reported as missing', async () => {
		const result = await h.api('POST', '/customers', {
			body: { email: 'not-an-email', type: 'alien', group: 99 },
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['email', 'type', 'group']);
	});

	test('a contact without an email is refused, naming the email, as production refuses it (issue 32)', async () => {
		const result = await h.api('POST', '/customers', {
			body: { firstname: 'Anonyme', lastname: 'Sans Email', mobile_phone: '0611223344' },
		});
		expect(result.status).toBe(422);
		expect(result.body.error.details).toEqual([{ field: 'email', message: 'is required: a contact needs an email' }]);
		expect((await h.api('POST', '/customers/search', { body: { phone: '0611223344' } })).body.data).toEqual([]);
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

	test('PATCH changes only the supplied fields, and answers 204 with no body, as production does (issue 32)', async () => {
		const before = await customer(10004);
		const result = await h.api('PATCH', '/customers/10004', { body: { firstname: 'Modifié', stop_sms: true } });
		expect([result.status, result.body]).toEqual([204, undefined]);
		const after = await customer(10004);
		expect(after).toEqual({ ...before, firstname: 'Modifié', updated_at: expect.any(String) });
		expect(after.updated_at >= before.updated_at).toBe(true);
	});
});

describe('the contact search, as production answers it (issue 26)', () => {
	const hitIds = async (filter: Record<string, string>) =>
		(await h.api('POST', '/customers/search', { body: { ...filter, per_page: 200 } })).body.data.map(
			(contact: { id: number }) => contact.id,
		);

	test('numbers are matched in their national form: 06… finds a number stored as +33 6… or 06…; +33 6… finds nothing', async () => {
		const stored: number[] = [];
		for (const phone of ['+33 6 55 44 33 21', '06.55.44.33.22']) {
			const email = `national.${stored.length}@example.com`;
			stored.push((await h.api('POST', '/customers', { body: { lastname: 'National', email, phone } })).body.data.id);
		}
		expect(await hitIds({ phone: '0655443321' })).toEqual([stored[0]]);
		expect(await hitIds({ phone: '0655443322' })).toEqual([stored[1]]);
		expect(await hitIds({ phone: '+33655443321' })).toEqual([]);
	});

	test('hits are not exact: an email or a number that contains the value searched', async () => {
		const make = async (email: string) =>
			(await h.api('POST', '/customers', { body: { lastname: 'Loose', email } })).body.data.id;
		const ana = await make('ana.loose@example.com');
		const diana = await make('diana.loose@example.com');
		expect((await hitIds({ email: 'ana.loose@example.com' })).sort()).toEqual([ana, diana].sort());
	});

	test('origin and groups come only with include, as production sends them', async () => {
		const plain = (await h.api('GET', '/customers/10003')).body.data;
		expect(plain).not.toHaveProperty('origin');
		expect(plain).not.toHaveProperty('groups');
		expect(plain).not.toHaveProperty('origin_id');
		expect(plain).toMatchObject({ id: 10003, customers_id: 10003 });
		const withThem = (await h.api('GET', '/customers/10003', { query: { include: 'origin,groups' } })).body.data;
		expect(withThem).toHaveProperty('origin');
		expect(Array.isArray(withThem.groups)).toBe(true);
	});

	test('a write names one group and the origin by id; the first guesses are refused, named', async () => {
		const written = await h.api('PATCH', '/customers/10004', { body: { group: 2, origin: 3 } });
		expect(written.status).toBe(204);
		const read = (await h.api('GET', '/customers/10004', { query: { include: 'origin,groups' } })).body.data;
		expect(read.origin).toMatchObject({ id: 3 });
		expect(read.groups.map((group: { id: number }) => group.id)).toContain(2);
		const old = await h.api('PATCH', '/customers/10004', { body: { group_ids: [2], origin_id: 3 } });
		expect(old.status).toBe(422);
		expect(detailFields(old)).toEqual(['group_ids', 'origin_id']);
	});
});
