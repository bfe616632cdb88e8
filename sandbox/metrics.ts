/** Counters and the request log read by the admin routes; kept cheap for the hot path. */
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
}

export const REQUEST_LOG_SIZE = 2000;

export class Metrics {
	readonly requests = new Ring<RequestLogEntry>(REQUEST_LOG_SIZE);
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
	}
}
