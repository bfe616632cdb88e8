import type { ExampleWorkflow } from '../../../tools/n8n/examples';
import type { N8nInstance } from '../../../tools/n8n/launcher';
import { NODE_TYPES } from '../../../tools/n8n/launcher';
import { admin } from '../sandbox/admin';
import { waitFor } from '../waitFor';
import type { Execution, PublicApi } from './executions';
import { executionsOf, finished } from './executions';

/** Workflows started by the Agency CRM Trigger in real n8n, as the sandbox and n8n see them. */

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL n8n registered the workflow's trigger with. */
export function webhookUrlOf(instance: N8nInstance, workflow: ExampleWorkflow): string {
	const trigger = workflow.nodes.find((node) => node.type === NODE_TYPES.trigger) as { webhookId?: string };
	return `http://127.0.0.1:${instance.port}/webhook/${trigger.webhookId}/webhook`;
}

/**
 * Waits until the workflow's webhook is registered with the sandbox, then a second more: n8n 1.x
 * saves the hook's secret with the workflow a moment after the registration, and refuses a delivery
 * before that. With `present` false, waits until the hook is gone.
 */
export async function hookSettles(origin: string, instance: N8nInstance, workflow: ExampleWorkflow, present = true) {
	const url = webhookUrlOf(instance, workflow);
	await waitFor(`the hook of ${workflow.id}`, async () => {
		const { data } = await admin<{ data: Array<{ url: string; status: string }> }>(origin, 'GET', '/hooks');
		const registered = data.some((hook) => hook.url === url && hook.status === 'active');
		return registered === present ? true : undefined;
	});
	if (present) await pause(1000);
}

/**
 * Waits for the workflow's `count`th execution to finish, and returns it; when it does not come,
 * says what the sandbox's last deliveries to the workflow were answered.
 */
export async function finishedExecution(
	api: PublicApi,
	origin: string,
	instance: N8nInstance,
	workflow: ExampleWorkflow,
	count: number,
): Promise<Execution> {
	try {
		return await waitFor(
			`execution ${count} of ${workflow.id}`,
			async () => {
				const all = await executionsOf(api, workflow.id);
				return all.length >= count && all.every(finished) ? all[0] : undefined;
			},
			30_000,
		);
	} catch (error) {
		const { data } = await admin<{ data: Array<{ url: string; status: number | null; error?: string }> }>(
			origin,
			'GET',
			'/deliveries?limit=200',
		);
		const answers = data.filter((delivery) => delivery.url === webhookUrlOf(instance, workflow)).slice(-3);
		throw new Error(`${(error as Error).message}; its last deliveries: ${JSON.stringify(answers)}`);
	}
}
