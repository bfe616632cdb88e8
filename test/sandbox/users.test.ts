import { detailFields, useSandbox } from '../support/sandbox/harness';
import { formWith, jpeg, padded, png } from '../support/fixtures/images';

const STRONG_PASSWORD = 'Str0ng-Passw0rd!';

const h = useSandbox();

function newUser(extra: Record<string, unknown>) {
	return h.api('POST', '/users', {
		body: {
			agency_id: 102,
			firstname: 'Nina',
			lastname: 'Agent',
			email: `nina.${Math.random()}@demo-realty.example`,
			...extra,
		},
	});
}

describe('password rules', () => {
	test.each([
		['Sh0rt!', 'must be 12 to 40 characters long'],
		['Elev3n-Char', 'must be 12 to 40 characters long'],
		[`Aa1!${'x'.repeat(37)}`, 'must be 12 to 40 characters long'],
		['all-lowercase-1', 'must contain an uppercase letter'],
		['ALL-UPPERCASE-1', 'must contain a lowercase letter'],
		['No-Digits-Here', 'must contain a digit'],
		['NoSpecial12345', 'must contain a special character'],
	])('POST /users refuses %p', async (password, message) => {
		const result = await newUser({ password });
		expect(result.status).toBe(422);
		expect(result.body.error.details).toEqual([{ field: 'password', message }]);
	});

	test('a valid password creates the user, and is never returned', async () => {
		expect((await newUser({ password: 'Twelve-Char1' })).status).toBe(201);
		expect((await newUser({ password: `Aa1!${'x'.repeat(36)}` })).status).toBe(201);
		const result = await newUser({ password: STRONG_PASSWORD, type_ids: [1, 2] });
		expect(result.status).toBe(201);
		expect(result.body.data).toMatchObject({
			agency_id: 102,
			group_id: 3,
			type_ids: [1, 2],
			is_active: true,
			profile_picture: null,
		});
		expect(result.body.data.password).toBeUndefined();
		const userId = result.body.data.user_id;
		const weak = await h.api('PATCH', `/users/${userId}`, { body: { password: 'weak' } });
		expect(weak.status).toBe(422);
		expect(new Set(detailFields(weak))).toEqual(new Set(['password']));
		expect((await h.api('PATCH', `/users/${userId}`, { body: { password: 'An0ther-Passw0rd' } })).status).toBe(200);
		expect((await h.admin('GET', `/records/user/${userId}`)).body.data.password).toBe('An0ther-Passw0rd');
	});

	test('a password is required on creation', async () => {
		expect(detailFields(await newUser({}))).toEqual(['password']);
	});
});

describe('users', () => {
	test('list filters and include=logs', async () => {
		const managers = await h.api('GET', '/users', { query: { group_id: 2 } });
		expect(managers.body.data.length).toBeGreaterThan(0);
		for (const user of managers.body.data) expect(user.group_id).toBe(2);
		const withLogs = await h.api('GET', '/users/1001', { query: { include: 'logs' } });
		expect(withLogs.body.data.logs).toEqual(
			expect.arrayContaining([expect.objectContaining({ at: expect.any(String), action: expect.any(String) })]),
		);
		expect((await h.api('GET', '/users/1001')).body.data.logs).toBeUndefined();
	});

	test('referentials: groups, types and genders', async () => {
		expect((await h.api('GET', '/users/groups')).body.data[0]).toEqual({ id: 1, label: 'Administrateur', level: 100 });
		expect((await h.api('GET', '/users/types')).body.data.length).toBeGreaterThan(2);
		const genders = (await h.api('GET', '/users/genders')).body.data;
		expect(genders).toContainEqual({ code: 'SOC', label: 'Société', is_entity: true });
		expect(genders).toContainEqual({ code: 'MME', label: 'Madame', is_entity: false });
	});

	test('DELETE reassigns the customers of the user', async () => {
		const created = await newUser({ password: STRONG_PASSWORD, agency_id: 103 });
		const userId = created.body.data.user_id;
		const customer = await h.api('POST', '/customers', {
			body: { lastname: 'Suivi', email: 'suivi@example.org', agency_id: 103, user_id: userId },
		});
		expect((await h.api('DELETE', `/users/${userId}`)).status).toBe(204);
		expect((await h.api('GET', `/users/${userId}`)).status).toBe(404);
		const reassigned = (await h.api('GET', `/customers/${customer.body.data.customers_id}`)).body.data.user_id;
		expect(reassigned).not.toBe(userId);
		expect((await h.api('GET', `/users/${reassigned}`)).body.data.agency_id).toBe(103);
	});
});

