import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { triggerEventsField } from '../AgencyCrm/catalogue/resources/webhook';
import { eventsSubtitle } from '../shared/events';
import { CUSTOMER_INCLUDES, PRODUCT_FETCHES, relationOptions } from '../shared/relations';
import {
	CHANGE_RELATIONS,
	deliveryItem,
	fetchRecord,
	isIdentified,
	nameList,
	normalisedEventType,
	notificationOf,
	providedSecret,
	secretMatches,
	subjectOf,
} from './delivery';
import {
	forgetDeliveries,
	forgetRecords,
	isRepeatedDelivery,
	isUnchangedRecord,
	recordFingerprint,
} from './deliveryMemory';
import { expectedSecretDigest, registerHook, registrationOf, unregisterHook } from './hookRegistration';

/** What a repeated save of a record changes anyway (docs/assumptions.md: records carry updated_at). */
const DEFAULT_IGNORED_FIELDS = 'updated_at';

/** Answered, and no workflow started. */
const START_NOTHING: IWebhookResponseData = { noWebhookResponse: true };

export class AgencyCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM Trigger',
		name: 'agencyCrmTrigger',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['trigger'],
		// 1.1 is 1 with nothing changed but how n8n treats it: n8n evaluates a legacy expression of its
		// own Webhook node 1 (`$parameter.options.binaryData`) for every delivery to a trigger of version
		// 1, which costs each delivery an expression isolate (issue 19). Workflows made before keep 1.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: eventsSubtitle(),
		description: 'Starts the workflow when a contact or a property is created or updated in Agency CRM',
		defaults: { name: 'Agency CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			triggerEventsField.property,
			{
				displayName: 'Fetch Full Record',
				name: 'fetchFullRecord',
				type: 'boolean',
				default: true,
				description:
					'Whether to fetch the contact or property named by the notification and output it under "record" (the notification itself only carries the ID)',
			},
			{
				displayName: 'Contact Related Data',
				name: 'customerInclude',
				type: 'multiOptions',
				options: relationOptions(CUSTOMER_INCLUDES),
				default: [],
				displayOptions: { show: { fetchFullRecord: [true] } },
				description:
					'Related data to load with a contact (the API\'s "include"). Suggestions: an expression may give any other value.',
			},
			{
				displayName: 'Property Related Data',
				name: 'productFetch',
				type: 'multiOptions',
				options: PRODUCT_FETCHES,
				default: [],
				displayOptions: { show: { fetchFullRecord: [true] } },
				description:
					'Related data to load with a property (the API\'s "fetch"), e.g. criteria, pictures and lots. Suggestions: an expression may give any other value.',
			},
			{
				displayName: 'Skip Unchanged Records',
				name: 'skipUnchangedRecords',
				type: 'boolean',
				default: false,
				displayOptions: { show: { fetchFullRecord: [true] } },
				description:
					'Whether to start nothing when the record is the same as the last one seen for its ID, apart from the fields to ignore. Compared: every field of the contact and its address, or of the property and its criteria, pictures and lots (fetched for it, and output). Stops a workflow that writes to the record that started it from starting itself again.',
			},
			{
				displayName: 'Fields to Ignore',
				name: 'ignoredFields',
				type: 'string',
				default: DEFAULT_IGNORED_FIELDS,
				placeholder: 'e.g. updated_at, views',
				displayOptions: { show: { fetchFullRecord: [true], skipUnchangedRecords: [true] } },
				description:
					'Comma-separated field names whose change alone does not start the workflow, wherever they appear in the record and its related data',
			},
			{
				displayName: 'Drop Repeated Deliveries',
				name: 'dropRepeatedDeliveries',
				type: 'boolean',
				default: false,
				description:
					'Whether to start nothing for a delivery whose delivery ID was already received (the last 1,000 are remembered)',
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// The spec shows no way to tell a suspended hook from an active one, so every activation
				// goes through create, whose PUT reactivates a suspended hook (spec section 3).
				return false;
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
		if (!secretMatches(expectedSecretDigest(registrationOf(this)), providedSecret(this))) {
			response.status(401).json({ error: 'Missing or wrong webhook secret' });
			return START_NOTHING;
		}
		const notification = notificationOf(this.getBodyData());
		if (notification === undefined) {
			response.status(400).json({ error: 'The body is not a JSON notification' });
			return START_NOTHING;
		}
		// Acknowledge before any further work: the API wants 200 within 10 seconds.
		response.status(200).json({ received: true });
		const subject = subjectOf(notification);
		const events = (this.getNodeParameter('events') as string[]).map(normalisedEventType);
		// The hook only carries the chosen events; an unknown or missing type is let through.
		if (subject.eventType !== undefined && !events.includes(subject.eventType)) return START_NOTHING;

		const item = deliveryItem(notification, subject, new Date().toISOString());
		const memory = this.getWorkflowStaticData('node');
		if (!(this.getNodeParameter('dropRepeatedDeliveries', false) as boolean)) forgetDeliveries(memory);
		else if (typeof item.delivery_id === 'string' && isRepeatedDelivery(memory, item.delivery_id)) {
			return START_NOTHING;
		}

		const fetchFull = this.getNodeParameter('fetchFullRecord', true) as boolean;
		const skipUnchanged = fetchFull && (this.getNodeParameter('skipUnchangedRecords', false) as boolean);
		if (!skipUnchanged) forgetRecords(memory);
		if (fetchFull && isIdentified(subject)) {
			const relationsParameter = subject.resourceType === 'customer' ? 'customerInclude' : 'productFetch';
			const chosen = nameList(this.getNodeParameter(relationsParameter, []));
			const compared = skipUnchanged ? CHANGE_RELATIONS[subject.resourceType] : [];
			const record = await fetchRecord(this, subject, nameList([...chosen, ...compared]));
			item.record = record;
			if (skipUnchanged) {
				const fingerprint = recordFingerprint(
					record,
					nameList(this.getNodeParameter('ignoredFields', DEFAULT_IGNORED_FIELDS)),
				);
				const key = `${subject.resourceType}:${String(subject.resourceId)}`;
				if (isUnchangedRecord(memory, key, fingerprint)) return START_NOTHING;
			}
		}
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	}
}
