/**
 * Injected faults (admin `POST /_admin/faults`): latency, 429 with Retry-After (at a rate, or past a
 * limit of requests per second), 5xx, connection resets before and after processing, token
 * revocation every N requests, consent proof storage failures and consents dropped, and routes refused
 * as production refuses an operation whose right the API access lacks (a 403), per client or global. Rates are
 * applied with a deterministic accumulator: a rate of 0.25 fires on every 4th request, so the rate
 * holds exactly.
 */
import { ApiError } from './http';
import { FieldReader, objectBody } from './validation';

export interface FaultProfile {
	latency_ms: number;
	rate_429: number;
	retry_after_s: number;
	/**
	 * A limit as real APIs set one: at most this many requests per clock second (0: none); past it,
	 * every request is answered 429 until the second is over, with Retry-After its remaining seconds.
	 */
	rate_limit_per_s: number;
	rate_5xx: number;
	status_5xx: number;
	/** Closes the connection before the request is processed. */
	reset_rate: number;
	/** Processes the request (records written), then closes the connection without answering. */
	reset_after_rate: number;
	/** Revokes the client's live tokens on every Nth authenticated API request (0: never). */
	revoke_token_every: number;
	consent_proof_failure: boolean;
	/** Consent writes are answered 204 and record nothing: accepted, but the contact never shows them. */
	consent_dropped: boolean;
	/** Faults also apply to the token endpoint. */
	include_token: boolean;
	/** The faults apply to this route only (`POST /customers`, as the request log names routes); none: to every route. */
	only_route: string | null;
	/** Routes (`POST /products/search`) answered 403, as production answers an access without the operation's right. */
	forbidden_routes: string[];
}

/** The name of an injected fault, as the request log and the counters show it. */
export type FaultName = 'reset_before' | 'reset_after' | 'rate_429' | 'server_error' | 'token_revoked' | 'forbidden';

/** What happens to a request: answered (then maybe reset), reset unanswered, or an injected error. */
export type FaultOutcome =
	{ kind: 'answer'; resetAfter: boolean } | { kind: 'reset' } | { kind: 'error'; error: ApiError; fault: FaultName };

export interface FaultDecision {
	latencyMs: number;
	/** Revoke the client's live tokens before handling the request (which then gets 401). */
	revokeTokens: boolean;
	outcome: FaultOutcome;
}

const NO_FAULT: FaultDecision = { latencyMs: 0, revokeTokens: false, outcome: { kind: 'answer', resetAfter: false } };

const SERVER_ERROR_CODES: Record<number, string> = {
	500: 'INTERNAL_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
};

/** A fixed window of one clock second: how many requests arrived in it. */
class PerSecondLimit {
	private second = -1;
	private arrived = 0;

	constructor(
		private readonly limit: number,
		private readonly now: () => number,
	) {}

	/** Counts a request; past the limit, the seconds until the window resets (rounded up), else undefined. */
	retryAfter(): number | undefined {
		if (this.limit <= 0) return undefined;
		const now = this.now();
		const second = Math.floor(now / 1000);
		if (second !== this.second) {
			this.second = second;
			this.arrived = 0;
		}
		if (++this.arrived <= this.limit) return undefined;
		return Math.ceil(((second + 1) * 1000 - now) / 1000);
	}
}

/** Fires `rate` of the calls to `due()`, evenly spread. */
class RateAccumulator {
	private credit = 0;

	constructor(private readonly rate: number) {}

	due(): boolean {
		if (this.rate <= 0) return false;
		this.credit += this.rate;
		if (this.credit < 1 - 1e-9) return false;
		this.credit -= 1;
		return true;
	}
}

class ActiveFaults {
	private readonly resets: RateAccumulator;
	private readonly tooManyRequests: RateAccumulator;
	private readonly serverErrors: RateAccumulator;
	private readonly resetsAfter: RateAccumulator;
	private readonly limit: PerSecondLimit;
	private authenticatedRequests = 0;

	constructor(
		readonly profile: FaultProfile,
		now: () => number,
	) {
		this.limit = new PerSecondLimit(profile.rate_limit_per_s, now);
		this.resets = new RateAccumulator(profile.reset_rate);
		this.tooManyRequests = new RateAccumulator(profile.rate_429);
		this.serverErrors = new RateAccumulator(profile.rate_5xx);
		this.resetsAfter = new RateAccumulator(profile.reset_after_rate);
	}

