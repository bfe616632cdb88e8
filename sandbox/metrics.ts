/** Counters and the request log read by the admin routes; kept cheap for the hot path. */
import type { FaultName } from './faults';
import type { WebhookEvent } from './model';

/** A bounded log: the oldest entries are dropped. */
export class Ring<T> {
	private readonly items: T[] = [];
	private next = 0;

	constructor(private readonly capacity: number) {}

	push(item: T): void {
		if (this.items.length < this.capacity) this.items.push(item);
		else this.items[this.next] = item;
		this.next = (this.next + 1) % this.capacity;
	}

	/** The last `limit` entries, oldest first. */
	latest(limit = this.capacity): T[] {
		const ordered =
			this.items.length < this.capacity
				? this.items
				: [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
		return ordered.slice(Math.max(0, ordered.length - limit));
	}

	clear(): void {
		this.items.length = 0;
		this.next = 0;
	}
}

export interface RequestLogEntry {
	at: string;
	client_id: string | null;
	method: string;
	path: string;
	/** `METHOD /pattern` of the matched route, or null. */
	route: string | null;
	query: Record<string, string>;
	body: unknown;
	/** Null when a fault reset the connection without answering. */
	status: number | null;
	request_id: string;
	content_type: string | null;
	/** The faults injected into this request, in the order they happened. */
	faults: FaultName[];
}

interface InFlightLevel {
	current: number;
	max: number;
}

/**
 * Requests in flight at the server: from the arrival of a request to the end of its answer (or
 * of its connection), overall and per client; the maximum is since the last reset.
 */
class InFlight {
	private readonly overall: InFlightLevel = { current: 0, max: 0 };
	private byClient = new Map<string, InFlightLevel>();

	enter(clientId: string | undefined): void {
		raise(this.overall);
		if (clientId === undefined) return;
		let level = this.byClient.get(clientId);
		if (!level) this.byClient.set(clientId, (level = { current: 0, max: 0 }));
		raise(level);
	}

	leave(clientId: string | undefined): void {
		this.overall.current--;
		const level = clientId === undefined ? undefined : this.byClient.get(clientId);
		if (level) level.current--;
	}

	snapshot() {
		return {
			...this.overall,
			by_client: Object.fromEntries([...this.byClient].map(([clientId, level]) => [clientId, { ...level }])),
		};
	}

	/** The maximum restarts from the requests still in flight. */
	reset(): void {
		this.overall.max = this.overall.current;
		this.byClient = new Map(
			[...this.byClient]
				.filter(([, level]) => level.current > 0)
				.map(([clientId, level]) => [clientId, { current: level.current, max: level.current }]),
		);
	}
}

function raise(level: InFlightLevel): void {
	level.current++;
	if (level.current > level.max) level.max = level.current;
}

const NO_FAULTS: Record<FaultName, number> = {
	reset_before: 0,
	reset_after: 0,
	rate_429: 0,
	server_error: 0,
	token_revoked: 0,
	forbidden: 0,
};

export const REQUEST_LOG_SIZE = 2000;

export class Metrics {
	readonly requests = new Ring<RequestLogEntry>(REQUEST_LOG_SIZE);
	readonly inFlight = new InFlight();
	private faults = { ...NO_FAULTS };
	private tokenExchanges = 0;
	private tokenExchangesByClient: Record<string, number> = {};
	private requestsTotal = 0;
	private requestsByRoute: Record<string, number> = {};
	private deliveriesMade = 0;
	private deliveriesFailed = 0;
	private deliveriesByEvent: Record<string, number> = {};

	countTokenExchange(clientId: string): void {
		this.tokenExchanges++;
		this.tokenExchangesByClient[clientId] = (this.tokenExchangesByClient[clientId] ?? 0) + 1;
	}

	/** Counts a request below the API base; `route` is undefined when no route matched. */
	countRequest(route: string | undefined): void {
		this.requestsTotal++;
		if (route) this.requestsByRoute[route] = (this.requestsByRoute[route] ?? 0) + 1;
	}

	countFault(fault: FaultName): void {
		this.faults[fault]++;
	}

	countDelivery(event: WebhookEvent, failed: boolean): void {
		this.deliveriesMade++;
		if (failed) this.deliveriesFailed++;
		this.deliveriesByEvent[event] = (this.deliveriesByEvent[event] ?? 0) + 1;
	}

	snapshot() {
		return {
			token_exchanges: this.tokenExchanges,
			token_exchanges_by_client: { ...this.tokenExchangesByClient },
			requests_total: this.requestsTotal,
			requests_by_route: { ...this.requestsByRoute },
			deliveries: { made: this.deliveriesMade, failed: this.deliveriesFailed, by_event: { ...this.deliveriesByEvent } },
			in_flight: this.inFlight.snapshot(),
			faults: { ...this.faults },
		};
	}

	reset(): void {
		this.requests.clear();
		this.tokenExchanges = 0;
		this.tokenExchangesByClient = {};
		this.requestsTotal = 0;
		this.requestsByRoute = {};
		this.deliveriesMade = 0;
		this.deliveriesFailed = 0;
		this.deliveriesByEvent = {};
		this.inFlight.reset();
		this.faults = { ...NO_FAULTS };
	}
}
