/**
 * Injected faults (admin `POST /_admin/faults`): latency, 429 with Retry-After, 5xx, connection
 * resets and consent proof storage failures, per client or global. Rates are applied with a
 * deterministic accumulator: a rate of 0.25 fires on every 4th request, so the rate holds exactly.
 */
import { ApiError } from './http';
import { FieldReader, objectBody } from './validation';

export interface FaultProfile {
	latency_ms: number;
	rate_429: number;
	retry_after_s: number;
	rate_5xx: number;
	status_5xx: number;
	reset_rate: number;
	consent_proof_failure: boolean;
	/** Faults also apply to the token endpoint. */
	include_token: boolean;
}

export type FaultOutcome = { kind: 'none' } | { kind: 'reset' } | { kind: 'error'; error: ApiError };

const SERVER_ERROR_CODES: Record<number, string> = {
	500: 'INTERNAL_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
};

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

	constructor(readonly profile: FaultProfile) {
		this.resets = new RateAccumulator(profile.reset_rate);
		this.tooManyRequests = new RateAccumulator(profile.rate_429);
		this.serverErrors = new RateAccumulator(profile.rate_5xx);
	}

	/** Every accumulator advances on every request, so that each configured rate holds on its own. */
	outcome(): FaultOutcome {
		const reset = this.resets.due();
		const tooMany = this.tooManyRequests.due();
		const serverError = this.serverErrors.due();
		const { retry_after_s: retryAfter, status_5xx: status } = this.profile;
		if (reset) return { kind: 'reset' };
		if (tooMany) {
			return {
				kind: 'error',
				error: new ApiError(429, 'RATE_LIMITED', `Too many requests: retry after ${retryAfter} s.`, undefined, {
					'Retry-After': String(retryAfter),
				}),
			};
		}
		if (serverError) {
			return {
				kind: 'error',
				error: new ApiError(
					status,
					SERVER_ERROR_CODES[status] ?? 'SERVER_ERROR',
					'The service is temporarily unavailable (injected fault).',
				),
			};
		}
		return { kind: 'none' };
	}
}

export class Faults {
	private global: ActiveFaults | undefined;
	private readonly byClient = new Map<string, ActiveFaults>();

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
			rate_5xx: rate('rate_5xx'),
			status_5xx: reader.optionalInteger('status_5xx', { min: 500, max: 599 }) ?? 503,
			reset_rate: rate('reset_rate'),
			consent_proof_failure: reader.optionalBoolean('consent_proof_failure') ?? false,
			include_token: reader.optionalBoolean('include_token') ?? false,
		};
		reader.throwIfInvalid();
		if (clientId === undefined) this.global = new ActiveFaults(profile);
		else this.byClient.set(clientId, new ActiveFaults(profile));
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

	/** What happens to a request: its latency, then its outcome. */
	decide(clientId: string | undefined, isTokenEndpoint: boolean): { latencyMs: number; outcome: FaultOutcome } {
		const faults = this.activeFor(clientId);
		if (!faults || (isTokenEndpoint && !faults.profile.include_token))
			return { latencyMs: 0, outcome: { kind: 'none' } };
		return { latencyMs: faults.profile.latency_ms, outcome: faults.outcome() };
	}

	consentProofFails(clientId: string): boolean {
		return this.activeFor(clientId)?.profile.consent_proof_failure ?? false;
	}
}
