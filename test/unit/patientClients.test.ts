import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { fetchPatiently } from '../../tools/n8n/network';
import { waitFor } from '../support/waitFor';

/** What undici throws when the server resets the connection. */
function resetError() {
	return new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
}

describe('waitFor on a busy n8n', () => {
	it('reads a connection reset during polling as "not yet" and returns the value once it comes', async () => {
		let calls = 0;
		const value = await waitFor(
			'the execution',
			() => {
				calls++;
				if (calls <= 2) throw resetError();
				return calls === 3 ? undefined : 'done';
			},
			5_000,
			10,
		);
		expect(value).toBe('done');
		expect(calls).toBe(4);
	});

	it('throws any other error of the probe at once', async () => {
		let calls = 0;
		const failing = waitFor(
			'the execution',
			() => {
				calls++;
				throw new Error('expected 1 execution, found 2');
			},
			5_000,
			10,
		);
		await expect(failing).rejects.toThrow('expected 1 execution, found 2');
		expect(calls).toBe(1);
	});

	it('names the last connection failure when time runs out', async () => {
		const failing = waitFor(
			'the hook',
			() => {
				throw resetError();
			},
			100,
			10,
		);
		await expect(failing).rejects.toThrow('Timed out waiting for the hook (last connection failure: fetch failed)');
	});
});

describe('fetchPatiently', () => {
	/** A server that resets the first `resets` connections and answers 503 to the next `unavailable` requests. */
	async function flakyServer(resets: number, unavailable: number) {
		const seen: string[] = [];
		const server = createServer((request, response) => {
			seen.push(request.method ?? '');
			if (seen.length <= resets) {
				request.socket.destroy();
				return;
			}
			if (seen.length <= resets + unavailable) {
				response.writeHead(503).end('{"message":"Database is not ready!"}');
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
		return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
	}

	it('sends a read again after resets and 503s, and returns the answer', async () => {
		const server = await flakyServer(2, 1);
		try {
			const response = await fetchPatiently(server.url);
			expect(response.status).toBe(200);
			expect(server.seen).toEqual(['GET', 'GET', 'GET', 'GET']);
		} finally {
			await server.close();
		}
	});

	it('never sends a write again after a reset (it may have been processed)', async () => {
		const server = await flakyServer(1, 0);
		try {
			await expect(fetchPatiently(server.url, { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
			expect(server.seen).toEqual(['POST']);
		} finally {
			await server.close();
		}
	});

	it('sends a write again after a 503, which says it was not processed', async () => {
		const server = await flakyServer(0, 2);
		try {
			const response = await fetchPatiently(server.url, { method: 'POST', body: '{}' });
			expect(response.status).toBe(200);
			expect(server.seen).toEqual(['POST', 'POST', 'POST']);
		} finally {
			await server.close();
		}
	});

	it('returns the 503 itself once the time budget is spent', async () => {
		const server = await flakyServer(0, 1000);
		try {
			const response = await fetchPatiently(server.url, {}, 600);
			expect(response.status).toBe(503);
		} finally {
			await server.close();
		}
	});
});
