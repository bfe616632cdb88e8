import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { TOKEN_EXCHANGE_ERROR } from '../../../credentials/tokenExchange';

import {
	MAX_RETRIES,
	MAX_RETRY_AFTER_MS,
	NOT_PROCESSED_STATUSES,
	RETRYABLE_NETWORK_CODES,
	RETRYABLE_STATUSES,
	retryDelayMs,
} from './backoff';
import { apiError } from './errors';

export const CREDENTIAL_TYPE = 'agencyCrmApi';

/** Every n8n context our nodes send requests from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Relative to `{domain}/api/v2/site`, path parameters already filled in. */
	path: string;
	qs?: IDataObject;
	/** A JSON object, or a ready body (multipart) with its content type in `headers`. */
	body?: IDataObject | Buffer;
	headers?: IDataObject;
	/** `binary` for endpoints that may answer with an image instead of JSON. */
	responseType?: 'json' | 'binary';
	/**
	 * Whether sending the request twice changes nothing more than sending it once. Only such requests
	 * are resent after a connection reset, a 502 or a 504; others only after a 429 or a 503.
	 */
	idempotent?: boolean;
	/** Statuses that carry a business meaning for this endpoint, so they are never retried. */
	noRetryStatuses?: number[];
	/** What access the endpoint needs ("the Customers pack"), told to users who get a 403. */
	accessNeeded?: string;
	itemIndex?: number;
}

export interface ApiResponse {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
}

interface ThrownRequestError {
	name?: string;
	message?: string;
	connectionError?: string;
	code?: string;
	httpCode?: string | null;
	response?: { status?: number; data?: unknown; headers?: IDataObject };
	cause?: ThrownRequestError;
}

function httpOptions(request: ApiRequest): IHttpRequestOptions {
	const binary = request.responseType === 'binary';
	return {
		method: request.method,
		url: request.path,
		qs: request.qs,
		body: request.body,
		headers: { Accept: binary ? 'image/*, application/json' : 'application/json', ...request.headers },
		json: !binary,
		encoding: binary ? 'arraybuffer' : undefined,
		returnFullResponse: true,
		// A 401 must still throw: n8n then runs the credential's token exchange once and resends.
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
	};
}

function isRetryable(request: ApiRequest, response: ApiResponse): boolean {
	const statuses = request.idempotent ? RETRYABLE_STATUSES : NOT_PROCESSED_STATUSES;
	return statuses.includes(response.statusCode) && !request.noRetryStatuses?.includes(response.statusCode);
}

/**
 * What n8n threw: a 401 that survived one token exchange, a failed token exchange, or a
 * connection failure. Turned into one n8n error that says which.
 */
function thrownToNodeError(context: ApiContext, error: ThrownRequestError, request: ApiRequest) {
	const cause = error.cause ?? error;
	const response = cause.response;
	if (response?.status) {
		return apiError(
			context.getNode(),
			{ statusCode: response.status, body: response.data, headers: response.headers ?? {} },
			request.itemIndex,
		);
	}
	if (cause.name === TOKEN_EXCHANGE_ERROR) {
		const connection = cause.connectionError ? `Connection error: ${cause.connectionError}. ` : '';
		return new NodeOperationError(context.getNode(), cause.message ?? 'The token exchange failed', {
			description: `${connection}The Agency CRM credential could not obtain a token. Open the credential and press "Test" after fixing it.`,
			itemIndex: request.itemIndex,
		});
	}
	// The connection code goes in the description: n8n replaces any message that contains one.
	return new NodeApiError(context.getNode(), { message: cause.message ?? 'Request failed' } as JsonObject, {
		message: `Agency CRM could not be reached for ${request.method} ${request.path}`,
		description: `The connection failed before the API answered (${cause.code ?? cause.message}). Check the network, or retry later.`,
		itemIndex: request.itemIndex,
	});
}

function networkCode(error: ThrownRequestError): string | undefined {
	return (error.cause ?? error).code;
}

/**
 * The one place requests leave the nodes: authentication through the credential, JSON in and
 * out, retries of throttling and gateway failures with backoff (waiting with n8n's `sleep`),
 * and the API's errors turned into NodeApiErrors.
 */
export async function apiRequest(context: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	for (let attempt = 0; ; attempt++) {
		let response: ApiResponse;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				httpOptions(request),
			)) as IN8nHttpFullResponse as ApiResponse;
		} catch (error) {
			const code = networkCode(error as ThrownRequestError);
			if (request.idempotent && code && RETRYABLE_NETWORK_CODES.includes(code) && attempt < MAX_RETRIES) {
				await sleep(retryDelayMs(attempt, undefined));
				continue;
			}
			throw thrownToNodeError(context, error as ThrownRequestError, request);
		}
		if (response.statusCode < 400) return response;
		if (isRetryable(request, response) && attempt < MAX_RETRIES) {
			const delay = retryDelayMs(attempt, response.headers['retry-after']);
			if (delay <= MAX_RETRY_AFTER_MS) {
				await sleep(delay);
				continue;
			}
		}
		throw apiError(context.getNode(), response, request.itemIndex, request.accessNeeded);
	}
}

/** The `data` of a JSON answer (`{data: …}`), or the whole body when there is no envelope. */
export function responseData(response: ApiResponse): unknown {
	const body = response.body;
	if (typeof body === 'object' && body !== null && 'data' in body) return (body as { data: unknown }).data;
	return body;
}
