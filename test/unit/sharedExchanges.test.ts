import { EXCHANGE_GRACE_MS, SharedExchanges, exchangeKey } from '../../credentials/sharedExchanges';

/** The credential's coalescing of token exchanges within one process, on a clock the test moves. */
function clockAndExchanges() {
	const clock = { now: 1_000_000 };
	const shared = new SharedExchanges<string>(EXCHANGE_GRACE_MS, () => clock.now);
	let started = 0;
	const pending: Array<{ resolve(token: string): void; reject(error: Error): void }> = [];
	const exchange = () => {
		started++;
		return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
	};
	/** Runs `key`, which must start exchange number `count`; answers that exchange with `token`. */
	async function newExchange(key: string, count: number, token: string) {
		const result = shared.run(key, exchange);
		expect(started).toBe(count);
		pending[count - 1].resolve(token);
		return await result;
	}
	return { clock, shared, exchange, pending, started: () => started, newExchange };
}

test('callers with the same key share the exchange in flight', async () => {
	const { shared, exchange, pending, started } = clockAndExchanges();
	const results = Promise.all([1, 2, 3].map(() => shared.run('client+stale', exchange)));
	expect(started()).toBe(1);
	pending[0].resolve('tok-2');
	expect(await results).toEqual(['tok-2', 'tok-2', 'tok-2']);
});

test('for the grace period after a success, the same key gets its result; after it, a new exchange', async () => {
	const { clock, shared, exchange, started, newExchange } = clockAndExchanges();
	expect(await newExchange('k', 1, 'tok-2')).toBe('tok-2');
	clock.now += EXCHANGE_GRACE_MS - 1;
	expect(await shared.run('k', exchange)).toBe('tok-2');
	expect(started()).toBe(1);
	clock.now += 1;
	expect(await newExchange('k', 2, 'tok-3')).toBe('tok-3');
});

test('a failure is shared by the callers waiting for it, then forgotten', async () => {
	const { shared, exchange, pending, newExchange } = clockAndExchanges();
	const waiting = [shared.run('k', exchange), shared.run('k', exchange)];
	pending[0].reject(new Error('refused'));
	for (const result of waiting) await expect(result).rejects.toThrow('refused');
	expect(await newExchange('k', 2, 'tok-2')).toBe('tok-2');
});

test('different keys never share', async () => {
	const { shared, exchange, pending, started } = clockAndExchanges();
	const results = Promise.all([shared.run('a', exchange), shared.run('b', exchange)]);
	expect(started()).toBe(2);
	pending[0].resolve('tok-a');
	pending[1].resolve('tok-b');
	expect(await results).toEqual(['tok-a', 'tok-b']);
});

describe('exchangeKey', () => {
	const credential = {
		authUrl: 'https://auth.example.com',
		clientId: 'client-1',
		clientSecret: 'secret-1',
		scope: 'site',
		siteId: 1,
		agencyId: 0,
		accessToken: 'stale-token',
		domain: 'https://api.example.com',
	};

	test('is the same for the same client replacing the same token, whatever the API domain', () => {
		expect(exchangeKey({ ...credential, domain: '' })).toBe(exchangeKey(credential));
		expect(exchangeKey({ ...credential, agencyId: 7 })).toBe(exchangeKey(credential));
	});

	test.each([
		['another Auth URL', { authUrl: 'https://other.example.com' }],
		['another client id', { clientId: 'client-2' }],
		['a changed secret', { clientSecret: 'secret-2' }],
		['another site', { siteId: 2 }],
		['agency scope', { scope: 'agency', agencyId: 1 }],
		['another stale token', { accessToken: 'newer-token' }],
		['no token yet', { accessToken: '' }],
	])('differs for %s', (_name, change) => {
		expect(exchangeKey({ ...credential, ...change })).not.toBe(exchangeKey(credential));
	});

	test('holds neither the secret nor the token', () => {
		const key = exchangeKey(credential);
		expect(key).toMatch(/^[0-9a-f]{64}$/);
	});
});
