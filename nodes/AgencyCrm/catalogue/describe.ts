import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { maxPageSizeOf } from './fields';
import { blocks } from './rules';
import type { Endpoint, FieldSpec, OutputKeys } from './types';

/**
 * The node's parameters, generated from the catalogue: per operation, its top-level fields, Return
 * All / Limit, Output, and one collection of optional fields (named the way n8n users know), which
 * also holds the node-behaviour options: extra query parameters and extra body fields as JSON, and
 * the concurrency.
 */

type CollectionName = 'filters' | 'options' | 'additionalFields';

/** The collection an operation's optional fields are offered in. */
export function optionalGroupOf(endpoint: Endpoint): CollectionName {
	if (endpoint.pagination) return 'filters';
	if (endpoint.method === 'GET') return 'options';
	return 'additionalFields';
}

/** Whether the endpoint sends a body, so that extra body fields make sense. */
export function takesBody(endpoint: Endpoint): boolean {
	return endpoint.method !== 'GET' && (endpoint.method !== 'DELETE' || endpoint.fields.some(isBodyField));
}

const isBodyField = (field: FieldSpec) => field.in === 'body' || field.in === 'file';

/** Where the escape hatches, the concurrency and the paging options go: a list's Filters are for filtering. */
export function extrasGroupOf(endpoint: Endpoint): CollectionName {
	return endpoint.pagination ? 'options' : optionalGroupOf(endpoint);
}

const COLLECTIONS: Record<CollectionName, { displayName: string; placeholder: string }> = {
	filters: { displayName: 'Filters', placeholder: 'Add Filter' },
	options: { displayName: 'Options', placeholder: 'Add Option' },
	additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
};

function showFor(endpoint: Endpoint) {
	return { show: { resource: [endpoint.resource], operation: [endpoint.operation.value] } };
}

/** Whether n8n should ask for the field before running: path values, and what the spec requires. */
export function isRequiredParameter(field: FieldSpec): boolean {
	return field.in === 'path' || (field.required !== undefined && blocks(field.required));
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

function pageSize(endpoint: Endpoint): INodeProperties {
	const largest = endpoint.maxPageSize?.size;
	const largestOrGuess = maxPageSizeOf(endpoint).size;
	return {
		displayName: 'Page Size',
		name: 'perPage',
		type: 'number',
		typeOptions: largest ? { minValue: 1, maxValue: largest } : { minValue: 1 },
		default: largestOrGuess,
		description: largest
			? `How many records each request asks for (the API allows at most ${largest}). Fewer, larger pages are faster.`
			: 'How many records each request asks for. Fewer, larger pages are faster; lower it if the API refuses the size.',
	};
}

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

/**
 * n8n's UX guidelines for records of more than 10 fields used by AI agents: Simplified (at most 10
 * fields), Raw, or the fields chosen, so that a tool hands the model only what it needs.
 */
const output: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'Simplified',
			value: 'simple',
			description: 'At most 10 main fields of each record, plus the related data asked for',
		},
		{ name: 'Raw', value: 'raw', description: 'Every field the API returns' },
		{
			name: 'Selected Fields',
			value: 'fields',
			description: 'Only the fields you choose, plus the record ID and the related data asked for',
		},
	],
	default: 'simple',
	description: 'How much of each record to output. Keep it small when an AI agent reads it.',
};

function selectedFields(keys: OutputKeys): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		options: [...keys.fields].sort().map((key) => ({ name: key, value: key })),
		default: [],
		description: `The fields to output; ${keys.id} always comes out. An expression may name other fields, comma-separated.`,
	};
}

export const EXTRA_QUERY = 'extraQueryJson';
export const EXTRA_BODY = 'extraBodyJson';

const extraQueryJson: INodeProperties = {
	displayName: 'Extra Query Parameters (JSON)',
	name: EXTRA_QUERY,
	type: 'json',
	default: '{}',
	description:
		'Query parameters the node has no input for, sent as they are, e.g. {"lang": "fr"}. A parameter set above wins over the same name here.',
};

const extraBodyJson: INodeProperties = {
	displayName: 'Extra Body Fields (JSON)',
	name: EXTRA_BODY,
	type: 'json',
	default: '{}',
	description:
		'Fields the node has no input for, sent as they are in the request body, e.g. {"notary": null}; null is sent as null. A field set above wins over the same key here.',
};

export const CONCURRENCY = 'concurrency';

/** Requests in flight for one node by default: measured and explained in the README ("Concurrency"). */
export const DEFAULT_CONCURRENCY = 10;

const concurrency: INodeProperties = {
	displayName: 'Concurrency',
	name: CONCURRENCY,
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many input items this node sends requests for at once, hence how many requests it keeps in flight. Output order stays the input order. Lower it if the API answers "too many requests".',
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
		const shown = (
			property: INodeProperties,
			show: IDisplayOptions['show'] = displayOptions.show,
		): INodeProperties => ({
			...property,
			displayOptions: { show },
		});
		const topLevel = endpoint.fields
			.filter((field) => field.placement === 'top')
			.map((field) => shown({ ...field.property, ...(isRequiredParameter(field) ? { required: true } : {}) }));
		const properties: INodeProperties[] = [...topLevel];
		if (endpoint.pagination) {
			properties.push(shown(returnAll), shown(limit, { ...displayOptions.show, returnAll: [false] }));
		}
		if (endpoint.outputKeys) {
			properties.push(
				shown(output),
				shown(selectedFields(endpoint.outputKeys), { ...displayOptions.show, output: ['fields'] }),
			);
		}

		const groups = new Map<CollectionName, INodeProperties[]>();
		const add = (group: CollectionName, ...options: INodeProperties[]) =>
			groups.set(group, [...(groups.get(group) ?? []), ...options]);
		add(
			optionalGroupOf(endpoint),
			...endpoint.fields.filter((field) => field.placement === 'collection').map((field) => field.property),
		);
		if (endpoint.pagination) {
			add('options', pageSize(endpoint), ...((endpoint.paginationModes?.length ?? 0) > 1 ? [paginationMode] : []));
		}
		add(extrasGroupOf(endpoint), extraQueryJson, ...(takesBody(endpoint) ? [extraBodyJson] : []), concurrency);
		for (const [group, options] of groups) {
			if (!options.length) continue;
			properties.push(
				shown({
					...COLLECTIONS[group],
					name: group,
					type: 'collection',
					default: {},
					options: [...options].sort(byDisplayName),
				}),
			);
		}
		return properties;
	});
}
