import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { waitFor } from '../test/support/waitFor';
import { admin } from '../test/support/sandbox/admin';
import type { N8nInstance, N8nProcess, publicApi } from '../tools/n8n/launcher';
import type { Candidate } from './n8nWorkflows';
import type { Run } from './report';

/** What `npm run bench` and `npm run bench:profile` share to drive n8n and the sandbox. */

export const DEMO_CLIENT = { clientId: 'demo-client', clientSecret: 'demo-secret', siteId: 1 };

export type Api = Awaited<ReturnType<typeof publicApi>>;

export async function activate(api: Api, workflowId: string): Promise<void> {
	const { status, body } = await api('POST', `/workflows/${workflowId}/activate`);
	if (status !== 200) throw new Error(`activate ${workflowId}: ${status} ${JSON.stringify(body)}`);
}

/**
 * POSTs to a production webhook and returns the answer's text. Right after activation n8n may not
 * serve the path yet (404): asked again then.
 */
export async function callWebhook(server: N8nProcess, path: string, body: unknown = {}): Promise<string> {
	const response = await waitFor(`the webhook ${path}`, async () => {
		const answer = await fetch(`${server.url}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (answer.status !== 404) return answer;
		await answer.text();
		return undefined;
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`webhook ${path} answered ${response.status} ${text}`);
	return text;
}

/** A token of the demo client, as the raw loop and the sandbox's own API calls use it. */
export async function exchangeToken(origin: string): Promise<string> {
	const response = await fetch(`${origin}/api/client/token/site`, {
		method: 'POST',
		headers: {
			Authorization: `Basic ${Buffer.from(`${DEMO_CLIENT.clientId}:${DEMO_CLIENT.clientSecret}`).toString('base64')}`,
			'Content-Type': 'application/x-www-form-urlencoded',
		},
		body: `site_id=${DEMO_CLIENT.siteId}`,
	});
	return ((await response.json()) as { access_token: string }).access_token;
}

/** Registers a hook of the demo client for `url` (CUSTOMER_UPDATE), as a user would for n8n's Webhook node. */
export async function registerHook(origin: string, url: string): Promise<void> {
	const registered = await fetch(`${origin}/api/v2/site/hooks`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${await exchangeToken(origin)}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ url, origines: ['CUSTOMER_UPDATE'] }),
	});
	if (!registered.ok) throw new Error(`hook for ${url}: ${registered.status} ${await registered.text()}`);
}

/**
 * Puts the floor node (bench/floor, compiled by `npm run build:tools`) in the instance's n8n custom
 * folder, where n8n loads it as `CUSTOM.agencyCrmFloor`.
 */
export function installFloorNode(instance: N8nInstance): void {
	const custom = path.join(instance.userFolder, '.n8n', 'custom');
	mkdirSync(custom, { recursive: true });
	copyFileSync(path.join(__dirname, 'floor', 'AgencyCrmFloor.node.js'), path.join(custom, 'AgencyCrmFloor.node.js'));
}

/** The id of the active hook the sandbox holds for `url` (n8n registers it after activation). */
export async function hookIdFor(origin: string, url: string): Promise<number> {
	return await waitFor(`a hook for ${url}`, async () => {
		const { data } = await admin<{ data: Array<{ id: number; url: string; status: string }> }>(origin, 'GET', '/hooks');
		return data.find((hook) => hook.url === url && hook.status === 'active')?.id;
	});
}

/** What every benchmark needs: the n8n server and its public API. */
export interface Bench {
	server: N8nProcess;
	api: Api;
}

export interface Execution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData?: {
			error?: { message?: string; description?: string };
			runData?: Record<
				string,
				Array<{
					startTime: number;
					executionTime: number;
					data?: { main?: Array<Array<{ json: Record<string, unknown> }>> };
				}>
			>;
		};
	};
}

/**
 * The executions of a workflow newer than `afterId`, newest first, page after page (the public
 * API gives at most 250 a page, fewer with their data). Throws on an answer that is not a list.
 */
export async function executionsAfter(
	api: Api,
	workflowId: string,
	afterId: number,
	includeData: boolean,
): Promise<Execution[]> {
	const found: Execution[] = [];
	let cursor: string | null = null;
	for (;;) {
		const query = `workflowId=${workflowId}&limit=${includeData ? 50 : 250}&includeData=${includeData}`;
		const { status, body } = await listExecutions(
			api,
			`/executions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		if (status !== 200 || !body.data) throw new Error(`executions of ${workflowId}: ${status} ${JSON.stringify(body)}`);
		const fresh = body.data.filter((execution) => Number(execution.id) > afterId);
		found.push(...fresh);
		if (fresh.length < body.data.length || !body.nextCursor) return found;
		cursor = body.nextCursor;
	}
}

/** A page of executions. Under a burst n8n may answer 503 "Database is not ready!" for a while: asked again then. */
async function listExecutions(api: Api, url: string) {
	return await waitFor(
		url,
		async () => {
			const answer = await api<{ data?: Execution[]; nextCursor?: string | null }>('GET', url);
			return answer.status === 503 ? undefined : answer;
		},
		60_000,
		1000,
	);
}

export async function latestExecutionId(api: Api, workflowId: string): Promise<number> {
	const { status, body } = await listExecutions(api, `/executions?workflowId=${workflowId}&limit=1`);
	if (status !== 200 || !body.data) throw new Error(`executions of ${workflowId}: ${status} ${JSON.stringify(body)}`);
	return Number(body.data[0]?.id ?? 0);
}

/** Starts the candidate's workflow through its webhook and returns its execution, once n8n has saved it. */
export async function runWorkflow(bench: Bench, candidate: Candidate, body: unknown) {
	const before = await latestExecutionId(bench.api, candidate.workflow.id);
	await callWebhook(bench.server, candidate.path, body);
	const id = await waitFor(`the execution of ${candidate.name}`, async () => {
		const latest = await latestExecutionId(bench.api, candidate.workflow.id);
		return latest > before ? latest : undefined;
	});
	const execution = await waitFor(`execution ${id} saved`, async () => {
		const { body: found } = await bench.api<Execution>('GET', `/executions/${id}?includeData=true`);
		return found.stoppedAt ? found : undefined;
	});
	const error = execution.data?.resultData?.error;
	if (execution.status !== 'success' || error) {
		throw new Error(`${candidate.name}: execution ${id} ${execution.status}: ${error?.message} ${error?.description}`);
	}
	const runData = execution.data?.resultData?.runData ?? {};
	const nodeMs = candidate.timedNodes.reduce((sum, node) => sum + (runData[node]?.[0]?.executionTime ?? NaN), 0);
	const output = (runData[candidate.outputNode]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
	const workflowMs = Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt);
	/** When each timed node ran (epoch ms), for profiles. */
	const nodeSpans = candidate.timedNodes.map((node) => ({
		start: runData[node]?.[0]?.startTime ?? NaN,
		ms: runData[node]?.[0]?.executionTime ?? NaN,
	}));
	return { nodeMs, workflowMs, output, nodeSpans };
}

/** Rounds of every candidate, the order alternating, after a warm-up round that is not kept. */
export async function inRounds<T extends string>(
	rounds: number,
	candidates: T[],
	run: (candidate: T, warmUp: boolean) => Promise<Run | undefined>,
): Promise<Record<T, Run[]>> {
	const runs = Object.fromEntries(candidates.map((candidate) => [candidate, [] as Run[]])) as Record<T, Run[]>;
	for (const candidate of candidates) await run(candidate, true);
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 === 0 ? candidates : [...candidates].reverse();
		for (const candidate of order) {
			const result = await run(candidate, false);
			if (result) runs[candidate].push(result);
			console.log(`  round ${round + 1}, ${candidate}: ${result ? Math.round(result.ms) : '?'} ms`);
		}
	}
	return runs;
}
