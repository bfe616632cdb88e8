import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { route } from './actions/router';
import { ENDPOINTS, RESOURCES } from './catalogue';
import { fieldProperties, operationProperties, resourceProperty } from './catalogue/describe';
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
			resourceProperty(RESOURCES, 'customer'),
			...operationProperties(ENDPOINTS),
			...fieldProperties(ENDPOINTS),
		],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
