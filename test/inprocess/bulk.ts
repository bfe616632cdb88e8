import type { INodeExecutionData } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { pacingOf } from '../../nodes/shared/transport/pacing';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { inProcessContext } from './context';

/**
 * Bulk runs of the action node against a sandbox (in this process or another): customer creates,
 * one per item, each with its own email, through the router with the real credential.
 */

export interface SandboxCounters {
	token_exchanges: number;
	requests_total: number;
	requests_by_route: Record<string, number>;
	in_flight: { current: number; max: number };
	faults: { reset_before: number; reset_after: number; rate_429: number; server_error: number; token_revoked: number };
}

/** A sandbox for the tests of one file: started before them, closed after; read `origin` inside a test. */
export function sandboxForTests(): { readonly origin: string } {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return {
		get origin() {
			if (!sandbox) throw new Error('The sandbox starts before the tests');
			return sandbox.origin;
		},
	};
}

export async function admin<T>(origin: string, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${origin}/_admin${path}`, {
		method,
		headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} /_admin${path}: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

export const counters = (origin: string) => admin<SandboxCounters>(origin, 'GET', '/counters');

export async function duplicateContacts(origin: string): Promise<number> {
	const answer = await admin<{ data: { duplicate_contacts: number } }>(origin, 'GET', '/duplicate-contacts?site_id=1');
	return answer.data.duplicate_contacts;
}

/** The email of item `index` of a run tagged `tag`: unique across runs that use different tags. */
export const emailOf = (tag: string, index: number) => `bulk.${tag}.${index}@example.com`;

/** Customer Create items, each with its own email, at the given Concurrency (none: the default). */
export function customerCreates(tag: string, count: number, concurrency?: number): Array<Record<string, unknown>> {
	return Array.from({ length: count }, (_, index) => ({
		resource: 'customer',
		operation: 'create',
		agencyId: { __rl: true, mode: 'id', value: '101' },
		lastname: `Bulk ${index}`,
		output: 'simple',
		additionalFields: {
			email: emailOf(tag, index),
			...(concurrency === undefined ? {} : { concurrency }),
		},
	}));
}

export interface BulkRun {
	output: INodeExecutionData[];
	wallMs: number;
	/** Pauses started by 429s in the run (one pause covers every 429 answered while it lasts). */
	pauses: number;
}

/** Runs the items through the node as demo-client, as one execution. */
export async function runNode(
	origin: string,
	items: Array<Record<string, unknown>>,
	continueOnFail = false,
): Promise<BulkRun> {
	const { context } = inProcessContext(
		{ authUrl: origin, clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'site', siteId: 1 },
		items,
		[],
		continueOnFail,
	);
	const started = performance.now();
	const [output] = await route.call(context);
	return { output, wallMs: performance.now() - started, pauses: pacingOf(context).pauses };
}
