import type { publicApi } from './n8n';

/** Executions as n8n's public API returns them with `includeData=true`. */
export interface Execution {
	id: string;
	status: string;
	data?: {
		resultData?: {
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>>;
			error?: { message?: string };
		};
	};
}

export type PublicApi = Awaited<ReturnType<typeof publicApi>>;

/** The workflow's executions, newest first. */
export async function executionsOf(api: PublicApi, workflowId: string): Promise<Execution[]> {
	const { body } = await api<{ data: Execution[] }>(
		'GET',
		`/executions?workflowId=${workflowId}&includeData=true&limit=100`,
	);
	return body.data;
}

/**
 * The items a node sent on one of its outputs (the first by default) in an execution, over all its
 * runs, or undefined when it did not run. (A Filter's second output holds the items it discarded.)
 */
export function nodeOutput(execution: Execution, node: string, output = 0): Array<Record<string, unknown>> | undefined {
	const runs = execution.data?.resultData?.runData?.[node];
	return runs?.flatMap((run) => (run.data?.main?.[output] ?? []).map((item) => item.json));
}
