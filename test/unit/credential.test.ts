import type { ICredentialDataDecryptedObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { AgencyCrmApi } from '../../credentials/AgencyCrmApi.credentials';
import { CREDENTIAL_TYPE, TOKEN_EXCHANGE_ADVICE } from '../../credentials/contract';
import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';

const SECRET = 's3cr3t-value-never-shown';
const baseCredentials = {
	authUrl: 'https://auth.example.com/',
	clientId: 'client-42',
	clientSecret: SECRET,
	scope: 'site',
	siteId: 12,
	agencyId: 0,
	accessToken: '',
	domain: '',
};

/**
 * Runs preAuthentication, as a freshly started process would (no exchange shared yet), with an
 * httpRequest helper that records its options and answers as told.
 */
async function exchange(credentials: ICredentialDataDecryptedObject, answer: Partial<IN8nHttpFullResponse> | Error) {
	const calls: IHttpRequestOptions[] = [];
	const helpers = {
		async httpRequest(options: IHttpRequestOptions) {
			calls.push(options);
			if (answer instanceof Error) throw answer;
			return { headers: {}, ...answer };
		},
	};
	let credentialType = new AgencyCrmApi();
	jest.isolateModules(() => {
		credentialType = new (jest.requireActual<typeof import('../../credentials/AgencyCrmApi.credentials')>(
			'../../credentials/AgencyCrmApi.credentials',
		).AgencyCrmApi)();
	});
	const result = await credentialType.preAuthentication
		.call({ helpers } as never, credentials)
		.then((value) => ({ value, error: undefined as Error | undefined }))
		.catch((error: Error) => ({ value: undefined, error }));
	return { calls, ...result };
}

const tokenBody = {
	domain: 'https://api.example.com',
	token_type: 'Bearer',
	expires_in: 3600,
	access_token: 'tok-1',
	refresh_token: 'ref-1',
};

describe('token exchange request', () => {
	test('site scope: POST {auth_url}/api/client/token/site, Basic client credentials, form body site_id', async () => {
		const { calls, value } = await exchange(baseCredentials, { statusCode: 200, body: tokenBody });
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			method: 'POST',
			url: 'https://auth.example.com/api/client/token/site',
			auth: { username: 'client-42', password: SECRET },
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: 'site_id=12',
		});
		expect(value).toEqual({ accessToken: 'tok-1', domain: 'https://api.example.com' });
	});

	test('agency scope sends manufacturer_id and nothing else', async () => {
		const { calls } = await exchange(
			{ ...baseCredentials, scope: 'agency', agencyId: 101 },
			{ statusCode: 200, body: tokenBody },
		);
		expect(calls[0].body).toBe('manufacturer_id=101');
	});

	test.each([
		[
			401,
			'Agency CRM refused the client ID or client secret (HTTP 401); check both values in the credential (request id r-1)',
		],
		[
			403,
			"The site 12 is outside this API client's scope (HTTP 403); use a site or agency this client was granted (request id r-1)",
		],
		[404, 'The site 12 does not exist (HTTP 404); check the ID in the credential (request id r-1)'],
		[
			422,
			'The token request was refused as invalid (HTTP 422): site_id or manufacturer_id is required (request id r-1)',
		],
	])('HTTP %i becomes an actionable message without the secret', async (statusCode, message) => {
		const body = { error: { code: 'X', message: 'site_id or manufacturer_id is required' }, request_id: 'r-1' };
		const { error } = await exchange(baseCredentials, { statusCode, body });
		expect(error?.message).toBe(message);
		expect(error?.message).not.toContain(SECRET);
	});

	test('an unreachable Auth URL names the host, not the request', async () => {
		const refused = Object.assign(new Error(`connect ECONNREFUSED with ${SECRET}`), { code: 'ECONNREFUSED' });
		const { error } = await exchange(baseCredentials, refused);
		expect(error?.message).toBe(
			'Could not reach the Auth URL https://auth.example.com; check the URL and that the server is up',
		);
		expect((error as { description?: string }).description).toBe(
			`Connection error: ECONNREFUSED. ${TOKEN_EXCHANGE_ADVICE}`,
		);
	});

	test('bad credential fields are refused before any request', async () => {
		const noUrl = await exchange(
			{ ...baseCredentials, authUrl: 'auth.example.com' },
			{ statusCode: 200, body: tokenBody },
		);
		expect(noUrl.error?.message).toBe(
			'Auth URL "auth.example.com" is not a valid http(s) URL; use for example https://auth.example.com',
		);
		const noSite = await exchange({ ...baseCredentials, siteId: 0 }, { statusCode: 200, body: tokenBody });
		expect(noSite.error?.message).toBe('Site ID must be a positive whole number; set it in the credential');
		expect(noUrl.calls).toHaveLength(0);
		expect(noSite.calls).toHaveLength(0);
	});

	test('a 200 without a token is an error, not an empty token', async () => {
		const { error } = await exchange(baseCredentials, { statusCode: 200, body: { token_type: 'Bearer' } });
		expect(error?.message).toBe('The token endpoint answered 200 without access_token and domain; check the Auth URL');
	});
});

