import { Harness } from './harness';

let h: Harness;

beforeAll(async () => {
	h = await Harness.start();
});
afterAll(() => h.close());

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
