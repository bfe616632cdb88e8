import type { IWebhookFunctions } from 'n8n-workflow';

import type { ReplayTarget } from './catchUp';
import { catchUp, workflowName } from './catchUp';
import { progressOf } from './catchUpProgress';
import { PROCESS_STARTED_AT, scopeMemory, scopeName } from './processMemory';

/**
 * A catch-up owed since before this process started is resumed at its first delivery. n8n 1.x calls
 * the trigger at its start (an activation: activation.ts replays what is owed), but n8n 2.x, which
 * keeps its webhooks registered across restarts, calls nothing: a catch-up interrupted by n8n
 * stopping would wait for the next activation. Only a window opened before the process started is
 * resumed (one opened since is its activation's, under way), once per process.
 */
export function resumeOwedCatchUp(context: IWebhookFunctions, target: ReplayTarget): void {
	const window = progressOf(context.getWorkflowStaticData('node')).pending;
	if (!window || window.openedAt >= PROCESS_STARTED_AT) return;
	const scope = scopeMemory(scopeName(context));
	if (scope.resumedWindow === window.openedAt) return;
	scope.resumedWindow = window.openedAt;
	void catchUp(context, target, window, true).catch((error: Error) =>
		context.logger.error(
			`Agency CRM Trigger: the catch-up of ${workflowName(context)} failed: ${error.message}. It stays owed: the next activation replays it.`,
		),
	);
}
