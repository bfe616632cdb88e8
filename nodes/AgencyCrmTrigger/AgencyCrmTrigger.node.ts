import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ANSWER } from '../shared/answer';
import { eventsSubtitle } from '../shared/events';
import { afterActivation } from './activation';
import { ANSWERING_WEBHOOK, registerHook, unregisterHook } from './hookRegistration';
import { TRIGGER_PROPERTIES } from './parameters';
import { forgetInThisProcess } from './memory';
import { receiveDelivery } from './receive';
import { assertUsable, readSettings } from './settings';

export class AgencyCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM Trigger',
		name: 'agencyCrmTrigger',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['trigger'],
		// 1.1 is 1 with nothing changed but how n8n treats it: n8n evaluates a legacy expression of its
		// own Webhook node 1 (`$parameter.options.binaryData`) for every delivery to a trigger of version
		// 1, which costs each delivery an expression isolate (issue 19). 2 starts with Drop Repeated
		// Deliveries and the catch-up on, which production's retries and suspensions need (issue 28).
		// Workflows made before keep their version and its defaults.
		version: [1, 1.1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle(),
		// n8n's nodes panel shows the trigger's description for the app's one entry (action node and trigger).
		description:
			'Start a workflow when a contact or a property is created, updated or deleted in Agency CRM, and read or write its contacts, properties, leads, transactions, users and events',
		defaults: { name: 'Agency CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		// The editor shows the one URL Agency CRM delivers to, by the Answer parameter.
		webhooks: [
			// Production's deliveries are answered by the trigger at once (receive.ts); the replays it sends
			// itself, by n8n once it has stored the execution, with the body the trigger returns (an empty
			// responseData lets n8n read it).
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
				ndvHideUrl: `={{ $parameter["answer"] === "${ANSWER.fromWorkflow}" }}`,
			},
			// "Answer: From the Workflow": the workflow's Agency CRM Answer node answers. A fixed mode
			// rather than an expression, which n8n would evaluate (an isolate) for every delivery.
			{
				name: ANSWERING_WEBHOOK,
				httpMethod: 'POST',
				responseMode: 'responseNode',
				path: 'answer',
				ndvHideUrl: `={{ $parameter["answer"] !== "${ANSWER.fromWorkflow}" }}`,
			},
		],
		properties: TRIGGER_PROPERTIES,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// Production shows no way to tell a suspended hook from an active one, so every activation
				// goes through create: its PUT reactivates a suspended hook, and it replays what was missed.
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const settings = readSettings(this);
				assertUsable(this.getNode(), settings);
				await afterActivation(this, await registerHook(this, settings), settings);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// What this process kept of the workflow is of no use once it is deactivated (or removed).
				forgetInThisProcess(this);
				return await unregisterHook(this, readSettings(this));
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
