import axios from 'axios';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IWebhookFunctions,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { AgencyCrmApi } from '../../../credentials/AgencyCrmApi.credentials';
import type { Sandbox } from '../../../sandbox';
import type { Binary, FakeContextOptions } from '../fakeN8n';
import { fakeContext } from '../fakeN8n';

/**
 * Runs the action node in-process, without n8n: the fake execute context (test/support/fakeN8n.ts),
 * its requests sent over real HTTP to the sandbox through the real credential (token exchange, Bearer, base URL,
 * one new exchange on 401). The real-n8n tests cover what n8n itself adds.
 */

async function send(options: IHttpRequestOptions) {
	const response = await axios.request({
		method: options.method ?? 'GET',
		baseURL: options.baseURL,
		url: options.url,
		params: options.qs,
		data: options.body,
		headers: options.headers as Record<string, string>,
		auth: options.auth,
		responseType: options.encoding === 'arraybuffer' ? 'arraybuffer' : 'json',
		validateStatus: () => true,
	});
	const body =
		options.encoding === 'arraybuffer' ? Buffer.from(response.data as ArrayBuffer) : (response.data as unknown);
	const full = { statusCode: response.status, headers: response.headers as IDataObject, body };
	const ignore = options.ignoreHttpStatusErrors;
	const throws =
		response.status >= 400 &&
		(ignore === undefined ||
			ignore === false ||
			(typeof ignore === 'object' && ignore.except.includes(response.status)));
	if (throws) {
		throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
			response: { status: response.status, data: body, headers: response.headers },
		});
	}
	return options.returnFullResponse ? full : body;
}

export interface InProcessRun {
	context: IExecuteFunctions;
	/** A webhook context of the same run (the trigger's fetch), sending through the same credential. */
	webhook: IWebhookFunctions;
	/** The execution hints the node added (input sent as given against a guess). */
	hints: NodeExecutionHint[];
	/** How many times a request asked the credential for a token (requests that ask at once share one exchange). */
	exchanges(): number;
	/** Every API request as the HTTP client sent it, authenticated (a multipart body as its bytes). */
	sent: IHttpRequestOptions[];
	/** The credential helpers of this run, for other fake contexts (a trigger's) to share. */
	credentialHelpers: Pick<FakeContextOptions, 'getCredentials' | 'httpRequestWithAuthentication' | 'httpRequest'>;
}

/**
 * n8n's credential store: the token a run stored is the one the next run of this process starts
 * with (the credential's exchanges are shared by the whole process, as in n8n).
 */
const credentialStore = new Map<string, ICredentialDataDecryptedObject>();

function storedCredential(credentials: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	const key = JSON.stringify(credentials);
	if (!credentialStore.has(key)) credentialStore.set(key, { ...credentials, accessToken: '', domain: '' });
	return credentialStore.get(key)!;
}

/** The credential a user of one of the sandbox's demo clients fills in. */
export function credentialsOf(sandbox: Sandbox, clientId = 'demo-client'): ICredentialDataDecryptedObject {
	const client = sandbox.clients.find((candidate) => candidate.clientId === clientId);
	if (!client) throw new Error(`No sandbox client ${clientId}`);
	return {
		authUrl: sandbox.authUrl,
		clientId,
		clientSecret: client.clientSecret,
		scope: 'site',
		siteId: client.siteId,
	};
}

export function inProcessContext(
	credentials: ICredentialDataDecryptedObject,
	itemParameters: Array<Record<string, unknown>>,
	binaries: Array<Record<string, Binary>> = [],
	continueOnFail = false,
	typeVersion = 1,
): InProcessRun {
	const credentialType = new AgencyCrmApi();
	const stored = storedCredential(credentials);
	let exchanges = 0;
	const sent: IHttpRequestOptions[] = [];
	/** Like n8n: the exchange replaces the token the request read, and the new one is stored. */
	const exchange = async (read: ICredentialDataDecryptedObject) => {
		exchanges++;
		const data = await credentialType.preAuthentication.call({ helpers: { httpRequest: send } } as never, read);
		Object.assign(read, data);
		Object.assign(stored, data);
	};
	const credentialHelpers: InProcessRun['credentialHelpers'] = {
		getCredentials: async () => ({ ...stored }),
		// n8n's plain helper (the trigger's catch-up replays to its own webhook), over real HTTP too.
		httpRequest: send,
		async httpRequestWithAuthentication(_type, options, additional) {
			// The credential given, else (as n8n does) the stored one, read for this request.
			const read = additional?.credentialsDecrypted?.data ?? { ...stored };
			const sendAuthenticated = async () => {
				const authenticated = await credentialType.authenticate(read, {
					...options,
					headers: { ...options.headers },
				});
				sent.push(authenticated);
				return await send(authenticated);
			};
			// Like n8n 2.x, whatever fails leaves as a NodeApiError that keeps the failure in `cause`.
			try {
				if (!read.accessToken) await exchange(read);
				try {
					return await sendAuthenticated();
				} catch (error) {
					if ((error as { response?: { status?: number } }).response?.status !== 401) throw error;
					await exchange(read);
					return await sendAuthenticated();
				}
			} catch (error) {
				throw new NodeApiError(fake.execute.getNode(), error as JsonObject);
			}
		},
	};
	const fake = fakeContext({ itemParameters, binaries, continueOnFail, typeVersion, ...credentialHelpers });
	const { execute: context, webhook, hints } = fake;
	return { context, webhook, hints, exchanges: () => exchanges, sent, credentialHelpers };
}
