import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, isTokenExchangeFailure } from '../../../credentials/contract';

import {
	MAX_RETRIES,
	MAX_RETRY_AFTER_MS,
	MAX_THROTTLED_MS,
	NOT_PROCESSED_STATUSES,
	RETRYABLE_NETWORK_CODES,
	RETRYABLE_STATUSES,
	retryDelayMs,
} from './backoff';
import { runCredentialOf } from './credential';
import { apiError, statusOf, withFirstLine } from './errors';
import { pacingOf } from './pacing';
import type { ApiContext, ApiRequest, ApiResponse } from './types';

/**
 * What n8n throws, on every core: a NodeApiError. n8n 2.x keeps the error it wraps in `cause`
 * (with the response or the connection code). n8n 1.x drops `cause`; it keeps the status in
 * `httpCode` (or the connection code, e.g. "ECONNRESET"), the parsed body in `context.data`, and
 * the wrapped error's message and description.
 */
interface ThrownRequestError {
	message?: string;
	description?: unknown;
	code?: string;
	httpCode?: string | null;
	context?: { data?: unknown };
	cause?: { code?: string; message?: string; response?: { status?: number; data?: unknown; headers?: IDataObject } };
}

/**
 * How status errors come back. n8n exchanges a new token only when a request throws a 401, and
 * older cores (n8n 1.x among them) read any truthy `ignoreHttpStatusErrors`, the `{ignore, except}`
 * form included, as "never throw". So requests are sent with `true` (answers keep their headers and
 * body on every core), and a request answered 401 is sent once more with `false` (see apiRequest).
 */
type StatusErrors = 'returned' | 'thrown';

function httpOptions(request: ApiRequest, statusErrors: StatusErrors): IHttpRequestOptions {
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
		ignoreHttpStatusErrors: statusErrors === 'returned',
	};
}

/** Sends one request with the run's credential (credential.ts), read once per run rather than by n8n per request. */
async function send(context: ApiContext, request: ApiRequest, statusErrors: StatusErrors): Promise<ApiResponse> {
	const lease = await runCredentialOf(context).lease(statusErrors === 'returned');
	let statusCode: number | undefined;
	try {
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			httpOptions(request, statusErrors),
			{ credentialsDecrypted: lease.credential },
		)) as IN8nHttpFullResponse as ApiResponse;
		statusCode = response.statusCode;
		return response;
	} finally {
		lease.release(statusCode);
	}
}

/** The answer inside a thrown status error (1.x keeps no headers), or undefined for other failures. */
function thrownAnswer(error: ThrownRequestError): ApiResponse | undefined {
	const response = error.cause?.response;
	if (response?.status) return { statusCode: response.status, body: response.data, headers: response.headers ?? {} };
	if (error.httpCode && /^\d{3}$/.test(error.httpCode)) {
		return { statusCode: Number(error.httpCode), body: error.context?.data, headers: {} };
	}
	return undefined;
}

/**
 * Whether the answer may be followed by another attempt: after any retryable status when the request
 * is idempotent or its outcome can be looked up, else only after those that say it was not processed.
 */
function isRetryable(request: ApiRequest, response: ApiResponse): boolean {
	const statuses = request.idempotent || request.lookUpOutcome ? RETRYABLE_STATUSES : NOT_PROCESSED_STATUSES;
	return statuses.includes(response.statusCode) && !request.noRetryStatuses?.includes(response.statusCode);
}

/** The connection code of a thrown connection failure: in `cause` on 2.x, in `httpCode` on 1.x. */
function networkCode(error: ThrownRequestError): string | undefined {
	const code = error.cause?.code ?? error.code ?? error.httpCode ?? undefined;
	return code && !/^\d{3}$/.test(code) ? code : undefined;
}