	/**
	 * The before-processing accumulators advance on every request, so that each rate holds on its
	 * own; `reset_after_rate` counts only the requests that get past them, i.e. that are processed.
	 * Revocation counts the requests that arrive with a live token, the limit every request.
	 */
	decide(authenticated: boolean, route: string | undefined): Omit<FaultDecision, 'latencyMs'> {
		const every = this.profile.revoke_token_every;
		const revokeTokens = authenticated && every > 0 && ++this.authenticatedRequests % every === 0;
		const overLimit = this.limit.retryAfter();
		const reset = this.resets.due();
		const tooMany = this.tooManyRequests.due();
		const serverError = this.serverErrors.due();
		const { status_5xx: status } = this.profile;
		if (reset) return { revokeTokens, outcome: { kind: 'reset' } };
		if (route !== undefined && this.profile.forbidden_routes.includes(route)) {
			const error = new ApiError(
				403,
				'FORBIDDEN',
				'This API access lacks the right this operation needs (injected fault): production asks for a permission and a right, such as RS:PRODUCT_SEARCH.',
			);
			return { revokeTokens, outcome: { kind: 'error', error, fault: 'forbidden' } };
		}
		if (overLimit !== undefined || tooMany) {
			const retryAfter = overLimit ?? this.profile.retry_after_s;
			const error = new ApiError(429, 'RATE_LIMITED', `Too many requests: retry after ${retryAfter} s.`, undefined, {
				'Retry-After': String(retryAfter),
			});
			return { revokeTokens, outcome: { kind: 'error', error, fault: 'rate_429' } };
		}
		if (serverError) {
			const error = new ApiError(
				status,
				SERVER_ERROR_CODES[status] ?? 'SERVER_ERROR',
				'The service is temporarily unavailable (injected fault).',
			);
			return { revokeTokens, outcome: { kind: 'error', error, fault: 'server_error' } };
		}
		return { revokeTokens, outcome: { kind: 'answer', resetAfter: this.resetsAfter.due() } };
	}
}

export class Faults {
	private global: ActiveFaults | undefined;
	private readonly byClient = new Map<string, ActiveFaults>();

	constructor(private readonly now: () => number = Date.now) {}

	/** Sets the faults of one client (`client_id`) or the global ones; replaces what was set for that scope. */
	configure(body: unknown, knownClient: (clientId: string) => boolean): { scope: string; faults: FaultProfile } {
		const reader = new FieldReader(objectBody(body));
		const clientId = reader.optionalString('client_id', { nullable: true }) ?? undefined;
		if (clientId !== undefined && !knownClient(clientId)) reader.fail('client_id', `unknown client ${clientId}`);
		const rate = (key: string) => reader.optionalNumber(key, { min: 0, max: 1 }) ?? 0;
		const profile: FaultProfile = {
			latency_ms: reader.optionalInteger('latency_ms', { min: 0, max: 120_000 }) ?? 0,
			rate_429: rate('rate_429'),
			retry_after_s: reader.optionalInteger('retry_after_s', { min: 0, max: 3600 }) ?? 1,
			rate_limit_per_s: reader.optionalInteger('rate_limit_per_s', { min: 0, max: 1_000_000 }) ?? 0,
			rate_5xx: rate('rate_5xx'),
			status_5xx: reader.optionalInteger('status_5xx', { min: 500, max: 599 }) ?? 503,
			reset_rate: rate('reset_rate'),
			reset_after_rate: rate('reset_after_rate'),
			revoke_token_every: reader.optionalInteger('revoke_token_every', { min: 0, max: 1_000_000 }) ?? 0,
			consent_proof_failure: reader.optionalBoolean('consent_proof_failure') ?? false,
			consent_dropped: reader.optionalBoolean('consent_dropped') ?? false,
			include_token: reader.optionalBoolean('include_token') ?? false,
			only_route: reader.optionalString('only_route', { nullable: true }) ?? null,
			forbidden_routes: reader.optionalStringList('forbidden_routes') ?? [],
		};
		reader.throwIfInvalid();
		if (clientId === undefined) this.global = new ActiveFaults(profile, this.now);
		else this.byClient.set(clientId, new ActiveFaults(profile, this.now));
		return { scope: clientId ?? 'global', faults: profile };
	}

	clear(): void {
		this.global = undefined;
		this.byClient.clear();
	}

	describe(): { global: FaultProfile | null; clients: Record<string, FaultProfile> } {
		return {
			global: this.global?.profile ?? null,
			clients: Object.fromEntries([...this.byClient].map(([clientId, faults]) => [clientId, faults.profile])),
		};
	}

	/** The faults in force for a client: its own when set, else the global ones. */
	private activeFor(clientId: string | undefined): ActiveFaults | undefined {
		return (clientId !== undefined ? this.byClient.get(clientId) : undefined) ?? this.global;
	}

	/** What happens to a request of `route` (`POST /customers`): a token revocation, its latency, then its outcome. */
	decide(clientId: string | undefined, isTokenEndpoint: boolean, authenticated: boolean, route: string): FaultDecision {
		const faults = this.activeFor(clientId);
		if (!faults || (isTokenEndpoint && !faults.profile.include_token)) return NO_FAULT;
		if (faults.profile.only_route !== null && faults.profile.only_route !== route) return NO_FAULT;
		return { latencyMs: faults.profile.latency_ms, ...faults.decide(authenticated && !isTokenEndpoint, route) };
	}

	consentProofFails(clientId: string): boolean {
		return this.activeFor(clientId)?.profile.consent_proof_failure ?? false;
	}

	consentDropped(clientId: string): boolean {
		return this.activeFor(clientId)?.profile.consent_dropped ?? false;
	}
}
