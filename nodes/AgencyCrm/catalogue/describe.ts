import type { INodeProperties } from 'n8n-workflow';

import type { Endpoint } from './types';

/** The collection an optional field is offered in, named the way n8n users know. */
export function optionalGroupOf(endpoint: Endpoint): 'filters' | 'options' | 'additionalFields' {
	if (endpoint.pagination) return 'filters';
	if (endpoint.method === 'GET') return 'options';
	return 'additionalFields';
}

const GROUP_LABELS = { filters: 'Filters', options: 'Options', additionalFields: 'Additional Fields' } as const;

function showFor(endpoint: Endpoint) {
	return { show: { resource: [endpoint.resource], operation: [endpoint.operation.value] } };
}

const returnAll: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
};

const pageSize: INodeProperties = {
	displayName: 'Page Size',
	name: 'perPage',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 200 },
	default: 200,
	description: 'How many records each request asks for (the API allows at most 200). Fewer, larger pages are faster.',
};

const paginationMode: INodeProperties = {
	displayName: 'Pagination Mode',
	name: 'paginationMode',
	type: 'options',
	options: [
		{ name: 'Cursor (Recommended)', value: 'cursor', description: 'Pages follow the cursor the API returns' },
		{ name: 'Offset', value: 'offset', description: 'Pages are counted by record position' },
	],
	default: 'cursor',
	description: 'How the API pages the results. Agency CRM recommends the cursor.',
};

const simplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const extraBodyJson: INodeProperties = {
	displayName: 'Extra Body Fields (JSON)',
	name: 'extraBodyJson',
	type: 'json',
	default: '{}',
	description:
		'Fields the node has no input for, sent as they are in the JSON body. Typed fields above win over the same key here. Deprecated keys (camelCase, manufacturer_ID, fees_nego…) are renamed to their current snake_case names.',
};

function byDisplayName(a: INodeProperties, b: INodeProperties) {
	return a.displayName.localeCompare(b.displayName);
}

/** The per-resource Operation selectors. */
export function operationProperties(endpoints: readonly Endpoint[]): INodeProperties[] {
	const resources = [...new Set(endpoints.map((endpoint) => endpoint.resource))];
	return resources.map((resource) => {
		const operations = endpoints
			.filter((endpoint) => endpoint.resource === resource)
			.map((endpoint) => endpoint.operation);
		const firstOperation = operations[0].value;
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: [...operations].sort((a, b) => a.name.localeCompare(b.name)),
			default: firstOperation,
		};
	});
}

/** Every parameter of every operation, generated from the catalogue entries. */
export function fieldProperties(endpoints: readonly Endpoint[]): INodeProperties[] {
	return endpoints.flatMap((endpoint) => {
		const displayOptions = showFor(endpoint);
		const topLevel = endpoint.fields.filter((field) => field.property.required).map((field) => field.property);
		const optional = endpoint.fields.filter((field) => !field.property.required).map((field) => field.property);
		if (endpoint.extraBodyJson) optional.push(extraBodyJson);

		const properties: INodeProperties[] = topLevel.map((property) => ({ ...property, displayOptions }));
		if (endpoint.pagination) {
			properties.push({ ...returnAll, displayOptions });
			properties.push({
				...limit,
				displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
			});
		}
		if (endpoint.simplify) properties.push({ ...simplify, displayOptions });
		const collection = (group: keyof typeof GROUP_LABELS, options: INodeProperties[]) => ({
			displayName: GROUP_LABELS[group],
			name: group,
			type: 'collection' as const,
			placeholder: group === 'filters' ? 'Add Filter' : group === 'options' ? 'Add Option' : 'Add Field',
			default: {},
			displayOptions,
			options: options.sort(byDisplayName),
		});
		if (optional.length) properties.push(collection(optionalGroupOf(endpoint), optional));
		// How results are paged is not a filter: paginated operations get their own Options.
		if (endpoint.pagination) {
			const paging = (endpoint.paginationModes?.length ?? 0) > 1 ? [pageSize, paginationMode] : [pageSize];
			properties.push(collection('options', paging));
		}
		return properties;
	});
}
