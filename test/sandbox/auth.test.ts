import { Harness, sleep, useSandbox } from '../support/sandbox/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const h = useSandbox();

describe('token endpoint', () => {
	test('exchanges Basic credentials and a site_id for a bearer token', async () => {
		const result = await h.requestToken('demo-client', 'demo-secret', { site_id: '1' });
		expect(result.status).toBe(200);
		expect(result.body).toEqual({
			domain: h.sandbox.origin,
			token_type: 'Bearer',
			expires_in: 604800,
			access_token: expect.any(String),
			refresh_token: expect.any(String),
		});
		expect(result.body.access_token).not.toBe(result.body.refresh_token);
		expect(result.headers.get('x-request-id')).toMatch(UUID);
	});

	test('resolves the site from manufacturer_id', async () => {
		const result = await h.requestToken('demo-client', 'demo-secret', { manufacturer_id: '103' });
		expect(result.status).toBe(200);
		const discovery = await h.api('GET', '/discovery', { token: result.body.access_token });
		expect(discovery.body.agencies.map((agency: { agency_id: number }) => agency.agency_id)).toEqual([101, 102, 103]);
	});

	test('answers 401 for a wrong secret, an unknown client or a missing Basic header', async () => {
		for (const result of [
			await h.requestToken('demo-client', 'wrong-secret', { site_id: '1' }),
			await h.requestToken('nobody', 'demo-secret', { site_id: '1' }),
			await h.send('POST', '/api/client/token/site', {
				rawBody: 'site_id=1',
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			}),
		]) {
			expect(result.status).toBe(401);
			expect(result.body.error.code).toBe('INVALID_CLIENT');
			expect(result.body.request_id).toBe(result.headers.get('x-request-id'));
		}
	});

	test('answers 403 for a site or agency of another client', async () => {
		expect((await h.requestToken('demo-client', 'demo-secret', { site_id: '2' })).status).toBe(403);
		const byAgency = await h.requestToken('solo-client', 'solo-secret', { manufacturer_id: '101' });
		expect(byAgency.status).toBe(403);
		expect(byAgency.body.error.code).toBe('SCOPE_FORBIDDEN');
	});

	test('answers 404 for an unknown site or agency', async () => {
		expect((await h.requestToken('demo-client', 'demo-secret', { site_id: '99' })).status).toBe(404);
		expect((await h.requestToken('demo-client', 'demo-secret', { manufacturer_id: '999' })).status).toBe(404);
	});

	test('answers 422 when neither or both ids are sent, or the body is not a form', async () => {
		const neither = await h.requestToken('demo-client', 'demo-secret', {});
		const both = await h.requestToken('demo-client', 'demo-secret', { site_id: '1', manufacturer_id: '101' });
		const json = await h.send('POST', '/api/client/token/site', {
			body: { site_id: 1 },
			headers: { Authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}` },
		});
		for (const result of [neither, both, json]) {
			expect(result.status).toBe(422);
			expect(result.body.error.code).toBe('VALIDATION_ERROR');
			expect(result.body.error.details[0].field).toBe('site_id');
		}
	});
});

describe('bearer token', () => {
	test('is required on every API route', async () => {
		for (const result of [
			await h.api('GET', '/discovery', { client: null }),
			await h.api('GET', '/customers/10001', { token: 'not-a-token' }),
			await h.api('GET', '/discovery', {
				client: null,
				headers: { Authorization: 'Basic ZGVtby1jbGllbnQ6ZGVtby1zZWNyZXQ=' },
			}),
		]) {
			expect(result.status).toBe(401);
			expect(result.body.error.code).toBe('UNAUTHENTICATED');
			expect(result.headers.get('www-authenticate')).toBe('Bearer');
		}
	});

	test('stops working once revoked, for that client only', async () => {
		const demo = await h.token('demo-client');
		const limited = await h.token('limited-client');
		expect((await h.api('GET', '/discovery', { token: demo })).status).toBe(200);
		const revoke = await h.admin('POST', '/revoke-tokens', { client_id: 'demo-client' });
		expect(revoke.body.revoked).toBeGreaterThanOrEqual(1);
		expect((await h.api('GET', '/discovery', { token: demo })).status).toBe(401);
		expect((await h.api('GET', '/discovery', { token: limited })).status).toBe(200);
		h.forgetTokens();
		expect((await h.api('GET', '/discovery')).status).toBe(200);
	});

	test('GET /_admin/tokens lists every token issued, revoked ones too, across resets', async () => {
		const first = await h.requestToken('limited-client', 'limited-secret', { site_id: '1' });
		await h.admin('POST', '/revoke-tokens', { client_id: 'limited-client' });
		await h.admin('POST', '/reset');
		const second = await h.requestToken('limited-client', 'limited-secret', { site_id: '1' });
		const listed = await h.admin('GET', '/tokens?limit=2000');
		expect(listed.status).toBe(200);
		const limited = (listed.body.data as Array<{ client_id: string }>).filter(
			(entry) => entry.client_id === 'limited-client',
		);
		expect(limited.slice(-2)).toEqual([
			{
				at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				client_id: 'limited-client',
				access_token: first.body.access_token,
				refresh_token: first.body.refresh_token,
				live: false,
			},
			expect.objectContaining({ access_token: second.body.access_token, live: true }),
		]);
		expect((await h.admin('GET', '/tokens?limit=0')).status).toBe(422);
	});

	test('expires after its lifetime', async () => {
		const shortLived = await Harness.start({ tokenLifetimeSeconds: 1 });
		try {
			const token = await shortLived.token();
			expect((await shortLived.api('GET', '/discovery', { token })).status).toBe(200);
			await sleep(1100);
			expect((await shortLived.api('GET', '/discovery', { token })).status).toBe(401);
		} finally {
			await shortLived.close();
		}
	});
});
