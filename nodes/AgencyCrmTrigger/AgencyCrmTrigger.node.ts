import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/events';
import { afterActivation } from './activation';
import { ANSWERING_WEBHOOK, registerHook, unregisterHook } from './hookRegistration';
import { TRIGGER_PROPERTIES } from './parameters';
import { releaseScope, scopeName } from './processMemory';
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
		description: 'Starts the workflow when a contact or a property is created, updated or deleted in Agency CRM',
		defaults: { name: 'Agency CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		webhooks: [
			// Answered by n8n once it has stored the execution, with the body the trigger returns (an empty
			// responseData lets n8n read it: receive.ts), or by the trigger when it starts nothing.
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' },
			// "Answer: From the Workflow": the workflow's Agency CRM Answer node answers. A fixed mode
			// rather than an expression, which n8n would evaluate (an isolate) for every delivery.
			{ name: ANSWERING_WEBHOOK, httpMethod: 'POST', responseMode: 'responseNode', path: 'answer' },
		],
		properties: TRIGGER_PROPERTIES,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// The spec shows no way to tell a suspended hook from an active one, so every activation
				// goes through create, whose PUT reactivates a suspended hook (spec section 3).
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
				releaseScope(scopeName(this));
				return await unregisterHook(this, readSettings(this));
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
