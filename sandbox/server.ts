/**
 * The HTTP front of the sandbox: reads the request, routes it to the token endpoint, the API or
 * the admin routes, applies injected faults, writes the answer with its `X-Request-Id`, and
 * records counters, requests in flight and the request log. Kept lean: GET /customers/{id} is the
 * benchmark's path.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminRoute } from './admin';
import { acceptsCamelCaseKeys, applyBodyAliases, queryWithAliases } from './aliases';
import { API_BASE, ApiRequest, ApiRoute, checkAccess, Grant } from './api';
import type { AnswerProfiles } from './answerProfiles';
import { basicCredentials, bearerToken, exchangeToken, TOKEN_PATH, TokenStore } from './auth';
import type { FaultName, Faults } from './faults';
import { ApiError, errorBody, notFound, Reply, validationError } from './http';
import type { Metrics } from './metrics';
import { isMultipart } from './multipart';
import { RouteMatch, routeKey, RouteTable } from './router';
import type { Store } from './store';

const ADMIN_BASE = '/_admin';
/** Above the 20 MB image limit, so that an oversized image gets the spec's 422 rather than a 413. */
const MAX_BODY_BYTES = 30 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export interface ServerContext {
	store: Store;
	tokens: TokenStore;
	faults: Faults;
	/** How the API answers where the spec leaves it open (sandbox/answerProfiles.ts). */
	profiles: AnswerProfiles;
	metrics: Metrics;
	apiRoutes: RouteTable<ApiRoute>;
	adminRoutes: RouteTable<AdminRoute>;
	/** `http://host:port`, known once the server listens. */
	origin: string;
	quiet: boolean;
}

/** What the request log keeps of a request, before its status is known. */
interface Exchange {
	requestId: string;
	method: string;
	path: string;
	query: URLSearchParams;
	contentType: string;
	body: Buffer;
	clientId: string | undefined;
	route: string | undefined;
}

export function createRequestHandler(
	context: ServerContext,
): (request: IncomingMessage, response: ServerResponse) => void {
	return (request, response) => {
		const requestId = randomUUID();
		handle(context, request, response, requestId).catch((error: unknown) => {
			if (!context.quiet) console.error('[sandbox] unexpected error', error);
			if (!response.headersSent) send(response, requestId, errorReply(internalError(), requestId));
		});
	};
}

async function handle(
	context: ServerContext,
	request: IncomingMessage,
	response: ServerResponse,
	requestId: string,
): Promise<void> {
	const url = request.url ?? '/';
	const queryStart = url.indexOf('?');
	const path = queryStart === -1 ? url : url.slice(0, queryStart);
	const query = new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
	const method = request.method ?? 'GET';
	const kind = requestKind(method, path);
	const tokenClientId = kind === 'token' ? basicCredentials(request.headers)?.clientId : undefined;
	const grant = kind === 'api' ? context.tokens.resolve(bearerToken(request.headers)) : undefined;
	const arrival: Arrival = { kind, method, path, query, tokenClientId, grant };
	if (kind === 'admin' || kind === 'unknown') return serve(context, request, response, requestId, arrival);
	// The sender is known from the headers, so a request is in flight from its arrival until its
	// answer is written or its connection closed, whichever comes first.
	const sender =
		grant?.client.clientId ??
		(tokenClientId !== undefined && context.store.clients.has(tokenClientId) ? tokenClientId : undefined);
	let inFlight = true;
	const leave = () => {
		if (inFlight) context.metrics.inFlight.leave(sender);
		inFlight = false;
	};
	context.metrics.inFlight.enter(sender);
	response.once('close', leave);
	try {
		await serve(context, request, response, requestId, arrival);
	} finally {
		leave();
	}
}

type RequestKind = 'admin' | 'token' | 'api' | 'unknown';

function requestKind(method: string, path: string): RequestKind {
	if (path === ADMIN_BASE || path.startsWith(`${ADMIN_BASE}/`)) return 'admin';
	if (path === TOKEN_PATH && method === 'POST') return 'token';
	return path.startsWith(`${API_BASE}/`) ? 'api' : 'unknown';
}

/** What `handle` learnt from the request line and headers. */
interface Arrival {
	kind: RequestKind;
	method: string;
	path: string;
	query: URLSearchParams;
	/** The client id of a token request's Basic credentials. */
	tokenClientId?: string;
	/** The grant of an API request's token at its arrival. */
	grant?: Grant;
}

