/** Starts a sandbox on a random port and talks to it over HTTP with the global fetch. */
import { startSandbox, Sandbox, SandboxOptions } from '../../sandbox';

export const API = '/api/v2/site';

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

	private constructor(readonly sandbox: Sandbox) {}

	static async start(options: SandboxOptions = {}): Promise<Harness> {
		return new Harness(await startSandbox({ port: 0, quiet: true, deliveryTimeoutMs: 500, ...options }));
	}

	close(): Promise<void> {
		return this.sandbox.close();
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
		return this.send(method, `${API}${path}`, { ...options, headers });
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

/** The fields named in a 422's details. */
export function detailFields(result: HttpResult): string[] {
	return (result.body?.error?.details ?? []).map((detail: { field: string }) => detail.field);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await sleep(20);
	}
}