/** What n8n threw: a failed token exchange, or a connection failure. Turned into one n8n error that says which. */
function thrownToNodeError(context: ApiContext, error: ThrownRequestError, request: ApiRequest) {
	if (isTokenExchangeFailure(error)) {
		return new NodeOperationError(context.getNode(), error.message ?? 'The token exchange failed', {
			description: error.description as string,
			itemIndex: request.itemIndex,
		});
	}
	const cause = error.cause ?? error;
	// The connection code goes in the description: n8n replaces any message that contains one.
	return new NodeApiError(context.getNode(), { message: cause.message ?? 'Request failed' } as JsonObject, {
		message: `Agency CRM could not be reached for ${request.method} ${request.path}`,
		description: `The connection failed before the API answered (${networkCode(error) ?? cause.message}). Check the network, or retry later.`,
		itemIndex: request.itemIndex,
	});
}

/**
 * Whether a removal answered 404 after an earlier attempt's answer was lost was done by that attempt:
 * the 404 cannot be anything else when the record was seen just before (spec section 3: a DELETE
 * removes "Always"), and a removal the API carried out never fails its item, so an unseen one counts
 * as done too, said to be unverified (the ID may name no record).
 */
function removedByLostAttempt(request: ApiRequest, response: ApiResponse, answerLost: boolean): boolean {
	return answerLost && request.method === 'DELETE' && response.statusCode === 404 && request.removal !== undefined;
}

/** The error of the API's last 429 once a request has waited MAX_THROTTLED_MS for 429s: it says so first (its last line says what to do). */
function throttledTooLong(error: NodeApiError, waitedMs: number): NodeApiError {
	return withFirstLine(
		error,
		`The API answered "too many requests" (429) again after this request had waited ${Math.round(waitedMs / 1000)} s for it in all, the most the node waits (${MAX_THROTTLED_MS / 1000} s).`,
	);
}

/**
 * One attempt, with status errors returned. A 401 is sent again with them thrown: n8n sends it with
 * the stored token, and on a 401 runs the credential's preAuthentication (a new exchange, shared with
 * the other callers that saw the same 401) and resends once; a create answered 401 was not processed,
 * so resending is safe. Once per attempt: a token revoked again while a retry waited is replaced
 * again. Only that resend throws status errors, and its last answer is read back from the error; a
 * failure without an answer (a connection reset) comes back as what was thrown.
 */
async function attempt(
	context: ApiContext,
	request: ApiRequest,
): Promise<ApiResponse | { thrown: ThrownRequestError }> {
	try {
		const response = await send(context, request, 'returned');
		return response.statusCode === 401 ? await send(context, request, 'thrown') : response;
	} catch (error) {
		return thrownAnswer(error as ThrownRequestError) ?? { thrown: error as ThrownRequestError };
	}
}

/**
 * The one place requests leave the nodes: authentication through the credential (a 401 is sent once
 * more, through n8n's token exchange), JSON in and out, retries with backoff (waiting with n8n's
 * `sleep`), and the API's errors turned into NodeApiErrors. A 429 pauses every request of the
 * node's run for its Retry-After (pacing.ts) and costs no attempt: its waits are bounded by time
 * (MAX_THROTTLED_MS). Failures (a connection reset, a 5xx) wait on their own and use one of the
 * MAX_RETRIES attempts each.
 */
