import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, IHookFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, TOKEN_FIELDS } from '../../../credentials/contract';

/** What the transport needs of an n8n context to read the node's credential. */
type CredentialContext = Pick<IHookFunctions, 'getNode' | 'getCredentials'>;

/** A credential as n8n's `httpRequestWithAuthentication` takes it (`credentialsDecrypted`). */
type Credential = ICredentialsDecrypted & { data: ICredentialDataDecryptedObject };

type TokenData = Record<(typeof TOKEN_FIELDS)[number], string>;

function tokenOf(data: ICredentialDataDecryptedObject): TokenData {
	return { accessToken: String(data.accessToken ?? ''), domain: String(data.domain ?? '') };
}

/** How long a token read from the credential serves the trigger deliveries of the same credential. */
export const RECENT_TOKEN_MS = 60_000;

/**
 * The tokens trigger deliveries used lately, by credential id. Each delivery is a run of its own
 * (n8n builds a new context for it), so without these every delivery that fetches its record reads
 * the credential from n8n's database, decrypts it and resolves it (and in n8n 2.x takes an
 * expression isolate for that), competing with the acknowledgements of a burst.
 *
 * Safe, because it holds only the token and its API domain, never the client secret; keyed by
 * credential id, so a token never serves another credential; in this process only, for a minute at
 * most, so losing it costs one credential read; and a request answered 401 with it forgets it and
 * goes through n8n's path (read, exchange, resend). README "Security notes".
 */
export class RecentTokens {
	private readonly tokens = new Map<string, { token: TokenData; readAt: number }>();

	constructor(
		private readonly lifetimeMs: number = RECENT_TOKEN_MS,
		private readonly now: () => number = Date.now,
	) {}

	get(credentialId: string): TokenData | undefined {
		const now = this.now();
		for (const [id, entry] of this.tokens) if (now - entry.readAt >= this.lifetimeMs) this.tokens.delete(id);
		return this.tokens.get(credentialId)?.token;
	}

	/** Keeps a token just read from the credential (or renewed), once an answer other than 401 came with it. */
	keep(credentialId: string, token: TokenData): void {
		if (token.accessToken !== '') this.tokens.set(credentialId, { token, readAt: this.now() });
	}

	forget(credentialId: string, token: TokenData): void {
		if (this.tokens.get(credentialId)?.token.accessToken === token.accessToken) this.tokens.delete(credentialId);
	}
}

/** One request's credential, and what to do once it is answered (its status; undefined when it threw). */
export interface Lease {
	credential: Credential;
	release(statusCode: number | undefined): void;
}

/**
 * The credential of one node run (an execution of the action node, a trigger activation or
 * delivery, a dropdown load), read from n8n once, when the run's first request leaves, and handed
 * to n8n's helper as `credentialsDecrypted` by every request of the run. Otherwise the helper reads
 * it for every request: a database read, a decryption and an expression resolution each (issue 19).
 * n8n still runs the credential's preAuthentication and authenticate, and on a 401 exchanges a new
 * token and sends the request again, on n8n 1.x as on 2.x.
 *
 * Each request gets a copy of the credential's data: n8n writes a renewed token into the object it
 * was given, and the credential shares one exchange among the requests that hold the same stale
 * token (credentials/sharedExchanges.ts). A copy shared by every request would show the new token
 * to a request still waiting for its own 401, which would then exchange again. When a request ends,
 * a token renewed for it is copied back, so the requests that leave after it send the new one.
 */
export class RunCredential {
	private read: Promise<ICredentialDataDecryptedObject> | undefined;

	/** The credential's id and name as the node names it, read once (n8n's getNode copies the whole node). */
	private named: { id: string; name: string } | undefined;

	/** Whether requests may start with a recent token of the same credential (trigger deliveries). */
	private recentTokensAllowed = false;

	constructor(
		private readonly context: CredentialContext,
		private readonly recentTokens: RecentTokens,
	) {}

	allowRecentTokens(): void {
		this.recentTokensAllowed = true;
	}

	/**
	 * A credential for one request. A recent token serves only requests whose status errors come back
	 * as answers: n8n runs preAuthentication only after a thrown 401, and must never run it with data
	 * that holds no client secret (n8n 1.x would store that data as the credential).
	 */
	async lease(statusErrorsReturned: boolean): Promise<Lease> {
		const { id, name } = (this.named ??= this.nodeCredential());
		const recent = this.recentTokensAllowed && id ? this.recentTokens.get(id) : undefined;
		if (recent && statusErrorsReturned) {
			return {
				credential: { id, name, type: CREDENTIAL_TYPE, data: { ...recent } },
				release: (statusCode) => {
					if (statusCode === 401) this.recentTokens.forget(id, recent);
				},
			};
		}
		const data = await (this.read ??= this.context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
		const copy = { ...data };
		const sentWith = copy.accessToken;
		return {
			credential: { id, name, type: CREDENTIAL_TYPE, data: copy },
			release: (statusCode) => {
				const token = tokenOf(copy);
				if (token.accessToken !== sentWith) Object.assign(data, token);
				if (this.recentTokensAllowed && id && statusCode !== undefined && statusCode !== 401) {
					this.recentTokens.keep(id, token);
				}
			},
		};
	}

	private nodeCredential(): { id: string; name: string } {
		const named = this.context.getNode().credentials?.[CREDENTIAL_TYPE];
		return { id: named?.id ?? '', name: named?.name ?? '' };
	}
}

/** The tokens of this process's trigger deliveries (see RecentTokens). */
const recentTokens = new RecentTokens();

/**
 * One RunCredential per n8n context: the context object lives exactly as long as one node run, so
 * the credential read is shared by every item and page of the run and forgotten with it.
 */
const runCredentials = new WeakMap<object, RunCredential>();

export function runCredentialOf(context: CredentialContext): RunCredential {
	let credential = runCredentials.get(context);
	if (!credential) {
		credential = new RunCredential(context, recentTokens);
		runCredentials.set(context, credential);
	}
	return credential;
}

/**
 * Lets the requests of a run start with a token another run of this process used for the same
 * credential in the last minute, and leave theirs to the next: for trigger deliveries, each a run
 * of its own, which would otherwise each read the credential.
 */
export function reuseRecentTokens(context: CredentialContext): void {
	runCredentialOf(context).allowRecentTokens();
}
