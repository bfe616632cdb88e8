import type { ICredentialDataDecryptedObject, IHttpRequestHelper, IN8nHttpFullResponse } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { API_PATH, TOKEN_EXCHANGE_ADVICE } from './contract';

/** Path of the token endpoint below the Auth URL (spec section 4, "Authentication"). */
const CLIENT_GRANT_PATH = '/api/client/token/site';

export interface TokenResponse {
	domain: string;
	token_type: string;
	expires_in: number;
	access_token: string;
	refresh_token?: string;
}

/** Raised for a failed exchange; the message says what to fix and never holds the secret or a token. */
class TokenExchangeError extends UserError {
	constructor(
		message: string,
		/** Named so that n8n does not swap the message for its generic text of this HTTP status. */
		readonly refusedWithStatus?: number,
		readonly requestId?: string,
		/** A connection error code; kept out of the message, which n8n would replace with a generic text. */
		connectionError?: string,
	) {
		super(requestId ? `${message} (request id ${requestId})` : message, {
			description: `${connectionError ? `Connection error: ${connectionError}. ` : ''}${TOKEN_EXCHANGE_ADVICE}`,
		});
		this.name = 'TokenExchangeError';
	}
}

export function apiBaseUrl(domain: unknown): string {
	if (typeof domain !== 'string' || domain === '') {
		throw new TokenExchangeError('The credential has no API domain yet: the token exchange did not complete');
	}
	return `${domain.replace(/\/+$/, '')}${API_PATH}`;
}

/**
 * Refuses a whole URL outside the token's API domain (the HTTP Request node sends whatever URL the
 * user wrote): the bearer token is good for its domain only, and must not travel anywhere else.
 */
export function assertOnApiDomain(url: string, domain: unknown): void {
	const apiOrigin = new URL(apiBaseUrl(domain)).origin;
	const origin = URL.canParse(url) ? new URL(url).origin : 'that URL';
	if (origin === apiOrigin) return;
	// Only the origin is named: the rest of the URL may carry values that should not stay in the execution.
	throw new UserError(`The Agency CRM credential sends its token to ${apiOrigin} only, not to ${origin}`, {
		description: `Write the URL as ${apiOrigin}${API_PATH}/… (the API domain your token was issued for).`,
	});
}

/** Builds the form body: exactly one of `site_id` or `manufacturer_id`, as the spec requires. */
function tokenRequestBody(credentials: ICredentialDataDecryptedObject): string {
	const byAgency = credentials.scope === 'agency';
	const label = byAgency ? 'Agency ID' : 'Site ID';
	const id = Number(byAgency ? credentials.agencyId : credentials.siteId);
	if (!Number.isInteger(id) || id <= 0) {
		throw new TokenExchangeError(`${label} must be a positive whole number; set it in the credential`);
	}
	return new URLSearchParams({ [byAgency ? 'manufacturer_id' : 'site_id']: String(id) }).toString();
}

function tokenUrl(authUrl: unknown): string {
	const text = String(authUrl ?? '').trim();
	if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
		throw new TokenExchangeError(
			`Auth URL "${text}" is not a valid http(s) URL; use for example https://auth.example.com`,
		);
	}
	const parsed = new URL(text);
	return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}${CLIENT_GRANT_PATH}`;
}

function scopeLabel(credentials: ICredentialDataDecryptedObject): string {
	return credentials.scope === 'agency'
		? `agency ${String(credentials.agencyId)}`
		: `site ${String(credentials.siteId)}`;
}

/** Turns a token endpoint refusal into the action the user has to take. */
function refusalMessage(status: number, credentials: ICredentialDataDecryptedObject, apiMessage: string): string {
	const scope = scopeLabel(credentials);
	switch (status) {
		case 401:
			return 'Agency CRM refused the client ID or client secret (HTTP 401); check both values in the credential';
		case 403:
			return `The ${scope} is outside this API client's scope (HTTP 403); use a site or agency this client was granted`;
		case 404:
			return `The ${scope} does not exist (HTTP 404); check the ID in the credential`;
		case 422:
			return `The token request was refused as invalid (HTTP 422): ${apiMessage || 'no site or agency ID was sent'}`;
		default:
			return `The token exchange failed (HTTP ${status})${apiMessage ? `: ${apiMessage}` : ''}`;
	}
}

function errorField(body: unknown, field: 'message' | 'request_id'): string {
	if (typeof body !== 'object' || body === null) return '';
	const record = body as { error?: { message?: unknown }; request_id?: unknown };
	const value = field === 'message' ? record.error?.message : record.request_id;
	return typeof value === 'string' ? value : '';
}

/**
 * POST {authUrl}/api/client/token/site with Basic client_id:client_secret and a form body.
 * Status errors are read here rather than thrown by the helper, so that the message can name
 * the cause and so that no request configuration (which holds the secret) reaches an error.
 */
export async function exchangeToken(
	httpRequest: IHttpRequestHelper['helpers']['httpRequest'],
	credentials: ICredentialDataDecryptedObject,
): Promise<TokenResponse> {
	const url = tokenUrl(credentials.authUrl);
	const body = tokenRequestBody(credentials);
	// A connection failure becomes a value: its error object holds the request, secret included.
	const response = (await httpRequest({
		method: 'POST',
		url,
		auth: { username: String(credentials.clientId ?? ''), password: String(credentials.clientSecret ?? '') },
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
		body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	}).catch((error: { code?: string; message?: string }) => ({
		unreachable: error.code ?? error.message ?? 'no answer',
	}))) as IN8nHttpFullResponse | { unreachable: string };
	if ('unreachable' in response) {
		throw new TokenExchangeError(
			`Could not reach the Auth URL ${new URL(url).origin}; check the URL and that the server is up`,
			undefined,
			undefined,
			response.unreachable,
		);
	}
	const requestId = errorField(response.body, 'request_id') || String(response.headers?.['x-request-id'] ?? '');
	if (response.statusCode !== 200) {
		throw new TokenExchangeError(
			refusalMessage(response.statusCode, credentials, errorField(response.body, 'message')),
			response.statusCode,
			requestId || undefined,
		);
	}
	const token = response.body as Partial<TokenResponse> | undefined;
	if (typeof token?.access_token !== 'string' || typeof token.domain !== 'string' || token.domain === '') {
		throw new TokenExchangeError('The token endpoint answered 200 without access_token and domain; check the Auth URL');
	}
	return token as TokenResponse;
}
