import { Faults } from '../../sandbox/faults';
import { detailFields, eventually, HttpResult, sleep, useSandbox } from '../support/sandbox/harness';
import { formWith } from '../support/fixtures/images';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const h = useSandbox();
afterEach(async () => {
	await h.admin('DELETE', '/faults');
});

async function repeat(times: number, call: () => Promise<HttpResult>): Promise<HttpResult[]> {
	const results: HttpResult[] = [];
	for (let i = 0; i < times; i++) results.push(await call());
	return results;
}

describe('injected faults', () => {
	test('429 at the configured rate, with Retry-After, for the chosen client only', async () => {
		await h.token('demo-client');
		await h.token('limited-client');
		const set = await h.admin('POST', '/faults', { client_id: 'demo-client', rate_429: 0.25, retry_after_s: 7 });
		expect(set.body.data).toMatchObject({ scope: 'demo-client', faults: expect.objectContaining({ rate_429: 0.25 }) });
		const results = await repeat(12, () => h.api('GET', '/discovery'));
		// Deterministic: exactly every 4th request.
		expect(results.map((result) => result.status)).toEqual([
			200, 200, 200, 429, 200, 200, 200, 429, 200, 200, 200, 429,
		]);
		const limited = results.filter((result) => result.status === 429);
		expect(limited[0].headers.get('retry-after')).toBe('7');
		expect(limited[0].body.error.code).toBe('RATE_LIMITED');
		const other = await repeat(8, () => h.api('GET', '/discovery', { client: 'limited-client' }));
		expect(other.every((result) => result.status === 200)).toBe(true);
	});

	test('a limit per second answers 429 past it until the second is over, Retry-After rounded up', () => {
		let now = 0;
		const faults = new Faults(() => now);
		faults.configure({ rate_limit_per_s: 2 }, () => true);
		/** A request arriving at `ms`: "ok", or the status and Retry-After of the injected error. */
		const arrivingAt = (ms: number) => {
			now = ms;
			const { outcome } = faults.decide('demo-client', false, true, 'GET /discovery');
			return outcome.kind === 'error' ? `${outcome.error.status} ${outcome.error.headers?.['Retry-After']}` : 'ok';
		};
		expect([5_000, 5_000, 5_300, 5_999, 6_000, 6_000, 6_001, 8_500].map(arrivingAt)).toEqual([
			'ok',
			'ok',
			'429 1',
			'429 1',
			'ok',
			'ok',
			'429 1',
			'ok',
		]);
	});

	test('a limit per second over HTTP: the requests past it get 429, the next second passes', async () => {
		await h.token();
		await h.admin('POST', '/faults', { rate_limit_per_s: 3 });
		// Start at the beginning of a second, so that five quick requests fall in the same one.
		await sleep(1000 - (Date.now() % 1000) + 20);
		const results = await repeat(5, () => h.api('GET', '/discovery'));
		expect(results.map((result) => result.status)).toEqual([200, 200, 200, 429, 429]);
		expect(results[3].headers.get('retry-after')).toBe('1');
		expect(results[3].body.error.code).toBe('RATE_LIMITED');
		await sleep(1000);
		expect((await h.api('GET', '/discovery')).status).toBe(200);
		expect((await h.admin('GET', '/counters')).body.faults.rate_429).toBeGreaterThanOrEqual(2);
	});

	test('5xx with the configured status, never on the token endpoint unless include_token', async () => {
		await h.admin('POST', '/faults', { rate_5xx: 1, status_5xx: 502 });
		const failing = await h.api('GET', '/customers/10001');
		expect(failing.status).toBe(502);
		expect(failing.body.error.code).toBe('BAD_GATEWAY');
		expect((await h.requestToken('demo-client', 'demo-secret', { site_id: '1' })).status).toBe(200);
		await h.admin('POST', '/faults', { rate_5xx: 1, include_token: true });
		const token = await h.requestToken('demo-client', 'demo-secret', { site_id: '1' });
		expect(token.status).toBe(503);
		expect(token.body.error.code).toBe('SERVICE_UNAVAILABLE');
	});

	test("forbidden routes answer 403, as production answers an access without the operation's right; other routes pass", async () => {
		await h.admin('POST', '/faults', { client_id: 'demo-client', forbidden_routes: ['POST /products/search'] });
		await h.token('demo-client');
		const refused = await h.api('POST', '/products/search', { body: {} });
		expect(refused.status).toBe(403);
		expect(refused.body.error).toMatchObject({
			code: 'FORBIDDEN',
			message: expect.stringContaining('RS:PRODUCT_SEARCH'),
		});
		expect((await h.api('POST', '/customers/search', { body: { per_page: 1 } })).status).toBe(200);
		expect((await h.admin('GET', '/counters')).body.faults.forbidden).toBe(1);
		await h.admin('DELETE', '/faults');
		expect((await h.api('POST', '/products/search', { body: {} })).status).toBe(200);
	});

	test('a reset destroys the connection without an answer', async () => {
		await h.token();
		await h.admin('POST', '/faults', { reset_rate: 1 });
		await expect(h.api('GET', '/discovery')).rejects.toThrow();
		const log = (await h.admin('GET', '/requests')).body.data;
		expect(log[log.length - 1]).toMatchObject({ path: '/api/v2/site/discovery', status: null });
	});

	test('a reset before processing writes nothing; a reset after processing writes the record', async () => {
		await h.token();
		await h.admin('POST', '/faults', { client_id: 'demo-client', reset_rate: 1 });
		await expect(
			h.api('POST', '/customers', { body: { lastname: 'Avant', email: 'reset.before@example.org' } }),
		).rejects.toThrow();
		await h.admin('POST', '/faults', { client_id: 'demo-client', reset_after_rate: 1 });
		await expect(
			h.api('POST', '/customers', { body: { lastname: 'Après', email: 'reset.after@example.org' } }),
		).rejects.toThrow();
		const log = (await h.admin('GET', '/requests?limit=2')).body.data;
		expect(log.map((entry: { status: number | null; faults: string[] }) => [entry.status, entry.faults])).toEqual([
			[null, ['reset_before']],
			[null, ['reset_after']],
		]);
		await h.admin('DELETE', '/faults');
		const found = async (email: string) =>
			(await h.api('POST', '/customers/search', { body: { email } })).body.data.map(
				(customer: { lastname: string }) => customer.lastname,
			);
		expect(await found('reset.before@example.org')).toEqual([]);
		expect(await found('reset.after@example.org')).toEqual(['Après']);
	});

	test('only_route keeps the faults to one route: every create loses its answer, searches are answered', async () => {
		await h.token();
		await h.admin('POST', '/faults', { client_id: 'demo-client', reset_after_rate: 1, only_route: 'POST /customers' });
		await expect(
			h.api('POST', '/customers', { body: { lastname: 'Seule', email: 'only.route@example.org' } }),
		).rejects.toThrow();
		const search = await h.api('POST', '/customers/search', { body: { email: 'only.route@example.org' } });
		expect(search.body.data.map((customer: { lastname: string }) => customer.lastname)).toEqual(['Seule']);
		await h.admin('DELETE', '/faults');
	});

	test('reset_after_rate counts the processed requests only, deterministically', async () => {
		await h.token();
		await h.admin('POST', '/faults', { rate_429: 0.5, reset_after_rate: 0.5 });
		const outcomes: (number | 'reset')[] = [];
		for (let i = 0; i < 8; i++)
			outcomes.push(
				await h.api('GET', '/discovery').then(
					(result) => result.status,
					() => 'reset' as const,
				),
			);
		// Every 2nd request is a 429; of the 4 processed ones, every 2nd loses its answer.
		expect(outcomes).toEqual([200, 429, 'reset', 429, 200, 429, 'reset', 429]);
	});

	test('revoke_token_every revokes the client’s tokens on every Nth authenticated request', async () => {
		await h.admin('POST', '/reset');
		h.forgetTokens();
		await h.admin('POST', '/faults', { client_id: 'demo-client', revoke_token_every: 3 });
		const statuses: number[] = [];
		for (let i = 0; i < 7; i++) {
			const result = await h.api('GET', '/discovery');
			statuses.push(result.status);
			if (result.status === 401) {
				expect(result.body.error.code).toBe('UNAUTHENTICATED');
				h.forgetTokens();
			}
		}
		// The 3rd authenticated request is refused; a new token starts again: 4th, 5th, then the 6th refused.
		expect(statuses).toEqual([200, 200, 401, 200, 200, 401, 200]);
		const counters = (await h.admin('GET', '/counters')).body;
		expect(counters.faults.token_revoked).toBe(2);
		expect(counters.token_exchanges_by_client['demo-client']).toBe(3);
		const log = (await h.admin('GET', '/requests')).body.data.filter(
			(entry: { faults: string[] }) => entry.faults.length > 0,
		);
		expect(log.map((entry: { status: number; faults: string[] }) => [entry.status, entry.faults])).toEqual([
			[401, ['token_revoked']],
			[401, ['token_revoked']],
		]);
		expect((await h.api('GET', '/discovery', { client: 'limited-client' })).status).toBe(200);
	});

	test('latency delays the answer', async () => {
		await h.token();
		await h.admin('POST', '/faults', { client_id: 'demo-client', latency_ms: 250 });
		const started = performance.now();
		expect((await h.api('GET', '/discovery')).status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(240);
	});

	test('DELETE clears the faults; invalid settings are refused', async () => {
		await h.admin('POST', '/faults', { rate_5xx: 1 });
		await h.admin('DELETE', '/faults');
		expect((await h.api('GET', '/discovery')).status).toBe(200);
		const invalid = await h.admin('POST', '/faults', {
			rate_429: 2,
			rate_limit_per_s: -1,
			client_id: 'nobody',
			status_5xx: 404,
			reset_after_rate: -1,
			revoke_token_every: 1.5,
		});
		expect(invalid.status).toBe(422);
		expect(detailFields(invalid)).toEqual([
			'client_id',
			'rate_429',
			'rate_limit_per_s',
			'status_5xx',
			'reset_after_rate',
			'revoke_token_every',
		]);
	});
});

describe('counters and request log', () => {
	test('count token exchanges and requests by route; reset clears them', async () => {
		await h.admin('POST', '/reset');
		h.forgetTokens();
		await h.token('demo-client');
		for (const id of [10001, 10002, 10003]) await h.api('GET', `/customers/${id}`);
		await h.api('POST', '/customers/search', { body: { per_page: 1 } });
		await h.api('GET', '/nowhere');
		const counters = (await h.admin('GET', '/counters')).body;
		expect(counters).toEqual({
			token_exchanges: 1,
			token_exchanges_by_client: { 'demo-client': 1 },
			requests_total: 5,
			requests_by_route: { 'GET /customers/{customerId}': 3, 'POST /customers/search': 1 },
			deliveries: { made: 0, failed: 0, by_event: {} },
			in_flight: { current: 0, max: 1, by_client: { 'demo-client': { current: 0, max: 1 } } },
			faults: { reset_before: 0, reset_after: 0, rate_429: 0, server_error: 0, token_revoked: 0, forbidden: 0 },
		});
		await h.admin('POST', '/reset');
		expect((await h.admin('GET', '/counters')).body.requests_total).toBe(0);
		expect((await h.admin('GET', '/requests')).body.data).toEqual([]);
	});

	test('the request log keeps what was sent and answered', async () => {
		await h.admin('POST', '/reset');
		const search = await h.api('POST', '/customers/search', {
			body: { manufacturer_id: 102, per_page: 2 },
			query: { include: 'groups' },
		});
		await h.api('POST', '/users/1002/photo', { form: formWith({ profile_picture: Buffer.from('not an image') }) });
		const log = (await h.admin('GET', '/requests?limit=2')).body.data;
		expect(log).toHaveLength(2);
		expect(log[0]).toEqual({
			at: expect.any(String),
			client_id: 'demo-client',
			method: 'POST',
			path: '/api/v2/site/customers/search',
			route: 'POST /customers/search',
			query: { include: 'groups' },
			body: { manufacturer_id: 102, per_page: 2 },
			status: 200,
			request_id: search.headers.get('x-request-id'),
			content_type: 'application/json',
			faults: [],
		});
		expect(log[1]).toMatchObject({
			route: 'POST /users/{userId}/photo',
			status: 422,
			body: expect.stringMatching(/^\[multipart\/form-data body, \d+ bytes\]$/),
		});
	});
});

describe('requests in flight', () => {
	test('are counted at the server, overall and per client, with the maximum since reset', async () => {
		await h.token('demo-client');
		await h.token('limited-client');
		await h.admin('POST', '/reset');
		await h.admin('POST', '/faults', { latency_ms: 400 });
		const pending = [
			...Array.from({ length: 5 }, () => h.api('GET', '/discovery')),
			...Array.from({ length: 2 }, () => h.api('GET', '/discovery', { client: 'limited-client' })),
		];
		const during = await eventually('the seven requests in flight', async () => {
			const inFlight = (await h.admin('GET', '/counters')).body.in_flight;
			return inFlight.current === 7 && inFlight;
		});
		expect(during.by_client).toEqual({
			'demo-client': { current: 5, max: 5 },
			'limited-client': { current: 2, max: 2 },
		});
		expect((await Promise.all(pending)).map((result) => result.status)).toEqual(Array(7).fill(200));
		const after = (await h.admin('GET', '/counters')).body.in_flight;
		expect(after).toEqual({
			current: 0,
			max: 7,
			by_client: { 'demo-client': { current: 0, max: 5 }, 'limited-client': { current: 0, max: 2 } },
		});
		await h.admin('POST', '/reset');
		expect((await h.admin('GET', '/counters')).body.in_flight).toEqual({ current: 0, max: 0, by_client: {} });
	});

	test('a reset connection leaves the count', async () => {
		await h.token();
		await h.admin('POST', '/reset');
		await h.admin('POST', '/faults', { reset_rate: 0.5, reset_after_rate: 1 });
		await Promise.allSettled(Array.from({ length: 4 }, () => h.api('GET', '/discovery')));
		await eventually(
			'no request in flight',
			async () => (await h.admin('GET', '/counters')).body.in_flight.current === 0,
		);
		expect((await h.admin('GET', '/counters')).body.faults).toMatchObject({ reset_before: 2, reset_after: 2 });
	});
});

describe('X-Request-Id', () => {
	test('is on every answer and equals request_id on errors', async () => {
		const answers = [
			await h.api('GET', '/discovery'),
			await h.api('GET', '/customers/1'),
			await h.api('GET', '/discovery', { client: null }),
			await h.requestToken('demo-client', 'demo-secret', { site_id: '1' }),
			await h.admin('GET', '/counters'),
			await h.send('GET', '/'),
			await h.api('DELETE', '/customers/10001/consent'),
		];
		const ids = answers.map((answer) => answer.headers.get('x-request-id'));
		for (const id of ids) expect(id).toMatch(UUID);
		expect(new Set(ids).size).toBe(answers.length);
		for (const answer of answers.filter((candidate) => candidate.status >= 400))
			expect(answer.body.request_id).toBe(answer.headers.get('x-request-id'));
	});
});
