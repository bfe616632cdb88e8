import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CollectionName } from '../catalogue/form';
import { placeOf, versionOf } from '../catalogue/form';
import type { Endpoint, FieldSpec } from '../catalogue/types';

/**
 * Reads one item's inputs of an operation where the form of the node's version puts them
 * (catalogue/form.ts): a parameter of its own, with its default, or an option of a collection,
 * undefined when it was not added. Each collection is read once.
 */
export function parameterReader(context: IExecuteFunctions, endpoint: Endpoint, itemIndex: number) {
	const version = versionOf(context.getNode().typeVersion);
	const collections = new Map<CollectionName, IDataObject>();
	const collection = (name: CollectionName) => {
		if (!collections.has(name)) collections.set(name, context.getNodeParameter(name, itemIndex, {}) as IDataObject);
		return collections.get(name)!;
	};
	return (field: FieldSpec): unknown => {
		const place = placeOf(endpoint, version, field);
		if (place !== 'top') return collection(place)[field.property.name];
		return context.getNodeParameter(field.property.name, itemIndex, field.property.default, { extractValue: true });
	};
}
