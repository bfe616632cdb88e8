import type { IHttpRequestOptions } from 'n8n-workflow';

import { apiRequest } from '../../nodes/shared/transport';
import type { ApiResponse } from '../../nodes/shared/transport';
import { Pacing, pacingOf } from '../../nodes/shared/transport/pacing';
import { fakeContext, ok, status } from '../support/fakeN8n';

/**
 * Shared 429 pacing (nodes/shared/transport/pacing.ts): one 429 holds every request of the node's
 * run until its Retry-After has passed; other waits stay with their own request.
 */

describe('Pacing', () => {
	test('a pause holds ready() until it ends; a longer one lengthens it and a shorter one does not shorten it', async () => {
		let now = 1_000;
		const pacing = new Pacing(() => now);
		pacing.pause(300);
		pacing.pause(100);
		expect(pacing.pauses).toBe(1);
		let ready = false;
		const waiting = pacing.ready().then(() => (ready = true));
		now += 250;
		pacing.pause(200); // now ends at 1,450, after the first end (1,300)
		expect(pacing.pauses).toBe(1);
		now = 1_449;
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(ready).toBe(false);
		now = 1_450;
		await waiting;
		expect(ready).toBe(true);
	});

	test('once a pause is over, ready() resolves at once, and the next 429 starts a new pause', async () => {
		let now = 0;
		const pacing = new Pacing(() => now);
		pacing.pause(100);
		now = 100;
		await pacing.ready();
		pacing.pause(100);
		expect(pacing.pauses).toBe(2);
	});

	test('the requests held leave together when the pause ends, in random order', async () => {
		// Fisher-Yates over [0, 1, 2] with these draws swaps 2 with 0, then 1 with 0: [1, 2, 0].
		const draws = [0, 0];
		const pacing = new Pacing(Date.now, () => draws.shift() ?? 0);
		const started = performance.now();
		pacing.pause(300);
		const left: Array<{ waiter: number; at: number }> = [];
		await Promise.all(
			[0, 1, 2].map(async (waiter) => {
				await pacing.ready();
				left.push({ waiter, at: performance.now() - started });
			}),
		);
		expect(left.map((entry) => entry.waiter)).toEqual([1, 2, 0]);
		expect(left[0].at).toBeGreaterThanOrEqual(299);
		expect(left[2].at - left[0].at).toBeLessThan(5);
	});

	test('one pacing per n8n context: the same for every call with that context, another for another', () => {
		const first = {};
		expect(pacingOf(first)).toBe(pacingOf(first));
		expect(pacingOf({})).not.toBe(pacingOf(first));
	});
});

/**
 * A fake of n8n's helper whose answers are chosen per request by a function, answering after a
 * delay, and that records when each request left.
 */
function timedContext(answer: (options: IHttpRequestOptions, sent: number) => { response: ApiResponse; ms: number }) {
	const started = performance.now();
	const log: Array<{ url: string; at: number; answeredAt?: number }> = [];
	const { execute } = fakeContext({
		httpRequestWithAuthentication: async (_type, options) => {
			const entry = {
				url: String(options.url),
				at: performance.now() - started,
				answeredAt: undefined as number | undefined,
			};
			log.push(entry);
			const { response, ms } = answer(options, log.filter((sent) => sent.url === options.url).length);
			await new Promise((resolve) => setTimeout(resolve, ms));
			entry.answeredAt = performance.now() - started;
			return response;
		},
	});
	return { context: execute, log };
}

const sentAt = (log: Array<{ url: string; at: number }>, url: string) =>
	log.filter((entry) => entry.url === url).map((entry) => entry.at);

describe('the transport under one 429', () => {
	test('a 429 holds every request of the run, retries and new ones, for its Retry-After; then all go on together', async () => {
		// /a is throttled once (Retry-After 0.4 s) after 10 ms; /b is in flight then (answered at 60 ms);
		// /c starts at 100 ms, inside the pause.
		const { context, log } = timedContext((options, count) =>
			options.url === '/a' && count === 1
				? { response: status(429, { 'retry-after': '0.4' }), ms: 10 }
				: { response: ok({ data: options.url }), ms: options.url === '/b' ? 60 : 1 },
		);
		const a = apiRequest(context, { method: 'POST', idempotent: false, path: '/a' });
		const b = apiRequest(context, { method: 'GET', path: '/b', idempotent: true });
		await new Promise((resolve) => setTimeout(resolve, 100));
		const c = apiRequest(context, { method: 'GET', path: '/c', idempotent: true });
		await Promise.all([a, b, c]);

		const [retryA] = sentAt(log, '/a').slice(1);
		const [onlyB] = sentAt(log, '/b');
		const [onlyC] = sentAt(log, '/c');
		// /b was already sent when /a's 429 came back (on any machine: it left before any timer ran): it
		// is not called back, and is not sent again.
		expect(sentAt(log, '/b')).toHaveLength(1);
		expect(onlyB).toBeLessThan(log.find((entry) => entry.url === '/a')!.answeredAt!);
		// /a's retry and /c both wait for the end of the pause (about 10 + 400 ms), then leave together.
		expect(retryA).toBeGreaterThanOrEqual(400);
		expect(onlyC).toBeGreaterThanOrEqual(400);
		expect(Math.abs(onlyC - retryA)).toBeLessThan(50);
		expect(pacingOf(context).pauses).toBe(1);
	});

	test('429s answered while a pause lasts make one pause, not one each', async () => {
		const { context, log } = timedContext((options, count) =>
			count === 1
				? { response: status(429, { 'retry-after': '0.3' }), ms: 5 }
				: { response: ok({ data: options.url }), ms: 1 },
		);
		const started = performance.now();
		await Promise.all(
			['/1', '/2', '/3', '/4', '/5'].map((path) => apiRequest(context, { method: 'GET', path, idempotent: true })),
		);
		const wall = performance.now() - started;
		expect(log).toHaveLength(10);
		expect(pacingOf(context).pauses).toBe(1);
		// One Retry-After (0.3 s), not five in a row.
		expect(wall).toBeLessThan(900);
	});

	test('a 503 waits on its own: the other requests of the run go on', async () => {
		const { context, log } = timedContext((options, count) =>
			options.url === '/slow' && count === 1
				? { response: status(503, { 'retry-after': '0.4' }), ms: 1 }
				: { response: ok({ data: options.url }), ms: 1 },
		);
		const slow = apiRequest(context, { method: 'GET', path: '/slow', idempotent: true });
		await new Promise((resolve) => setTimeout(resolve, 50));
		await apiRequest(context, { method: 'GET', path: '/other', idempotent: true });
		const [other] = sentAt(log, '/other');
		expect(other).toBeLessThan(200);
		await slow;
		expect(sentAt(log, '/slow')[1]).toBeGreaterThanOrEqual(400);
		expect(pacingOf(context).pauses).toBe(0);
	});

	test('runs do not share a pause: another context sends at once', async () => {
		const throttled = timedContext((_options, count) =>
			count === 1 ? { response: status(429, { 'retry-after': '0.5' }), ms: 1 } : { response: ok({}), ms: 1 },
		);
		const other = timedContext(() => ({ response: ok({ data: 1 }), ms: 1 }));
		const paused = apiRequest(throttled.context, { method: 'GET', path: '/x', idempotent: true });
		await new Promise((resolve) => setTimeout(resolve, 20));
		const started = performance.now();
		await apiRequest(other.context, { method: 'GET', path: '/y', idempotent: true });
		expect(performance.now() - started).toBeLessThan(200);
		await paused;
		expect(sentAt(throttled.log, '/x')[1]).toBeGreaterThanOrEqual(500);
	});
});
