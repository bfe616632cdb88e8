import type { N8nInstance } from './n8n';

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

/** Sandbox admin routes (tests only). */
export async function admin<T = Record<string, unknown>>(
	origin: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${origin}/_admin${path}`, {
		method,
		headers: body === undefined ? undefined : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
	return (text ? JSON.parse(text) : {}) as T;
}
