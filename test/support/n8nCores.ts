import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AgencyCrmApi } from '../../credentials/AgencyCrmApi.credentials';
import type { ApiContext, ApiResponse } from '../../nodes/shared/transport';

/**
 * Fakes of n8n's `httpRequestWithAuthentication` as the two supported cores behave, read from their
 * sources (n8n-core 1.122 for n8n 1.123; n8n-core and @n8n/backend-network for 2.41):
 * - the credential is the `credentialsDecrypted` given (its data object used as is), else the stored
 *   one, read; the credential's preAuthentication runs when the token is empty, and authenticate sets
 *   the token; a request that throws a 401 runs preAuthentication again ("expired"), which writes
 *   the new token into that same data object and the store, and is resent once; every error leaves
 *   wrapped in a NodeApiError;
 * - `ignoreHttpStatusErrors`: 2.x honours `{ignore, except}`; 1.x reads any truthy value as
 *   "never throw";
 * - the wrapping NodeApiError keeps the wrapped error in `cause` on 2.x; 1.x loses it (a class
 *   field resets it), keeping `httpCode`, `context.data` and the wrapped message and description.
 */
export type Core = '1.x' | '2.x';
export const CORES: Core[] = ['1.x', '2.x'];

export const NODE: INode = {
	id: 'n1',
	name: 'Agency CRM',
	type: 'n8n-nodes-agency-crm.agencyCrm',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Named like axios's error class, which NodeApiError reads the status of. */
class AxiosError extends Error {
	constructor(
		message: string,
		readonly code?: string,
		readonly response?: { status: number; data: unknown; headers: IDataObject },
	) {
		super(message);
	}
}

/** A connection failure as axios throws it. */
export const connectionError = (code: string) => new AxiosError(`connect ${code}`, code);

function wrap(core: Core, error: unknown): NodeApiError {
	const wrapped = new NodeApiError(NODE, error as never);
	if (core === '1.x') Object.defineProperty(wrapped, 'cause', { value: undefined, writable: true });
	return wrapped;
}

function throwsOnStatus(core: Core, ignore: IHttpRequestOptions['ignoreHttpStatusErrors'], status: number) {
	if (status < 400) return false;
	if (!ignore) return true;
	return core === '2.x' && typeof ignore === 'object' && ignore.except.includes(status);
}

/** What the fake API answers: a response, or a connection failure to throw. */
export type Answer = ApiResponse | AxiosError;

/** A `respond` for fakeAgencyCrm: `answer` to the requests for `url`, the default to the others. */
export const answerAt = (url: string, answer: Answer) => (options: IHttpRequestOptions) =>
	options.url === url ? answer : undefined;

/**
 * A stand-in for the Agency CRM API and its token endpoint: issues tokens, answers 401 to unknown
 * ones, and otherwise answers `respond` (200 by default). Counts exchanges and records requests.
 */
export function fakeAgencyCrm(respond: (options: IHttpRequestOptions) => Answer | undefined = () => undefined) {
	const live = new Set<string>();
	const requests: Array<{ method: string; url: string; status: number | string }> = [];
	const state = {
		exchanges: 0,
		refuseExchanges: undefined as number | undefined,
		exchangeDelayMs: 0,
		/** How late the answer to a request comes (its token is checked on arrival, before the wait). */
		answerDelayMs: (() => 0) as (options: IHttpRequestOptions) => number,
	};
	async function tokenEndpoint(): Promise<IN8nHttpFullResponse> {
		state.exchanges++;
		if (state.exchangeDelayMs) await new Promise((resolve) => setTimeout(resolve, state.exchangeDelayMs));
		if (state.refuseExchanges) {
			return { statusCode: state.refuseExchanges, headers: {}, body: { error: { code: 'X', message: 'refused' } } };
		}
		const token = `tok-${state.exchanges}`;
		live.add(token);
		return {
			statusCode: 200,
			headers: {},
			body: { domain: 'https://api.example.com', token_type: 'Bearer', expires_in: 3600, access_token: token },
		};
	}
	function api(options: IHttpRequestOptions): Answer {
		const token = String((options.headers as IDataObject).Authorization).replace('Bearer ', '');
		const answer: Answer = live.has(token)
			? (respond(options) ?? { statusCode: 200, body: { data: { ok: true } }, headers: {} })
			: {
					statusCode: 401,
					body: {
						error: { code: 'UNAUTHENTICATED', message: 'A valid bearer token is required' },
						request_id: 'r-401',
					},
					headers: { 'x-request-id': 'r-401' },
				};
		requests.push({
			method: String(options.method),
			url: String(options.url),
			status: answer instanceof Error ? String(answer.code) : answer.statusCode,
		});
		return answer;
	}
	return {
		state,
		requests,
		tokenEndpoint,
		api,
		revoke: () => live.clear(),
	};
}

/**
 * A node context whose httpRequestWithAuthentication behaves like `core`, with a credential stored
 * in `store` (shared by every context of one fake n8n process) and the real credential type; the
 * node names the credential by `credentialId`. `reads` counts the credential reads.
 */
export function coreContext(
	core: Core,
	credentialType: AgencyCrmApi,
	store: ICredentialDataDecryptedObject,
	crm: ReturnType<typeof fakeAgencyCrm>,
	credentialId = 'cred-1',
): { context: ApiContext; sent: IHttpRequestOptions[]; reads: () => number } {
	const sent: IHttpRequestOptions[] = [];
	let reads = 0;
	const helpers = { httpRequest: crm.tokenEndpoint };
	async function preAuthentication(credentials: ICredentialDataDecryptedObject, expired: boolean) {
		if (credentials.accessToken !== '' && !expired) return;
		const output = await credentialType.preAuthentication.call({ helpers } as never, credentials);
		Object.assign(credentials, output);
		// 2.x stores the new token in the stored data; 1.x stores the data it was given, whole.
		if (core === '1.x') for (const key of Object.keys(store)) delete store[key];
		Object.assign(store, core === '1.x' ? credentials : output);
	}
	async function request(options: IHttpRequestOptions): Promise<ApiResponse> {
		sent.push(options);
		const answer = crm.api(options);
		const delayMs = crm.state.answerDelayMs(options);
		if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
		if (answer instanceof Error) throw answer;
		if (throwsOnStatus(core, options.ignoreHttpStatusErrors, answer.statusCode)) {
			throw new AxiosError(`Request failed with status code ${answer.statusCode}`, 'ERR_BAD_REQUEST', {
				status: answer.statusCode,
				data: answer.body,
				headers: answer.headers,
			});
		}
		return answer;
	}
	async function getCredentials() {
		reads++;
		return { ...store };
	}
	async function httpRequestWithAuthentication(
		_type: string,
		requestOptions: IHttpRequestOptions,
		additional?: { credentialsDecrypted?: { data?: ICredentialDataDecryptedObject } },
	) {
		let credentials: ICredentialDataDecryptedObject | undefined;
		try {
			credentials = additional?.credentialsDecrypted?.data ?? (await getCredentials());
			await preAuthentication(credentials, false);
			return await request(await credentialType.authenticate(credentials, requestOptions));
		} catch (error) {
			if ((error as AxiosError).response?.status === 401 && credentials) {
				try {
					await preAuthentication(credentials, true);
					return await request(await credentialType.authenticate(credentials, requestOptions));
				} catch (retryError) {
					throw wrap(core, retryError);
				}
			}
			throw wrap(core, error);
		}
	}
	const context = {
		getNode: () => ({ ...NODE, credentials: { agencyCrmApi: { id: credentialId, name: 'Agency CRM account' } } }),
		getCredentials,
		helpers: { httpRequestWithAuthentication },
	} as unknown as ApiContext;
	return { context, sent, reads: () => reads };
}
