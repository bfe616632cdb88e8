import type { N8nProcess, publicApi } from '../../../tools/n8n/launcher';

/** Workflows and their executions through n8n's public API, as the real-n8n and queue-mode tests read them. */

export type PublicApi = Awaited<ReturnType<typeof publicApi>>;

export interface ExecutionItem {
	json: Record<string, unknown>;
	pairedItem?: unknown;
}

/** An execution as the public API returns it with `includeData=true`. */
export interface Execution {
	id: string;
	status: string;
	workflowId: string;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData?: {
			runData?: Record<string, Array<{ executionTime?: number; data?: { main?: ExecutionItem[][] } }>>;
			error?: { message?: string; description?: string };
		};
	};
}

/** Every execution of a workflow (or of every workflow), newest first, with its data. */
export async function executionsOf(api: PublicApi, workflowId?: string): Promise<Execution[]> {
	const all: Execution[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ includeData: 'true', limit: '20' });
		if (workflowId) query.set('workflowId', workflowId);
		if (cursor) query.set('cursor', cursor);
		const { status, body } = await api<{ data: Execution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?${query.toString()}`,
		);
		if (status !== 200) throw new Error(`executions: ${status} ${JSON.stringify(body)}`);
		all.push(...body.data);
		cursor = body.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

export const finished = (execution: Execution) => !['new', 'running', 'waiting'].includes(execution.status);

/**
 * The items a node sent on one of its outputs (the first by default) in an execution, over all its
 * runs, or undefined when it did not run. (A Filter's second output holds the items it discarded.)
 */
export function nodeItems(execution: Execution, node: string, output = 0): ExecutionItem[] | undefined {
	const runs = execution.data?.resultData?.runData?.[node];
	return runs?.flatMap((run) => run.data?.main?.[output] ?? []);
}

/** The JSON of those items. */
export function nodeOutput(execution: Execution, node: string, output = 0): Array<Record<string, unknown>> | undefined {
	return nodeItems(execution, node, output)?.map((item) => item.json);
}

/** Activates or deactivates a workflow; a refusal throws with n8n's answer (and the end of its log, given the server). */
export async function setActive(api: PublicApi, workflowId: string, active: boolean, server?: N8nProcess) {
	const { status, body } = await api('POST', `/workflows/${workflowId}/${active ? 'activate' : 'deactivate'}`);
	if (status !== 200) {
		const log = server ? `\n${server.log().slice(-3000)}` : '';
		throw new Error(`${active ? 'activate' : 'deactivate'} ${workflowId}: ${status} ${JSON.stringify(body)}${log}`);
	}
}