export async function apiRequest(context: ApiContext, request: ApiRequest): Promise<ApiResponse> {
	const pacing = pacingOf(context);
	let failures = 0;
	let throttles = 0;
	let throttledMs = 0;
	/** Whether an earlier attempt may have been processed though its answer was lost. */
	let answerLost = false;
	const failure = (response: ApiResponse) => apiError(context.getNode(), response, request.itemIndex, request.guide);
	for (;;) {
		await pacing.ready();
		const response = await attempt(context, request);
		if ('thrown' in response) {
			const code = networkCode(response.thrown);
			const resendable = request.idempotent || request.lookUpOutcome;
			if (!resendable || !code || !RETRYABLE_NETWORK_CODES.includes(code) || failures >= MAX_RETRIES) {
				throw thrownToNodeError(context, response.thrown, request);
			}
			await sleep(retryDelayMs(failures++, undefined));
			answerLost = true;
			const found = await lookedUp(request);
			if (found) return found;
			continue;
		}
		if (response.statusCode < 400) return response;
		if (removedByLostAttempt(request, response, answerLost)) {
			const verified = request.removal?.seen === true;
			return { ...response, statusCode: 204, body: undefined, removalAfterLostAnswer: { verified } };
		}
		const retryAfter = response.headers['retry-after'];
		if (response.statusCode === 429 && isRetryable(request, response)) {
			const delay = retryDelayMs(throttles++, retryAfter);
			if (delay > MAX_RETRY_AFTER_MS) throw failure(response);
			if (throttledMs + delay > MAX_THROTTLED_MS) throw throttledTooLong(failure(response), throttledMs);
			throttledMs += delay;
			pacing.pause(delay);
			continue;
		}
		const delay = retryDelayMs(failures, retryAfter);
		if (!isRetryable(request, response) || failures >= MAX_RETRIES || delay > MAX_RETRY_AFTER_MS)
			throw failure(response);
		failures++;
		await sleep(delay);
		if (NOT_PROCESSED_STATUSES.includes(response.statusCode)) continue;
		answerLost = true;
		const found = await lookedUp(request);
		if (found) return found;
	}
}

/**
 * The answer, or the API's refusal with this status as a value rather than a thrown error: a 409
 * that a create takes for "already there". Every other failure is thrown as apiRequest throws it.
 */
export async function answerOrRefusal(
	context: ApiContext,
	request: ApiRequest,
	status: number,
): Promise<ApiResponse | { refused: NodeApiError }> {
	return await apiRequest(context, request).catch((error: unknown) =>
		statusOf(error) === status ? { refused: error as NodeApiError } : Promise.reject(error as Error),
	);
}

/** After a lost answer, what a request that is not idempotent made, when it can be looked for. */
async function lookedUp(request: ApiRequest): Promise<ApiResponse | undefined> {
	return request.idempotent ? undefined : await request.lookUpOutcome?.();
}

/** What an envelope holds besides its `data` (spec section 4: `data`, `meta`, `links`; errors' `request_id`). */
const ENVELOPE_KEYS = new Set(['data', 'meta', 'links', 'request_id', 'success', 'message']);

/** A key naming a record's identifier (`id`, `customers_id`, `userId`). */
const namesAnId = (key: string) => key !== 'request_id' && /^id$|_id$|[a-z]Id$/.test(key);

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `data` holds records: one that carries an identifier, or a list of objects. */
const holdsRecords = (data: unknown) =>
	Array.isArray(data) ? data.every(isRecord) : isRecord(data) && Object.keys(data).some(namesAnId);

/**
 * The `data` of a JSON answer (`{data: …, meta: …}`), or the whole body when there is no envelope.
 * The spec leaves answer payloads open (section 4), so an envelope may carry keys of its own beside a
 * record or a list in `data` (`api_version`, `warnings`, a `requestId`): they are left out, and the
 * record comes whole, whatever they are. Only a body whose `data` holds no record (no identifier in
 * it) beside an identifier of its own, or beside keys no envelope has, is a record that has a field
 * named `data`: it is the record, whole.
 */
export function responseData(response: ApiResponse): unknown {
	const body = response.body;
	if (!isRecord(body) || !('data' in body)) return body;
	const { data } = body;
	const keys = Object.keys(body);
	if (keys.every((key) => ENVELOPE_KEYS.has(key)) || holdsRecords(data)) return data;
	return typeof data === 'object' && data !== null && !keys.some(namesAnId) ? data : body;
}

/** The records of a list the API answers whole (a referential, a criterion's values); anything else is none. */
export async function listRecords(context: ApiContext, request: ApiRequest): Promise<IDataObject[]> {
	const data = responseData(await apiRequest(context, request));
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}
