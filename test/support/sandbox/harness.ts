/** Starts a sandbox on a random port and talks to it over HTTP with the global fetch. */
import { startSandbox, Sandbox, SandboxOptions } from '../../../sandbox';
import { waitFor } from '../waitFor';

/** Where the API's paths start on the sandbox. */
export const API_BASE = '/api/v2/site';

export interface HttpResult {
	status: number;
	headers: Headers;
	/** Parsed JSON, or undefined when the body is empty or not JSON. */
	body: any;
	bytes: Buffer;
}

export interface RequestOptions {
	/** The client whose token to send (default demo-client); null sends no Authorization header. */
	client?: string | null;
	token?: string;
	body?: unknown;
	form?: FormData;
	query?: Record<string, string | number | boolean>;
	headers?: Record<string, string>;
}

export class Harness {
	private readonly tokens = new Map<string, string>();
	private started?: Sandbox;

	constructor(private readonly options: SandboxOptions = {}) {}

	/** A sandbox of its own, started now (useSandbox starts one for a whole test file). */
	static async start(options: SandboxOptions = {}): Promise<Harness> {
		const harness = new Harness(options);
		await harness.open();
		return harness;
	}

	async open(): Promise<void> {
		// Retries come within a second, so that a test sees them (production waits minutes).
		this.started = await startSandbox({
			port: 0,
			quiet: true,
			deliveryTimeoutMs: 500,
			deliveryRetryDelaysMs: [100, 200, 300],
			...this.options,
		});
	}

	get sandbox(): Sandbox {
		if (!this.started) throw new Error('The sandbox starts before the tests: read it inside a test or a hook');
		return this.started;
	}

	get origin(): string {
		return this.sandbox.origin;
	}

	async close(): Promise<void> {
		await this.started?.close();
	}

	secretOf(clientId: string): string {
		const client = this.sandbox.clients.find((candidate) => candidate.clientId === clientId);
		if (!client) throw new Error(`unknown demo client ${clientId}`);
		return client.clientSecret;
	}

	/** POSTs the token form with Basic credentials. */
	requestToken(clientId: string, secret: string, form: Record<string, string>): Promise<HttpResult> {
		return this.send('POST', '/api/client/token/site', {
			client: null,
			headers: {
				Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			rawBody: new URLSearchParams(form).toString(),
		});
	}

	/** A token of the client for its own site, cached. */
	async token(clientId = 'demo-client'): Promise<string> {
		const cached = this.tokens.get(clientId);
		if (cached) return cached;
		const siteId = this.sandbox.clients.find((client) => client.clientId === clientId)?.siteId ?? 1;
		const result = await this.requestToken(clientId, this.secretOf(clientId), { site_id: String(siteId) });
		if (result.status !== 200)
			throw new Error(`token for ${clientId}: ${result.status} ${JSON.stringify(result.body)}`);
		this.tokens.set(clientId, result.body.access_token);
		return result.body.access_token;
	}

	forgetTokens(): void {
		this.tokens.clear();
	}

	/** Calls the API below /api/v2/site. */
	async api(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
		const headers: Record<string, string> = { ...options.headers };
		const client = options.client === undefined ? 'demo-client' : options.client;
		const token = options.token ?? (client === null ? undefined : await this.token(client));
		if (token) headers.Authorization = `Bearer ${token}`;
		return this.send(method, `${API_BASE}${path}`, { ...options, headers });
	}

	/** Deletes every webhook of every demo client, so that tests do not see each other's hooks. */
	async deleteAllHooks(): Promise<void> {
		for (const { clientId: client } of this.sandbox.clients) {
			for (const hook of (await this.api('GET', '/hooks', { client })).body.data)
				await this.api('DELETE', `/hooks/${hook.id}`, { client });
		}
	}

	admin(method: string, path: string, body?: unknown): Promise<HttpResult> {
		return this.send(method, `/_admin${path}`, { body });
	}

	async send(method: string, path: string, options: RequestOptions & { rawBody?: string } = {}): Promise<HttpResult> {
		const url = new URL(path, this.sandbox.origin);
		for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
		const headers: Record<string, string> = { ...options.headers };
		let body: BodyInit | undefined;
		if (options.form) body = options.form;
		else if (options.rawBody !== undefined) body = options.rawBody;
		else if (options.body !== undefined) {
			body = JSON.stringify(options.body);
			headers['Content-Type'] ??= 'application/json';
		}
		const response = await fetch(url, { method, headers, body });
		const bytes = Buffer.from(await response.arrayBuffer());
		let parsed: unknown;
		if ((response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0)
			parsed = JSON.parse(bytes.toString('utf8'));
		return { status: response.status, headers: response.headers, body: parsed, bytes };
	}
}

/**
 * The sandbox of one test file, started before its tests and closed after them: call it at the top
 * of the file, and use what it returns inside tests and hooks.
 */
export function useSandbox(options: SandboxOptions = {}): Harness {
	const harness = new Harness(options);
	beforeAll(() => harness.open());
	afterAll(() => harness.close());
	return harness;
}

/** The fields named in a 422's details. */
export function detailFields(result: HttpResult): string[] {
	return (result.body?.error?.details ?? []).map((detail: { field: string }) => detail.field);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** waitFor, asking every 20 ms: the sandbox and the receiver run in this process and answer at once. */
export function eventually<T>(
	what: string,
	probe: () => Promise<T | undefined | false>,
	timeoutMs = 10_000,
): Promise<T> {
	return waitFor(what, probe, timeoutMs, 20);
}
