import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AgencyCrmApi } from '../../credentials/AgencyCrmApi.credentials';
import { TOKEN_EXCHANGE_ADVICE } from '../../credentials/contract';
import { apiRequest, reuseRecentTokens } from '../../nodes/shared/transport';
import { RECENT_TOKEN_MS, RecentTokens } from '../../nodes/shared/transport/credential';
import { errorAnswer } from '../support/fakeN8n';
import { answerAt, CORES, connectionError, coreContext, fakeAgencyCrm } from '../support/n8nCores';
import { failureOf } from '../support/failures';

/**
 * The transport's 401 path through fakes of both n8n cores (test/support/n8nCores.ts) with the real
 * credential: a revoked token is replaced by one exchange, answers keep their headers and body, and
 * failures after the new exchange say what went wrong on 1.x as on 2.x.
 */

/** The credential type as a freshly started n8n process loads it (its shared exchanges empty). */
function newProcess(): AgencyCrmApi {
	let credentialType: AgencyCrmApi | undefined;
	jest.isolateModules(() => {
		const loaded = jest.requireActual<typeof import('../../credentials/AgencyCrmApi.credentials')>(
			'../../credentials/AgencyCrmApi.credentials',
		);
		credentialType = new loaded.AgencyCrmApi();
	});
	return credentialType!;
}

function storedCredential(): ICredentialDataDecryptedObject {
	return {
		authUrl: 'https://auth.example.com',
		clientId: 'client-1',
		clientSecret: 'secret-1',
		scope: 'site',
		siteId: 1,
		accessToken: '',
		domain: '',
	};
}

/**
 * One fake n8n process on `core` with one stored credential, after a first successful request.
 * Each context is one node run (`credentialId` names the credential: recent tokens are kept by it).
 */
async function warmedUp(core: (typeof CORES)[number], crm = fakeAgencyCrm(), credentialId?: string) {
	const store = storedCredential();
	const credentialType = newProcess();
	const newContext = () => coreContext(core, credentialType, store, crm, credentialId);
	await apiRequest(newContext().context, { method: 'GET', path: '/discovery', idempotent: true });
	expect(crm.state.exchanges).toBe(1);
	crm.requests.length = 0;
	return { crm, store, newContext };
}

