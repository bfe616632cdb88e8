import type { IHookFunctions } from 'n8n-workflow';

import type { Registered } from './hookRegistration';
import { journalWriter, replayingSinceStart } from './memory';
import { PROCESS_STARTED_AT } from './memory/scope';
import { activated, forgetSeen, owedDue, progressOf, writeProgress, writeSeen } from './memory/store';
import { replay, workflowName } from './replay/catchUp';
import type { TriggerSettings } from './settings';

/** Why n8n activates, in the log's words (n8n's activation modes). */
const ACTIVATED_BECAUSE: Record<string, string> = {
	activate: 'the workflow was activated',
	update: 'the workflow was published or updated',
	init: 'n8n started',
	leadershipChange: 'this n8n instance became the leader',
};

/**
 * The memory as the options now need it: both off, it is forgotten (workflows will run on records
 * it does not see); Skip Unchanged Records off, its fingerprints are, so that the option turned on
 * again compares with nothing older. Options change only with a new activation.
 */
function keepMemoryFor(context: IHookFunctions, settings: TriggerSettings): void {
	const staticData = context.getWorkflowStaticData('node');
	if (!settings.dropRepeats && !settings.skipUnchanged) forgetSeen(staticData);
	else if (!settings.skipUnchanged) writeSeen(staticData, new Map(), false);
}

/**
 * What follows an activation (the editor's, an update, n8n 1.x's start, a leader change): the log
 * says what was registered; the watermark is kept, and what changed since it, whether the hook
 * existed, was suspended (production does not say) or is new, is replayed in the background once
 * n8n serves the webhook. The progress waiting for that replay is written with the activation.
 */
export async function afterActivation(
	context: IHookFunctions,
	registered: Registered,
	settings: TriggerSettings,
): Promise<void> {
	const workflow = workflowName(context);
	context.logger.info(
		`Agency CRM Trigger: ${registered.existed ? 'updated' : 'registered'} webhook ${registered.hookId} of ${workflow} for ${registered.events.join(', ')}, delivering to ${registered.url}${registered.existed ? ' (an update brings back a webhook Agency CRM suspended)' : ''}.`,
	);
	// "Listen for test event": nothing to replay, nothing to remember (n8n saves no test static data).
	if (context.getMode() === 'manual') return;
	keepMemoryFor(context, settings);
	const staticData = context.getWorkflowStaticData('node');
	const { progress, window, dropped } = activated(progressOf(staticData), {
		now: Date.now(),
		enabled: settings.catchUp,
	});
	writeProgress(staticData, progress);
	replayingSinceStart(context);
	if (dropped.length) {
		context.logger.warn(
			`Agency CRM Trigger: ${dropped.length} change(s) of ${workflow} whose record could not be read are not replayed ("Catch Up on Missed Changes" is off).`,
		);
	}
	const owed = owedDue(progress, PROCESS_STARTED_AT, Date.now());
	if (!window && !owed.length) return;
	const why = ACTIVATED_BECAUSE[context.getActivationMode()] ?? 'the workflow was activated';
	const url = context.getNodeWebhookUrl('default') as string;
	const target = { url, secret: registered.secret, events: settings.events };
	const write = journalWriter(context, url, registered.secret);
	void replay(context, target, { window, owed, why, delayMs: 2000, write }).catch((error: Error) =>
		context.logger.error(
			`Agency CRM Trigger: the replay of ${workflow} failed: ${error.message}. It stays owed: the next activation replays it.`,
		),
	);
}
