import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { Resource } from './index';
import { concurrencyOption, itemOptionsOf } from './nodeOptions';
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

/**
 * 0.1.0's switch, which Output replaced. Kept, hidden, so that a workflow saved under 0.1.0 with
 * Simplify off still gets whole records: n8n drops the stored parameters a node no longer describes.
 */
const legacySimplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'hidden',
	default: true,
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

function byDisplayName(a: INodeProperties, b: INodeProperties) {
	return a.displayName.localeCompare(b.displayName);
}

/** The Resource selector, its options in the catalogue's order (alphabetical, as n8n lists options). */
export function resourceProperty(resources: readonly Resource[], defaultResource: string): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map(({ name, value, description }) => ({ name, value, description })),
		default: defaultResource,
	};
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
		const options = itemOptionsOf(endpoint);
		if (options.limit) {
			properties.push(shown(returnAll), shown(options.limit.property, { ...displayOptions.show, returnAll: [false] }));
		}
		if (endpoint.outputKeys) {
			properties.push(
				shown(output),
				shown(legacySimplify),
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
		const extras = [options.pageSize, options.paginationMode, options.extraQuery, options.extraBody, concurrencyOption];
		add(extrasGroupOf(endpoint), ...extras.flatMap((option) => (option ? [option.property] : [])));
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
