import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { route } from './actions/router';
import { ENDPOINTS } from './catalogue';
import { fieldProperties, operationProperties } from './catalogue/describe';
import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';

export class AgencyCrm implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM',
		name: 'agencyCrm',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read and write contacts, properties, leads, transactions, users and events in Agency CRM',
		defaults: { name: 'Agency CRM' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Action', value: 'action', description: 'Commercial activities logged on contacts and properties' },
					{ name: 'Agency', value: 'agency', description: 'Agencies of the site, and what this access can reach' },
					{ name: 'Calendar', value: 'calendar', description: 'Agenda events, event types and office hours' },
					{ name: 'Config List', value: 'config', description: 'Values of configuration lists' },
					{ name: 'Consent', value: 'consent', description: 'Cold-calling consent of a contact' },
					{ name: 'Criterion', value: 'criterion', description: 'Property and search criteria, categories and zones' },
					{ name: 'Customer', value: 'customer', description: 'Contacts: buyers, sellers, tenants, landlords' },
					{ name: 'Follow-Up', value: 'followUp', description: 'Links between a contact and a property' },
					{ name: 'Lead', value: 'lead', description: 'Seller and buyer leads from websites and portals' },
					{ name: 'Mandate', value: 'mandate', description: 'The mandate register' },
					{ name: 'Product', value: 'product', description: 'Property listings, their pictures, lots and labels' },
					{ name: 'Search Request', value: 'searchRequest', description: 'What a buyer is looking for' },
					{ name: 'Transaction', value: 'transaction', description: 'Sale agreements, offers and leases' },
					{ name: 'User', value: 'user', description: 'Agents and collaborators' },
					{ name: 'Webhook', value: 'webhook', description: 'Subscriptions to customer and product events' },
				],
				default: 'customer',
			},
			...operationProperties(ENDPOINTS),
			...fieldProperties(ENDPOINTS),
		],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