async function serve(
	context: ServerContext,
	request: IncomingMessage,
	response: ServerResponse,
	requestId: string,
	{ kind, method, path, query, tokenClientId, grant }: Arrival,
): Promise<void> {
	let body: Buffer;
	try {
		body = await readBody(request);
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		send(response, requestId, errorReply(error, requestId), { Connection: 'close' });
		return;
	}
	const exchange: Exchange = {
		requestId,
		method,
		path,
		query,
		body,
		contentType: request.headers['content-type'] ?? '',
		clientId: undefined,
		route: undefined,
	};

	if (kind === 'admin') {
		send(response, requestId, await produce(context, requestId, () => adminReply(context, exchange)));
	} else if (kind === 'token') {
		exchange.clientId = tokenClientId;
		exchange.route = `POST ${TOKEN_PATH}`;
		await serveLogged(context, request, response, exchange, { isTokenEndpoint: true, authenticated: false }, () =>
			tokenReply(context, request, exchange),
		);
	} else if (kind === 'api') {
		const apiPath = path.slice(API_BASE.length);
		const match = context.apiRoutes.match(method, apiPath);
		exchange.clientId = grant?.client.clientId;
		exchange.route = match && routeKey(match.route);
		context.metrics.countRequest(exchange.route);
		const authenticated = grant !== undefined;
		await serveLogged(context, request, response, exchange, { isTokenEndpoint: false, authenticated }, () => {
			if (!match) throw notFound(`Route ${method} ${apiPath}`);
			// Read again: an injected revocation or the latency may have ended the token since arrival.
			const liveGrant = context.tokens.resolve(bearerToken(request.headers));
			if (!liveGrant) {
				throw new ApiError(
					401,
					'UNAUTHENTICATED',
					'A valid bearer token is required (Authorization: Bearer <access_token>).',
					undefined,
					{
						'WWW-Authenticate': 'Bearer',
					},
				);
			}
			checkAccess(match.route.access, liveGrant.client, context.store.sites.get(liveGrant.siteId));
			const handled = apiRequest(context, request, exchange, apiPath, match, liveGrant);
			context.profiles.adaptRequest(exchange.clientId, handled);
			return match.route.handler(handled);
		});
	} else {
		send(response, requestId, errorReply(notFound(`Route ${method} ${path}`), requestId));
	}
}

function apiRequest(
	context: ServerContext,
	request: IncomingMessage,
	exchange: Exchange,
	path: string,
	match: RouteMatch<ApiRoute>,
	grant: Grant,
): ApiRequest {
	const body = parseJsonBody(exchange.body, exchange.contentType);
	const camelCase = acceptsCamelCaseKeys(match.route.pattern);
	applyBodyAliases(body, camelCase);
	return {
		requestId: exchange.requestId,
		method: exchange.method,
		path,
		params: match.params,
		query: queryWithAliases(exchange.query, camelCase),
		body,
		rawBody: exchange.body,
		contentType: exchange.contentType,
		headers: request.headers,
		grant,
		origin: context.origin,
	};
}

function tokenReply(context: ServerContext, request: IncomingMessage, exchange: Exchange): Reply {
	const isForm = exchange.contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
	const form = new URLSearchParams(isForm ? exchange.body.toString('utf8') : '');
	const { reply, client } = exchangeToken(context, request.headers, form);
	context.metrics.countTokenExchange(client.clientId);
	return reply;
}

function adminReply(context: ServerContext, exchange: Exchange): Reply | Promise<Reply> {
	const match = context.adminRoutes.match(exchange.method, exchange.path);
	if (!match) throw notFound(`Admin route ${exchange.method} ${exchange.path}`);
	return match.route.handler({
		params: match.params,
		query: exchange.query,
		body: parseJsonBody(exchange.body, exchange.contentType),
	});
}

/**
 * Applies the injected faults, answers, and records the request in the log. `authenticated`: an
 * API request that arrived with a live token.
 */
