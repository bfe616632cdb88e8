/** A local webhook receiver for the sandbox's deliveries. */
import http, { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
	path: string;
	/** When it arrived (Date.now()). */
	at: number;
	headers: IncomingHttpHeaders;
	body: any;
}

/** Delay before answering, by path. */
const DELAYS_MS: Record<string, number> = { '/slow': 1500, '/hold': 100 };

/** What /unavailable answers, with its 503. */
export const UNAVAILABLE_BODY = '{"error":"maintenance until 10:00"}';

/** The reason /refuse gives with its 422. */
export const REFUSAL_REASON = 'No e-mail address: the mailing list needs one';

/**
 * /ok answers 200, /fail 500, /unavailable 503 with UNAVAILABLE_BODY, /refuse 422 with `{reason: REFUSAL_REASON}`, /created 201,
 * /slow 200 after 1.5 s, /hold 200 after 100 ms. `maxOpen` is the most requests it held unanswered at once.
 */
export class Receiver {
	readonly received: Received[] = [];
	maxOpen = 0;
	private open = 0;
	private readonly server = http.createServer((request, response) => {
		this.maxOpen = Math.max(this.maxOpen, ++this.open);
		response.on('close', () => this.open--);
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const path = request.url ?? '/';
			this.received.push({
				path,
				at: Date.now(),
				headers: request.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
			});
			const status = { '/ok': 200, '/fail': 500, '/slow': 200, '/created': 201, '/hold': 200 }[path];
			const json = (code: number, body: string) =>
				response.writeHead(code, { 'Content-Type': 'application/json' }).end(body);
			const answer = () =>
				path === '/unavailable'
					? json(503, UNAVAILABLE_BODY)
					: path === '/refuse'
						? json(422, JSON.stringify({ reason: REFUSAL_REASON }))
						: response.writeHead(status ?? 404).end();
			const timer = setTimeout(answer, DELAYS_MS[path] ?? 0);
			response.on('close', () => clearTimeout(timer));
		});
	});

	async start(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
	}

	url(path: string): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
	}

	at(path: string): Received[] {
		return this.received.filter((delivery) => delivery.path === path);
	}

	/** Forgets what was received. */
	clear(): void {
		this.received.length = 0;
		this.maxOpen = 0;
	}

	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}

/** A receiver for the tests of one file: listening before them, closed after them. */
export function useReceiver(): Receiver {
	const receiver = new Receiver();
	beforeAll(() => receiver.start());
	afterAll(() => receiver.close());
	return receiver;
}
