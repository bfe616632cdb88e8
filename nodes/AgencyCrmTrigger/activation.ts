import type { IHookFunctions } from 'n8n-workflow';

import { catchUp, workflowName } from './catchUp';
import { activated, progressOf, writeProgress } from './catchUpProgress';
import type { CatchUpReason } from './catchUpProgress';
import type { Registered } from './hookRegistration';
import { forgetSeen, writeSeen } from './memoryStore';
import { newestContactId } from './missedChanges';
import type { TriggerSettings } from './settings';

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
 * What follows an activation (or n8n's start): the log says when the hook was found suspended; the
 * progress takes the activation (catchUpProgress.ts), written with it; the window owed, if any, is
 * replayed in the background (n8n must first serve the webhook).
 */
export async function afterActivation(
	context: IHookFunctions,
	registered: Registered,
	settings: TriggerSettings,
): Promise<void> {
	// "Listen for test event": nothing to catch up, nothing to remember (n8n saves no test static data).
	if (context.getMode() === 'manual') return;
	const workflow = workflowName(context);
	if (registered.wasSuspended) {
		context.logger.warn(
			`Agency CRM Trigger: webhook ${registered.hookId} of ${workflow} was suspended by Agency CRM (its deliveries had failed); this activation reactivated it.`,
		);
	}
	keepMemoryFor(context, settings);
	const staticData = context.getWorkflowStaticData('node');
	const progress = progressOf(staticData);
	const restarted = ['init', 'leadershipChange'].includes(context.getActivationMode());
	const reason: CatchUpReason | undefined = registered.wasSuspended ? 'suspended' : restarted ? 'restarted' : undefined;
	const fresh = !registered.existed || progress.deliveredAt === undefined;
	const newest =
		settings.catchUp && fresh && settings.events.includes('CUSTOMER_CREATE')
			? await newestContactId(context).catch(() => undefined)
			: undefined;
	const activation = { now: Date.now(), existed: registered.existed, reason, enabled: settings.catchUp };
	const {
		progress: next,
		replay,
		dropped,
	} = activated(progress, {
		...activation,
		events: settings.events,
		newestContactId: newest,
	});
	writeProgress(staticData, next);
	if (!settings.catchUp && (registered.wasSuspended || dropped)) {
		context.logger.warn(
			`Agency CRM Trigger: the changes made while ${workflow} could not take deliveries were not delivered, and are not replayed ("Catch Up on Missed Changes" is off).`,
		);
	}
	if (!replay) return;
	void catchUp(context, registered, replay).catch((error: Error) =>
		context.logger.error(
			`Agency CRM Trigger: the catch-up of ${workflow} failed: ${error.message}. It stays owed: the next activation or n8n start replays it.`,
		),
	);
}