describe('user photo', () => {
	test('takes profile_picture and/or signature_picture images', async () => {
		const profile = await h.api('POST', '/users/1002/photo', { form: formWith({ profile_picture: png(300) }) });
		expect(profile.status).toBe(200);
		expect(profile.body.data.profile_picture).toMatch(/profile_picture\.png$/);
		const both = await h.api('POST', '/users/1003/photo', {
			form: formWith({ profile_picture: jpeg(200, 200), signature_picture: png(400) }),
		});
		expect(both.body.data).toMatchObject({
			profile_picture: expect.stringMatching(/\.jpg$/),
			signature_picture: expect.stringMatching(/\.png$/),
		});
		expect((await h.api('DELETE', '/users/1003/photo', { body: { signature_picture: true } })).status).toBe(204);
		expect((await h.api('GET', '/users/1003')).body.data).toMatchObject({
			profile_picture: expect.any(String),
			signature_picture: null,
		});
	});

	test('refuses a missing part, a non-image and an image over 20 MB', async () => {
		const none = await h.api('POST', '/users/1002/photo', { form: formWith({ avatar: png(300) }) });
		expect(none.status).toBe(422);
		expect(detailFields(none)).toEqual(['profile_picture']);
		const text = await h.api('POST', '/users/1002/photo', {
			form: formWith({ profile_picture: png(300), signature_picture: Buffer.from('%PDF-1.4 not an image') }),
		});
		expect(detailFields(text)).toEqual(['signature_picture']);
		const huge = await h.api('POST', '/users/1002/photo', {
			form: formWith({ profile_picture: padded(png(300), 20_000_001) }),
		});
		expect(huge.status).toBe(422);
		expect(huge.body.error.details[0]).toEqual({ field: 'profile_picture', message: expect.stringMatching(/20 MB/) });
		expect(detailFields(await h.api('DELETE', '/users/1002/photo', { body: {} }))).toEqual(['profile_picture']);
	});
});

describe("issue 35: GET /users takes production's filters (the vendor's reference)", () => {
	const ids = (body: { data: Array<{ user_id: number }> }) => body.data.map((user) => user.user_id);
	const list = async (query: string) => (await h.api('GET', `/users?per_page=200&${query}`)).body;

	test('status 1 active, 0 archived, 3 hidden; without_deleted keeps the active; a user edited in the CRM moves', async () => {
		const everyone = await list('agency_id=102');
		const [hidden, archived] = ids(everyone).slice(-2);
		await h.admin('POST', '/simulate-edit', { resource: 'user', action: 'update', id: hidden, changes: { status: 3 } });
		await h.admin('POST', '/simulate-edit', {
			resource: 'user',
			action: 'update',
			id: archived,
			changes: { status: 0 },
		});
		try {
			const active = await list('agency_id=102&status=1');
			expect(ids(active)).not.toEqual(expect.arrayContaining([hidden]));
			expect(ids(active)).not.toEqual(expect.arrayContaining([archived]));
			expect(
				active.data.every((user: { status: number; is_active: boolean }) => user.status === 1 && user.is_active),
			).toBe(true);
			expect(ids(await list('agency_id=102&without_deleted=true'))).toEqual(ids(active));
			expect(ids(await list('agency_id=102&status=3'))).toEqual([hidden]);
			expect(ids(await list('agency_id=102&status=0'))).toEqual([archived]);
			expect(ids(await list('agency_id=102&is_active=false'))).toEqual([archived, hidden].sort((a, b) => a - b));
			expect((await h.api('GET', '/users?status=2')).status).toBe(422);
		} finally {
			for (const id of [hidden, archived])
				await h.admin('POST', '/simulate-edit', { resource: 'user', action: 'update', id, changes: { status: 1 } });
		}
	});

	test('is_active written through the API archives or reactivates; a hidden user stays hidden', async () => {
		const created = await newUser({ password: STRONG_PASSWORD, is_active: false });
		expect(created.body.data).toMatchObject({ is_active: false, status: 0, delegation: false });
		const userId = created.body.data.user_id;
		expect((await h.api('PATCH', `/users/${userId}`, { body: { is_active: true } })).body.data).toMatchObject({
			is_active: true,
			status: 1,
		});
		await h.admin('POST', '/simulate-edit', { resource: 'user', action: 'update', id: userId, changes: { status: 3 } });
		expect((await h.api('PATCH', `/users/${userId}`, { body: { is_active: false } })).body.data.status).toBe(3);
	});

	test('delegation, the name and email contained (any case), and phones in international form', async () => {
		const delegating = (await list('delegation=true')).data as Array<{ delegation: boolean; group_id: number }>;
		expect(delegating.length).toBeGreaterThan(0);
		expect(delegating.every((user) => user.delegation && user.group_id <= 2)).toBe(true);
		const others = (await list('delegation=false')).data as Array<{ delegation: boolean }>;
		expect(others.length).toBeGreaterThan(0);
		expect(others.every((user) => user.delegation === false)).toBe(true);
		const [someone] = (await list('agency_id=101')).data as Array<Record<string, string>>;
		for (const key of ['firstname', 'lastname', 'email']) {
			const part = someone[key].slice(1, 4).toUpperCase();
			const found = (await list(`${key}=${encodeURIComponent(part)}`)).data as Array<Record<string, string>>;
			expect(found.map((user) => user.user_id)).toContain(someone.user_id);
			expect(found.every((user) => user[key].toLowerCase().includes(part.toLowerCase()))).toBe(true);
		}
		const international = (await list(`agency_id=101&telephone_code=true`)).data as Array<{ phone: string }>;
		expect(international[0].phone).toBe(`+33${someone.phone.slice(1)}`);
	});
});
