/**
 * The token endpoint (`POST {auth_url}/api/client/token/site`, spec sections 4 and 5) and the
 * store of issued bearer tokens.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Grant } from './api';
import { ApiError, forbidden, notFound, Reply, validationError } from './http';
import { Ring } from './metrics';
import type { ApiClient } from './model';
import type { Store } from './store';

export const TOKEN_PATH = '/api/client/token/site';

interface IssuedToken extends Grant {
	expiresAt: number;
}

/** A token as `GET /_admin/tokens` lists it. */
export interface IssuedTokenEntry {
	at: string;
	client_id: string;
	access_token: string;
	refresh_token: string;
}

/** How many issued tokens the admin log keeps (the oldest are dropped). */
export const TOKEN_LOG_SIZE = 2000;

export class TokenStore {
	private readonly tokens = new Map<string, IssuedToken>();

	/**
	 * Every token issued, revoked and expired ones included, so that a test can look for them where
	 * they must not appear (logs, execution records). Kept until the sandbox stops, like the data.
	 */
	readonly issued = new Ring<IssuedTokenEntry>(TOKEN_LOG_SIZE);

	constructor(private readonly lifetimeSeconds: number) {}

	/** Whether an access token is live (issued, neither revoked nor expired). */
	isLive(accessToken: string): boolean {
		return this.resolve(accessToken) !== undefined;
	}

	issue(
		client: ApiClient,
		siteId: number,
		agencyIds: readonly number[],
	): { accessToken: string; refreshToken: string; expiresIn: number } {
		const accessToken = randomBytes(24).toString('base64url');
		this.tokens.set(accessToken, { client, siteId, agencyIds, expiresAt: Date.now() + this.lifetimeSeconds * 1000 });
		// Refresh tokens are returned but never accepted: the refresh request is not shown (docs/assumptions.md).
		const refreshToken = randomBytes(24).toString('base64url');
		this.issued.push({
			at: new Date().toISOString(),
			client_id: client.clientId,
			access_token: accessToken,
			refresh_token: refreshToken,
		});
		return { accessToken, refreshToken, expiresIn: this.lifetimeSeconds };
	}

	/** The grant of a live token; expired tokens are forgotten. */
	resolve(accessToken: string | undefined): Grant | undefined {
		if (!accessToken) return undefined;
		const token = this.tokens.get(accessToken);
		if (!token) return undefined;
		if (token.expiresAt <= Date.now()) {
			this.tokens.delete(accessToken);
			return undefined;
		}
		return token;
	}

	/** Revokes the live tokens of a client (or of every client); answers how many. */
	revoke(clientId?: string): number {
		let revoked = 0;
		for (const [accessToken, token] of this.tokens) {
			if (clientId !== undefined && token.client.clientId !== clientId) continue;
			if (token.expiresAt > Date.now()) revoked++;
			this.tokens.delete(accessToken);
		}
		return revoked;
	}
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
	const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
	return match?.[1];
}

/** The client id and secret of an `Authorization: Basic` header. */
export function basicCredentials(headers: IncomingHttpHeaders): { clientId: string; secret: string } | undefined {
	const match = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '');
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	return colon < 0 ? undefined : { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function secretMatches(expected: string, given: string): boolean {
	const a = Buffer.from(expected);
	const b = Buffer.from(given);
	return a.length === b.length && timingSafeEqual(a, b);
}

export interface TokenExchange {
	store: Store;
	tokens: TokenStore;
	origin: string;
}

/** Exchanges client credentials for a token; the checks run in the order 401, 422, 404, 403. */
export function exchangeToken(
	{ store, tokens, origin }: TokenExchange,
	headers: IncomingHttpHeaders,
	form: URLSearchParams,
): { reply: Reply; client: ApiClient } {
	const credentials = basicCredentials(headers);
	const client = credentials && store.clients.get(credentials.clientId);
	if (!credentials || !client || !secretMatches(client.clientSecret, credentials.secret)) {
		throw new ApiError(
			401,
			'INVALID_CLIENT',
			'Invalid client credentials: send Authorization: Basic base64(client_id:client_secret).',
			undefined,
			{
				'WWW-Authenticate': 'Basic realm="Agency CRM"',
			},
		);
	}
	const siteId = form.get('site_id');
	const agencyId = form.get('manufacturer_id');
	if ((siteId === null) === (agencyId === null)) {
		const message =
			siteId === null ? 'send site_id or manufacturer_id' : 'send only one of site_id and manufacturer_id';
		throw validationError([{ field: 'site_id', message }], `${message} (application/x-www-form-urlencoded body).`);
	}
	const [field, raw] = siteId !== null ? ['site_id', siteId] : ['manufacturer_id', agencyId ?? ''];
	if (!/^\d+$/.test(raw))
		throw validationError([{ field, message: 'must be an integer' }], `${field} must be an integer.`);
	const requestedSite =
		field === 'site_id' ? store.sites.get(Number(raw))?.site_id : store.agencies.get(Number(raw))?.site_id;
	if (requestedSite === undefined) throw notFound(field === 'site_id' ? `Site ${raw}` : `Agency ${raw}`);
	if (requestedSite !== client.siteId)
		throw forbidden(`${field} ${raw} is not in the scope of this client.`, 'SCOPE_FORBIDDEN');
	const token = tokens.issue(client, requestedSite, store.agencyIdsOfSite(requestedSite));
	return {
		client,
		reply: {
			status: 200,
			body: {
				domain: origin,
				token_type: 'Bearer',
				expires_in: token.expiresIn,
				access_token: token.accessToken,
				refresh_token: token.refreshToken,
			},
			headers: { 'Cache-Control': 'no-store' },
		},
	};
}
