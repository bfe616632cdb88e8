import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { CollectionName, NodeVersion } from './form';
import { NODE_VERSIONS, formOf } from './form';
import type { Resource } from './index';
import { blocks } from './rules';
import type { Endpoint, FieldSpec } from './types';

/**
 * The node's parameters, generated from the catalogue: the Resource list, each resource's
 * Operation list, and each operation's form (catalogue/form.ts) in every node version, each
 * version's parameters shown only for that version (`@version`).
 */

const COLLECTIONS: Record<CollectionName, { displayName: string; placeholder: string }> = {
	filters: { displayName: 'Filters', placeholder: 'Add Filter' },
	options: { displayName: 'Options', placeholder: 'Add Option' },
	additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
};

/**
 * Whether n8n should ask for the field before running: path values, and what the spec requires. The
 * node's own options (Limit) have defaults and say it themselves.
 */
export function isRequiredParameter(field: FieldSpec): boolean {
	if (field.in === 'node') return false;
	return field.in === 'path' || (field.required !== undefined && blocks(field.required));
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

/** An operation that changes nothing: a GET, or a search whose filters travel in a POST body. */
export const isRead = (endpoint: Endpoint): boolean => endpoint.method === 'GET' || endpoint.pagination !== undefined;

/**
 * The operation a resource opens on in a node of this version. Version 1 keeps 0.1.0's, the first
 * of the catalogue (saved workflows leave defaults out). Version 2 opens on a read, the list where
 * there is one: a node added to a workflow, or to an AI Agent as a tool, writes nothing until its
 * user chooses an operation that does.
 */
function defaultOperation(endpoints: readonly Endpoint[], version: NodeVersion): string {
	const read = endpoints.find((endpoint) => endpoint.pagination) ?? endpoints.find(isRead);
	return (version > 1 && read ? read : endpoints[0]).operation.value;
}

/** The per-resource Operation selectors, one per version where the versions open on different operations. */
export function operationProperties(endpoints: readonly Endpoint[]): INodeProperties[] {
	const resources = [...new Set(endpoints.map((endpoint) => endpoint.resource))];
	return resources.flatMap((resource) => {
		const ofResource = endpoints.filter((endpoint) => endpoint.resource === resource);
		const selector = (show: IDisplayOptions['show'], defaultValue: string): INodeProperties => ({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource], ...show } },
			options: ofResource.map((endpoint) => endpoint.operation).sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultValue,
		});
		const defaults = NODE_VERSIONS.map((version) => defaultOperation(ofResource, version));
		if (new Set(defaults).size === 1) return [selector({}, defaults[0])];
		return NODE_VERSIONS.map((version, index) => selector({ '@version': [version] }, defaults[index]));
	});
}

/** The notice above the keys an operation finds an existing record by (catalogue/types.ts `match`). */
function matchNotice(notice: string): INodeProperties {
	return { displayName: notice, name: 'matchNotice', type: 'notice', default: '' };
}

/** One operation's parameters in one version: its form's top-level inputs, then one property per collection. */
function operationForm(endpoint: Endpoint, version: NodeVersion): INodeProperties[] {
	const show: IDisplayOptions['show'] = {
		resource: [endpoint.resource],
		operation: [endpoint.operation.value],
		'@version': [version],
	};
	// A property's own conditions (Limit: when Return All is off) are kept, for this operation only.
	const shown = (property: INodeProperties): INodeProperties => ({
		...property,
		displayOptions: { show: { ...show, ...property.displayOptions?.show } },
	});
	const properties: INodeProperties[] = [];
	if (version > 1 && endpoint.match) properties.push(shown(matchNotice(endpoint.match.notice)));
	const collections = new Map<CollectionName, INodeProperties[]>();
	for (const { field, place } of formOf(endpoint, version)) {
		if (place === 'top') {
			properties.push(shown({ ...field.property, ...(isRequiredParameter(field) ? { required: true } : {}) }));
		} else {
			collections.set(place, [...(collections.get(place) ?? []), field.property]);
		}
	}
	for (const [name, options] of collections) {
		properties.push(
			shown({ ...COLLECTIONS[name], name, type: 'collection', default: {}, options: [...options].sort(byDisplayName) }),
		);
	}
	return properties;
}

/** Every parameter of every operation, in every version of the node. */
export function fieldProperties(endpoints: readonly Endpoint[]): INodeProperties[] {
	return NODE_VERSIONS.flatMap((version) => endpoints.flatMap((endpoint) => operationForm(endpoint, version)));
}

/**
 * The canvas subtitle: what the node does, in the words of the nodes panel ("Create or update a
 * contact"), looked up by resource and operation (n8n shows the raw values otherwise).
 */
export function operationSubtitle(endpoints: readonly Endpoint[]): string {
	const actions = Object.fromEntries(
		endpoints.map((endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint.operation.action]),
	);
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}
