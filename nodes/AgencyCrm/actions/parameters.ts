import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findEndpoint } from '../catalogue';
import type { CollectionName, NodeVersion } from '../catalogue/form';
import { placeOf, versionOf } from '../catalogue/form';
import type { Endpoint, FieldSpec } from '../catalogue/types';

/**
 * Reads one item's inputs of an operation where the form of the node's version puts them
 * (catalogue/form.ts): a parameter of its own, with its default, or an option of a collection,
 * undefined when it was not added. Each collection is read once. n8n's own checks are skipped (the
 * catalogue validates every input), and so is its resource locator extraction (the converters take
 * `{__rl, mode, value}` apart): both would search the node's whole description for every read.
 */
export function parameterReader(context: IExecuteFunctions, endpoint: Endpoint, itemIndex: number) {
	return parameterReaderOf(context, endpoint, versionOf(context.getNode().typeVersion), itemIndex);
}

/** The same, for a node version already known (an item's plan reads its whole form through it). */
export function parameterReaderOf(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	version: NodeVersion,
	itemIndex: number,
) {
	const parameter = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback, { skipValidation: true });
	const collections = new Map<CollectionName, IDataObject>();
	const collection = (name: CollectionName) => {
		if (!collections.has(name)) collections.set(name, parameter(name, {}) as IDataObject);
		return collections.get(name)!;
	};
	return (field: FieldSpec): unknown => {
		const place = placeOf(endpoint, version, field);
		if (place !== 'top') return collection(place)[field.property.name];
		return parameter(field.property.name, field.property.default);
	};
}

/**
 * The item's operation. In n8n it is the same for every item (Resource and Operation take no
 * expressions); one the catalogue does not have (a workflow saved by a later version) fails the item.
 */
export function endpointOfItem(context: IExecuteFunctions, itemIndex: number): Endpoint {
	const resource = context.getNodeParameter('resource', itemIndex) as string;
	const operation = context.getNodeParameter('operation', itemIndex) as string;
	const endpoint = findEndpoint(resource, operation);
	if (endpoint) return endpoint;
	throw new NodeOperationError(context.getNode(), `Unknown operation "${operation}" for resource "${resource}"`, {
		itemIndex,
	});
}