describe('authenticate', () => {
	test('sends the Bearer token to {domain}/api/v2/site', async () => {
		const options = await new AgencyCrmApi().authenticate(
			{ ...baseCredentials, accessToken: 'tok-1', domain: 'https://api.example.com/' },
			{ url: '/discovery', headers: { Accept: 'application/json' } },
		);
		expect(options).toEqual({
			url: '/discovery',
			baseURL: 'https://api.example.com/api/v2/site',
			headers: { Accept: 'application/json', Authorization: 'Bearer tok-1' },
		});
	});

	const issued = { ...baseCredentials, accessToken: 'tok-1', domain: 'https://api.example.com' };

	test.each([
		['url', 'https://api.example.com/api/v2/site/customers?limit=5'],
		['uri', 'https://API.example.com:443/api/v2/site/users'],
	])("the HTTP Request node's whole URL (%s) on the token's domain gets the token", async (key, url) => {
		const options = await new AgencyCrmApi().authenticate(issued, { [key]: url } as unknown as IHttpRequestOptions);
		expect(options.headers).toEqual({ Authorization: 'Bearer tok-1' });
	});

	test.each([
		['url', 'https://elsewhere.example.com/api/v2/site/customers?key=hidden', 'https://elsewhere.example.com'],
		['uri', 'http://api.example.com/api/v2/site/users', 'http://api.example.com'],
		['url', 'https://api.example.com.evil.test/api/v2/site', 'https://api.example.com.evil.test'],
	])(
		"a whole URL (%s) elsewhere than the token's domain is refused, naming only its origin",
		async (key, url, origin) => {
			const refusal = new AgencyCrmApi().authenticate(issued, { [key]: url } as unknown as IHttpRequestOptions);
			await expect(refusal).rejects.toThrow(
				`The Agency CRM credential sends its token to https://api.example.com only, not to ${origin}`,
			);
			await expect(refusal).rejects.not.toThrow('hidden');
		},
	);

	test('offers itself to the HTTP Request node as a predefined credential type', () => {
		expect(new AgencyCrmApi().httpRequestNode).toEqual({
			name: 'Agency CRM',
			docsUrl: 'https://github.com/agency-crm/n8n-nodes-agency-crm#the-http-request-node',
			apiBaseUrlPlaceholder: 'https://api.example.com/api/v2/site/customers',
		});
	});
});

test('the credential, both nodes and the transport agree on the credential type name', () => {
	expect(new AgencyCrmApi().name).toBe(CREDENTIAL_TYPE);
	for (const node of [new AgencyCrm(), new AgencyCrmTrigger()]) {
		expect(node.description.credentials?.map((credential) => credential.name)).toEqual([CREDENTIAL_TYPE]);
	}
});
