import { checkAccess } from '../../sandbox/api';
import { useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

describe('packs', () => {
	test('discovery lists the agencies and the packs granted', async () => {
		const limited = await h.api('GET', '/discovery', { client: 'limited-client' });
		expect(limited.status).toBe(200);
		expect(limited.body.packs.map((pack: { name: string }) => pack.name)).toEqual(['Properties', 'Websites']);
		expect(limited.body.agencies[0]).toMatchObject({
			agency_id: 101,
			manufacturer_id: 101,
			name: expect.any(String),
			siret: expect.any(String),
		});
		const solo = await h.api('GET', '/discovery', { client: 'solo-client' });
		expect(solo.body.agencies.map((agency: { agency_id: number }) => agency.agency_id)).toEqual([201]);
		expect(solo.body.packs).toEqual([{ name: 'Full', description: 'All of the above' }]);
	});

	test('an endpoint outside the packs answers 403 PACK_NOT_GRANTED', async () => {
		const denied = [
			['GET', '/customers/10001'],
			['POST', '/customers/search'],
			['POST', '/leads/sellers'],
			['POST', '/transactions/agreement/search'],
			['GET', '/users'],
			['GET', '/mandates'],
			['GET', '/actions/types'],
		];
		for (const [method, path] of denied) {
			const result = await h.api(method, path, { client: 'limited-client', body: method === 'POST' ? {} : undefined });
			expect([path, result.status, result.body.error.code]).toEqual([path, 403, 'PACK_NOT_GRANTED']);
		}
	});

	test('reads of products are open to Websites, writes need Properties', async () => {
		expect((await h.api('GET', '/products/5001', { client: 'limited-client' })).status).toBe(200);
		expect((await h.api('POST', '/products/search', { client: 'limited-client', body: {} })).status).toBe(200);
		expect((await h.api('GET', '/hooks', { client: 'limited-client' })).status).toBe(200);
		expect((await h.api('GET', '/criterias/product/all', { client: 'limited-client' })).status).toBe(200);
	});
});

describe('calendar permissions', () => {
	test('READ allows reads only; no permission denies everything', async () => {
		expect((await h.api('GET', '/calendar/events/types', { client: 'limited-client' })).status).toBe(200);
		const write = await h.api('POST', '/calendar/events', { client: 'limited-client', body: {} });
		expect(write.status).toBe(403);
		expect(write.body.error.code).toBe('CALENDAR_PERMISSION_DENIED');
		// No demo client lacks every calendar permission on a site with the agenda module: the rule itself.
		const site = {
			site_id: 1,
			name: 'Agenda',
			agency_ids: [101],
			mandate_register_enabled: true,
			agenda_module_enabled: true,
		};
		const noPermission = {
			clientId: 'x',
			clientSecret: 'x',
			name: 'x',
			siteId: 1,
			packs: ['Full' as const],
			calendar: [],
		};
		for (const calendar of ['READ', 'WRITE'] as const) {
			expect(() => checkAccess({ calendar }, noPermission, site)).toThrow(
				expect.objectContaining({ status: 403, code: 'CALENDAR_PERMISSION_DENIED' }),
			);
		}
	});

	test('a site without the agenda module answers 403 MODULE_DISABLED, whatever the permissions', async () => {
		const solo = await h.api('GET', '/calendar/events/types', { client: 'solo-client' });
		expect([solo.status, solo.body.error.code]).toEqual([403, 'MODULE_DISABLED']);
		expect(solo.body.error.message).toBe('The agenda module is not enabled for this site.');
	});
});

describe('agency scope', () => {
	test('an agency_id outside the site answers 403', async () => {
		const results = [
			await h.api('POST', '/customers/search', { body: { agency_id: 201 } }),
			await h.api('GET', '/users', { query: { agency_id: 201 } }),
			await h.api('POST', '/products', { body: { agency_id: 201, transaction_type: 'sale', property_type: 'house' } }),
			await h.api('PATCH', '/customers/10001', { body: { agency_id: 999 } }),
			await h.api('GET', '/calendar/permanences/timeframe', { query: { agency_id: 201 } }),
		];
		for (const result of results) {
			expect(result.status).toBe(403);
			expect(result.body.error.code).toBe('FORBIDDEN');
		}
	});

	test('records of another site do not exist (404)', async () => {
		expect((await h.api('GET', '/customers/900001')).status).toBe(404);
		expect((await h.api('GET', '/customers/10001', { client: 'solo-client' })).status).toBe(404);
		expect((await h.api('GET', '/products/90001')).status).toBe(404);
		expect((await h.api('GET', '/agencies/201')).status).toBe(404);
		expect((await h.api('GET', '/customers/900001', { client: 'solo-client' })).status).toBe(200);
	});

	test('the mandate register is disabled on site 2', async () => {
		const result = await h.api('GET', '/mandates', { client: 'solo-client' });
		expect(result.status).toBe(403);
		expect(result.body.error.code).toBe('MODULE_DISABLED');
	});
});

describe('routing', () => {
	test('unknown routes and ids answer 404 NOT_FOUND', async () => {
		for (const result of [
			await h.api('GET', '/nothing-here'),
			await h.api('DELETE', '/discovery'),
			await h.api('GET', '/customers/abc'),
			await h.api('GET', '/customers/99999999'),
			await h.send('GET', '/elsewhere'),
		]) {
			expect(result.status).toBe(404);
			expect(result.body.error.code).toBe('NOT_FOUND');
		}
	});

	test('literal segments win over parameters', async () => {
		const groups = await h.api('GET', '/customers/groups');
		expect(groups.status).toBe(200);
		expect(groups.body.data[0]).toEqual({ id: 1, label: expect.any(String) });
	});

	test('malformed JSON is a 422 VALIDATION_ERROR on body', async () => {
		const token = await h.token();
		const bad = await h.send('POST', '/api/v2/site/customers/search', {
			rawBody: '{"email": ',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		});
		expect(bad.status).toBe(422);
		expect(bad.body.error.details[0].field).toBe('body');
	});
});