describe.each(CORES)('on the n8n %s core', (core) => {
	test('every request asks for status errors back (true), so answers keep headers and body', async () => {
		const crm = fakeAgencyCrm(
			answerAt('/customers/9', errorAnswer(404, 'NOT_FOUND', 'No such customer', { headerId: 'hdr-404' })),
		);
		const { newContext } = await warmedUp(core, crm);
		const { context, sent } = newContext();
		const error = await failureOf<NodeApiError>(
			apiRequest(context, { method: 'GET', path: '/customers/9', idempotent: true }),
		);
		expect(sent.map((options) => options.ignoreHttpStatusErrors)).toEqual([true]);
		expect(error.message).toBe('NOT_FOUND: No such customer (HTTP 404)');
		expect(error.description).toBe('Check the IDs given.<br>Request ID: hdr-404 (quote it to Agency CRM support)');
	});

	test('a revoked token: the request is sent again with status errors thrown, one exchange, success', async () => {
		const { crm, store, newContext } = await warmedUp(core);
		crm.revoke();
		const { context, sent } = newContext();
		const response = await apiRequest(context, { method: 'GET', path: '/agencies/101', idempotent: true });
		expect(response.statusCode).toBe(200);
		expect(crm.state.exchanges).toBe(2);
		// The answer 401, the same request resent with the stale token (401), then with the new one.
		expect(crm.requests.map((request) => request.status)).toEqual([401, 401, 200]);
		expect(sent.map((options) => options.ignoreHttpStatusErrors)).toEqual([true, false, false]);
		expect(store.accessToken).toBe('tok-2');
	});

	test('a create answered 401 was not processed: it is resent once and created once', async () => {
		const { crm, newContext } = await warmedUp(core);
		crm.revoke();
		const response = await apiRequest(newContext().context, {
			method: 'POST',
			idempotent: false,
			path: '/customers',
			body: { lastname: 'A' },
		});
		expect(response.statusCode).toBe(200);
		expect(crm.requests.filter((request) => request.status === 200)).toHaveLength(1);
	});

	test('a token revoked again while a retry waits is replaced again: the request still succeeds', async () => {
		let answered503 = false;
		const crm = fakeAgencyCrm((options) => {
			if (options.url !== '/agencies/101' || answered503) return undefined;
			// The first answer with a live token: 503, and every token is revoked before the retry.
			answered503 = true;
			crm.revoke();
			return { statusCode: 503, body: {}, headers: { 'retry-after': '0' } };
		});
		const { newContext } = await warmedUp(core, crm);
		crm.revoke();
		const response = await apiRequest(newContext().context, { method: 'GET', path: '/agencies/101', idempotent: true });
		expect(response.statusCode).toBe(200);
		expect(crm.requests.map((request) => request.status)).toEqual([401, 401, 503, 401, 401, 200]);
		expect(crm.state.exchanges).toBe(3);
	});

	test('100 items after a revocation, one after another: one exchange', async () => {
		const { crm, newContext } = await warmedUp(core);
		crm.revoke();
		for (let item = 0; item < 100; item++) {
			await apiRequest(newContext().context, { method: 'GET', path: '/agencies/101', idempotent: true });
		}
		expect(crm.state.exchanges).toBe(2);
		expect(crm.requests.filter((request) => request.status === 401)).toHaveLength(2);
		expect(crm.requests.filter((request) => request.status === 200)).toHaveLength(100);
	});

	test('20 requests in flight that all see the same 401 share one exchange', async () => {
		const { crm, newContext } = await warmedUp(core);
		crm.state.exchangeDelayMs = 20;
		crm.revoke();
		const responses = await Promise.all(
			Array.from({ length: 20 }, () =>
				apiRequest(newContext().context, { method: 'GET', path: '/agencies/101', idempotent: true }),
			),
		);
		expect(responses.every((response) => response.statusCode === 200)).toBe(true);
		expect(crm.state.exchanges).toBe(2);
	});

	test('two processes that see the same 401 exchange at most once each, and both succeed', async () => {
		const crm = fakeAgencyCrm();
		const store = storedCredential();
		const processes = [newProcess(), newProcess()];
		await apiRequest(coreContext(core, processes[0], store, crm).context, {
			method: 'GET',
			idempotent: false,
			path: '/discovery',
		});
		crm.revoke();
		crm.state.exchangeDelayMs = 20;
		const responses = await Promise.all(
			processes.flatMap((credentialType) =>
				Array.from({ length: 5 }, () =>
					apiRequest(coreContext(core, credentialType, store, crm).context, {
						method: 'GET',
						idempotent: false,
						path: '/agencies/101',
					}),
				),
			),
		);
		expect(responses.every((response) => response.statusCode === 200)).toBe(true);
		expect(crm.state.exchanges - 1).toBe(2);
	});

	test('a failure of the resent request is reported with the API code, status and request id', async () => {
		const packNeeded = errorAnswer(403, 'PACK_NOT_GRANTED', 'Customers pack needed', {
			requestId: 'r-403',
			headerId: 'r-403',
		});
		const crm = fakeAgencyCrm(answerAt('/customers/1', packNeeded));
		const { newContext } = await warmedUp(core, crm);
		crm.revoke();
		const error = await failureOf<NodeApiError>(
			apiRequest(newContext().context, {
				method: 'GET',
				idempotent: false,
				path: '/customers/1',
				guide: { accessNeeded: 'the Customers pack' },
			}),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('PACK_NOT_GRANTED: Customers pack needed (HTTP 403)');
		expect(error.description).toBe(
			"This operation needs the Customers pack, and its permission and right (each operation has both, e.g. SITE_PRODUCT:READ + RS:PRODUCT_SEARCH to search properties), granted to the API client in Agency CRM's back office: ask for what is missing. An agency named in the request must also belong to the credential's site.<br>Request ID: r-403 (quote it to Agency CRM support)",
		);
		expect(error.context.apiError).toMatchObject({ code: 'PACK_NOT_GRANTED', request_id: 'r-403' });
	});

	test('a resent request throttled with 429 is retried like any other answer', async () => {
		let throttled = 0;
		const crm = fakeAgencyCrm((options) =>
			options.url === '/users' && throttled++ === 0
				? { statusCode: 429, body: { error: { code: 'RATE_LIMITED', message: 'Slow down' } }, headers: {} }
				: undefined,
		);
		const { newContext } = await warmedUp(core, crm);
		crm.revoke();
		const response = await apiRequest(newContext().context, { method: 'GET', path: '/users', idempotent: true });
		expect(response.statusCode).toBe(200);
		expect(crm.requests.map((request) => request.status)).toEqual([401, 401, 429, 200]);
	});

	test('a 401 that survives the new exchange is reported as the API answered it, after one exchange', async () => {
		const crm = fakeAgencyCrm(
			answerAt('/webhooks', errorAnswer(401, 'UNAUTHENTICATED', 'Token revoked', { requestId: 'r-9' })),
		);
		const { newContext } = await warmedUp(core, crm);
		const error = await failureOf<NodeApiError>(
			apiRequest(newContext().context, { method: 'GET', idempotent: false, path: '/webhooks' }),
		);
		expect(error.message).toBe('UNAUTHENTICATED: Token revoked (HTTP 401)');
		expect(error.description).toBe(
			'Agency CRM refused the access token even after a new token exchange: open the credential, check the Client ID and Client Secret, and press Save, which tests them.<br>Request ID: r-9 (quote it to Agency CRM support)',
		);
		expect(crm.state.exchanges).toBe(2);
		expect(crm.requests).toHaveLength(3);
	});

	test('a re-exchange the token endpoint refuses gives the credential message and what to do', async () => {
		const { crm, newContext } = await warmedUp(core);
		crm.revoke();
		crm.state.refuseExchanges = 401;
		const error = await failureOf<NodeOperationError>(
			apiRequest(newContext().context, { method: 'GET', idempotent: false, path: '/agencies/101' }),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Agency CRM refused the client ID or client secret (HTTP 401); check both values in the credential',
		);
		expect(error.description).toBe(TOKEN_EXCHANGE_ADVICE);
	});

	test('an unreachable token endpoint on the first request names the connection error', async () => {
		const crm = fakeAgencyCrm();
		const unreachable = async () => {
			throw connectionError('ECONNREFUSED');
		};
		const { context } = coreContext(core, newProcess(), storedCredential(), { ...crm, tokenEndpoint: unreachable });
		const error = await failureOf<NodeOperationError>(
			apiRequest(context, { method: 'GET', idempotent: false, path: '/discovery', itemIndex: 2 }),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Could not reach the Auth URL https://auth.example.com; check the URL and that the server is up',
		);
		expect(error.description).toBe(`Connection error: ECONNREFUSED. ${TOKEN_EXCHANGE_ADVICE}`);
		expect(error.context.itemIndex).toBe(2);
	});

	test('a connection reset on a read is retried; on a create it is reported with its code', async () => {
		let resets = 0;
		const crm = fakeAgencyCrm(() => (resets++ === 0 ? connectionError('ECONNRESET') : undefined));
		const { newContext } = await warmedUp(core, crm);
		resets = 0;
		const read = await apiRequest(newContext().context, { method: 'GET', path: '/agencies', idempotent: true });
		expect(read.statusCode).toBe(200);
		expect(crm.requests.map((request) => request.status)).toEqual(['ECONNRESET', 200]);

		resets = 0;
		const error = await failureOf<NodeApiError>(
			apiRequest(newContext().context, { method: 'POST', idempotent: false, path: '/customers' }),
		);
		expect(error.message).toBe('Agency CRM could not be reached for POST /customers');
		expect(error.description).toContain('(ECONNRESET)');
	});
	test('one run reads the credential once, for any number of requests at once or one after another', async () => {
		const { crm, newContext } = await warmedUp(core);
		const { context, reads } = newContext();
		const agency = () => apiRequest(context, { method: 'GET', path: '/agencies/101', idempotent: true });
		await Promise.all(Array.from({ length: 20 }, agency));
		for (let item = 0; item < 20; item++) await agency();
		expect(reads()).toBe(1);
		expect(crm.requests.filter((request) => request.status === 200)).toHaveLength(40);
	});

	test('one run: a token revoked under 10 requests in flight is replaced once, and the requests sent after carry the new one', async () => {
		const { crm, store, newContext } = await warmedUp(core);
		crm.state.exchangeDelayMs = 20;
		crm.revoke();
		const { context, reads } = newContext();
		const agency = () => apiRequest(context, { method: 'GET', path: '/agencies/101', idempotent: true });
		await Promise.all(Array.from({ length: 10 }, agency));
		expect(crm.state.exchanges).toBe(2);
		const refusedInFlight = crm.requests.filter((request) => request.status === 401).length;
		expect(refusedInFlight).toBeGreaterThanOrEqual(10);
		await Promise.all(Array.from({ length: 10 }, agency));
		expect(crm.requests.filter((request) => request.status === 401)).toHaveLength(refusedInFlight);
		expect(crm.requests.filter((request) => request.status === 200)).toHaveLength(20);
		expect(reads()).toBe(1);
		expect(store.accessToken).toBe('tok-2');
	});

	test('one run: a request whose 401 comes back after another request renewed the token shares that renewal', async () => {
		const { crm, newContext } = await warmedUp(core);
		crm.state.exchangeDelayMs = 10;
		let slowSent = 0;
		// The slow request's resend, still holding the revoked token, is answered after the renewal.
		crm.state.answerDelayMs = (options) => (options.url === '/slow' && slowSent++ === 1 ? 40 : 0);
		crm.revoke();
		const { context } = newContext();
		const responses = await Promise.all(
			['/fast', '/slow'].map((path) => apiRequest(context, { method: 'GET', path, idempotent: true })),
		);
		expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
		expect(crm.requests.filter((request) => request.url === '/slow').map((request) => request.status)).toEqual([
			401, 401, 200,
		]);
		expect(crm.state.exchanges).toBe(2);
	});

	test('deliveries that reuse recent tokens read the credential once between them', async () => {
		const { crm, newContext } = await warmedUp(core, fakeAgencyCrm(), `cred-recent-${core}`);
		const delivery = async () => {
			const run = newContext();
			reuseRecentTokens(run.context);
			await apiRequest(run.context, { method: 'GET', path: '/customers/1', idempotent: true });
			return run.reads();
		};
		const reads = [await delivery(), await delivery(), await delivery()];
		expect(reads).toEqual([1, 0, 0]);
		expect(crm.requests.map((request) => request.status)).toEqual([200, 200, 200]);
	});

	test('a recent token answered 401 is dropped: the request goes through n8n (read, one exchange) and the credential keeps its secret', async () => {
		const { crm, store, newContext } = await warmedUp(core, fakeAgencyCrm(), `cred-revoked-${core}`);
		const delivery = async () => {
			const run = newContext();
			reuseRecentTokens(run.context);
			const response = await apiRequest(run.context, { method: 'GET', path: '/customers/1', idempotent: true });
			return { status: response.statusCode, reads: run.reads() };
		};
		await delivery();
		crm.revoke();
		crm.requests.length = 0;
		expect(await delivery()).toEqual({ status: 200, reads: 1 });
		// Refused with the recent token, refused with the stored one (thrown this time), then the new token.
		expect(crm.requests.map((request) => request.status)).toEqual([401, 401, 200]);
		expect(crm.state.exchanges).toBe(2);
		expect(store).toMatchObject({ clientId: 'client-1', clientSecret: 'secret-1', accessToken: 'tok-2' });
		expect(await delivery()).toEqual({ status: 200, reads: 0 });
	});
});

describe('recent tokens (trigger deliveries)', () => {
	const token = (accessToken: string) => ({ accessToken, domain: 'https://api.example.com' });

	test('a token serves its own credential only, for a minute from when it was read', () => {
		let now = 0;
		const recent = new RecentTokens(RECENT_TOKEN_MS, () => now);
		recent.keep('cred-a', token('tok-a'));
		expect(recent.get('cred-b')).toBeUndefined();
		now = RECENT_TOKEN_MS - 1;
		expect(recent.get('cred-a')).toEqual(token('tok-a'));
		now = RECENT_TOKEN_MS;
		expect(recent.get('cred-a')).toBeUndefined();
	});

	test('a 401 forgets the token it came with, not a newer one kept meanwhile; an empty token is never kept', () => {
		const recent = new RecentTokens();
		recent.keep('cred-a', token('tok-1'));
		recent.keep('cred-a', token('tok-2'));
		recent.forget('cred-a', token('tok-1'));
		expect(recent.get('cred-a')).toEqual(token('tok-2'));
		recent.forget('cred-a', token('tok-2'));
		expect(recent.get('cred-a')).toBeUndefined();
		recent.keep('cred-a', token(''));
		expect(recent.get('cred-a')).toBeUndefined();
	});
});
