import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AgencyCrmApi } from '../../credentials/AgencyCrmApi.credentials';
import { TOKEN_EXCHANGE_ADVICE } from '../../credentials/contract';
import { apiRequest } from '../../nodes/shared/transport';
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

/** One fake n8n process on `core` with one stored credential, after a first successful request. */
async function warmedUp(core: (typeof CORES)[number], crm = fakeAgencyCrm()) {
	const store = storedCredential();
	const credentialType = newProcess();
	const newContext = () => coreContext(core, credentialType, store, crm);
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
			"This operation needs the Customers pack: ask Agency CRM to grant it to this API client. An agency named in the request must also belong to the credential's site.<br>Request ID: r-403 (quote it to Agency CRM support)",
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
			'Agency CRM refused the access token even after a new token exchange: open the credential, check the Client ID and Client Secret, and press Test.<br>Request ID: r-9 (quote it to Agency CRM support)',
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
});
