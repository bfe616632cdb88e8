import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { route } from './actions/router';
import { ENDPOINTS, RESOURCES } from './catalogue';
import { fieldProperties, operationProperties, operationSubtitle, resourceProperty } from './catalogue/describe';
import { LATEST_VERSION, NODE_VERSIONS } from './catalogue/form';
import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';

/**
 * Version 2 keeps data apart from settings and puts the keys a record is matched by first
 * (catalogue/form.ts); workflows saved with version 1 keep its parameters and run unchanged.
 */
export class AgencyCrm implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM',
		name: 'agencyCrm',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['transform'],
		version: [...NODE_VERSIONS],
		defaultVersion: LATEST_VERSION,
		subtitle: operationSubtitle(ENDPOINTS),
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
