import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { EVENT_OPTIONS } from '../shared/events';
import { deliveryItem, fetchRecord, providedSecret, resourceTypeOf, secretMatches } from './delivery';
import type { Notification } from './delivery';
import { hookIsCurrent, registerHook, registrationOf, unregisterHook } from './hookRegistration';

export class AgencyCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM Trigger',
		name: 'agencyCrmTrigger',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when a contact or a property is created or updated in Agency CRM',
		defaults: { name: 'Agency CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description: 'The changes that start the workflow. Agency CRM forbids polling, so it notifies n8n.',
				options: EVENT_OPTIONS,
			},
			{
				displayName: 'Fetch Full Record',
				name: 'fetchFullRecord',
				type: 'boolean',
				default: true,
				description:
					'Whether to fetch the customer or product named by the notification and output it under "record" (the notification itself only carries the ID)',
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await hookIsCurrent(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await registerHook(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unregisterHook(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const response = this.getResponseObject();
		if (!secretMatches(registrationOf(this).secret, providedSecret(this))) {
			response.status(401).json({ error: 'Missing or wrong webhook secret' });
			return { noWebhookResponse: true };
		}
		// Acknowledge before any further work: the API wants 200 within 10 seconds.
		response.status(200).json({ received: true });
		const notification = this.getBodyData() as Notification;
		const events = this.getNodeParameter('events') as string[];
		if (!events.includes(String(notification.event_type)) || !resourceTypeOf(notification)) {
			return { noWebhookResponse: true };
		}
		const item = deliveryItem(notification, new Date().toISOString());
		if (this.getNodeParameter('fetchFullRecord', true) as boolean) {
			item.record = await fetchRecord(this, notification);
		}
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	}
}