async function serveLogged(
	context: ServerContext,
	request: IncomingMessage,
	response: ServerResponse,
	exchange: Exchange,
	{ isTokenEndpoint, authenticated }: { isTokenEndpoint: boolean; authenticated: boolean },
	answer: () => Reply,
): Promise<void> {
	const { latencyMs, revokeTokens, outcome } = context.faults.decide(
		exchange.clientId,
		isTokenEndpoint,
		authenticated,
		exchange.route ?? `${exchange.method} ${exchange.path}`,
	);
	const profiled = (reply: Reply) =>
		isTokenEndpoint ? reply : context.profiles.adaptReply(exchange.clientId, reply, exchange);
	const faults: FaultName[] = [];
	if (revokeTokens && exchange.clientId !== undefined) {
		context.tokens.revoke(exchange.clientId);
		faults.push('token_revoked');
	}
	if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
	let status: number | null = null;
	if (outcome.kind === 'reset') {
		faults.push('reset_before');
		request.socket.destroy();
	} else if (outcome.kind === 'error') {
		faults.push(outcome.fault);
		status = send(response, exchange.requestId, profiled(errorReply(outcome.error, exchange.requestId)));
	} else {
		const reply = profiled(await produce(context, exchange.requestId, answer));
		if (outcome.resetAfter) {
			// Processed, records written: only the answer is lost.
			faults.push('reset_after');
			request.socket.destroy();
		} else {
			status = send(response, exchange.requestId, reply);
		}
	}
	for (const fault of faults) context.metrics.countFault(fault);
	context.metrics.requests.push({
		at: new Date().toISOString(),
		client_id: exchange.clientId ?? null,
		method: exchange.method,
		path: exchange.path,
		route: exchange.route ?? null,
		query: Object.fromEntries(exchange.query),
		body: describeBody(exchange.body, exchange.contentType),
		status,
		request_id: exchange.requestId,
		content_type: exchange.contentType || null,
		faults,
	});
}

/** Runs a handler; ApiErrors become error answers, anything else a 500. */
async function produce(
	context: ServerContext,
	requestId: string,
	answer: () => Reply | Promise<Reply>,
): Promise<Reply> {
	try {
		return await answer();
	} catch (error) {
		if (error instanceof ApiError) return errorReply(error, requestId);
		if (!context.quiet) console.error('[sandbox] handler failed', error);
		return errorReply(internalError(), requestId);
	}
}

function internalError(): ApiError {
	return new ApiError(500, 'INTERNAL_ERROR', 'The sandbox failed to handle this request.');
}

function errorReply(error: ApiError, requestId: string): Reply {
	return { status: error.status, body: errorBody(error, requestId), headers: error.headers };
}

/** Writes the answer; returns its status. */
function send(
	response: ServerResponse,
	requestId: string,
	reply: Reply,
	extraHeaders: Record<string, string> = {},
): number {
	const headers: Record<string, string | number> = { 'X-Request-Id': requestId, ...reply.headers, ...extraHeaders };
	let payload: Buffer | string | undefined;
	if (reply.bytes) {
		payload = reply.bytes;
		headers['Content-Type'] = reply.contentType ?? 'application/octet-stream';
	} else if (reply.body !== undefined) {
		payload = JSON.stringify(reply.body);
		headers['Content-Type'] = 'application/json; charset=utf-8';
	}
	if (payload !== undefined) headers['Content-Length'] = Buffer.byteLength(payload);
	response.writeHead(reply.status, headers);
	response.end(payload);
	return reply.status;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
	if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined)
		return Promise.resolve(EMPTY);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		request.on('end', () => {
			if (size > MAX_BODY_BYTES)
				reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes.`));
			else resolve(Buffer.concat(chunks, size));
		});
		request.on('error', reject);
	});
}

/** The JSON body; empty, multipart and other non-JSON bodies give undefined. Malformed JSON is a 422. */
function parseJsonBody(body: Buffer, contentType: string): unknown {
	if (body.length === 0 || isMultipart(contentType) || (contentType !== '' && !/json/i.test(contentType)))
		return undefined;
	try {
		return JSON.parse(body.toString('utf8'));
	} catch (error) {
		throw validationError(
			[{ field: 'body', message: `is not valid JSON (${(error as Error).message})` }],
			'The request body is not valid JSON.',
		);
	}
}

/** The body as the request log shows it: parsed JSON or form, else a note. */
function describeBody(body: Buffer, contentType: string): unknown {
	if (body.length === 0) return null;
	const type = contentType.toLowerCase();
	if (type.startsWith('application/x-www-form-urlencoded'))
		return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
	if (type === '' || type.includes('json')) {
		try {
			return JSON.parse(body.toString('utf8'));
		} catch {
			return `[invalid JSON, ${body.length} bytes]`;
		}
	}
	return `[${type.split(';')[0]} body, ${body.length} bytes]`;
}
