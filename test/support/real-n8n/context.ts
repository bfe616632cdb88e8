import type { N8nInstance } from '../../../tools/n8n/launcher';

/**
 * The first of the ports the real-n8n suites use: AGENCY_CRM_N8N_PORT_BASE, default 5710. Each suite
 * takes its own from its offset (n8n 2.x: +0, n8n 1.x: +10, queue mode: +20 to +39, the installer
 * tests: +70 to +77), so that two runs on one machine only need different bases.
 */
export function portBase(): number {
	const base = Number(process.env.AGENCY_CRM_N8N_PORT_BASE ?? 5710);
	if (!Number.isInteger(base) || base < 1024 || base > 65_000) {
		throw new Error(`AGENCY_CRM_N8N_PORT_BASE must be a port from 1024 to 65000 (got "${String(base)}")`);
	}
	return base;
}

/** The sandbox's delays before each retry of a delivery n8n did not acknowledge (production: minutes). */
export const RETRY_DELAYS_MS = [1000, 2000, 3000];

/** What globalSetup prepared, read back inside a test file. */
export interface DemoClientInfo {
	clientId: string;
	clientSecret: string;
	siteId: number;
	agencyIds: number[];
	name: string;
}

export function testContext() {
	const origin = process.env.AGENCY_CRM_SANDBOX_ORIGIN;
	if (!origin) throw new Error('The real-n8n tests run through scripts/test-real-n8n.sh (jest.real-n8n.config.js)');
	const clients = JSON.parse(process.env.AGENCY_CRM_SANDBOX_CLIENTS ?? '[]') as DemoClientInfo[];
	const client = (id: string) => {
		const found = clients.find((candidate) => candidate.clientId === id);
		if (!found) throw new Error(`No sandbox client ${id}`);
		return found;
	};
	return { origin, client, instance: JSON.parse(process.env.AGENCY_CRM_N8N ?? '{}') as N8nInstance };
}

/**
 * The Agency CRM API of the sandbox, called directly as another client of the CRM would (to set up
 * records, or to read them as the CRM holds them), with a token of the given demo client.
 */
export function sandboxApi(origin: string, client: DemoClientInfo) {
	let token: string | undefined;
	async function exchange(): Promise<string> {
		const response = await fetch(`${origin}/api/client/token/site`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
				'content-type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams({ site_id: String(client.siteId) }).toString(),
		});
		if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
		return ((await response.json()) as { access_token: string }).access_token;
	}
	return async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		token ??= await exchange();
		const response = await fetch(`${origin}/api/v2/site${path}`, {
			method,
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
		return (text ? JSON.parse(text) : {}) as T;
	};
}
