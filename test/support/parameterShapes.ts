import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	NodeParameterValueType,
} from 'n8n-workflow';

/**
 * What a saved workflow relies on in a node's parameters, and nothing it does not: for each
 * resource and operation, every parameter by its path (`additionalFields.email`, `phones.phone.number`),
 * with its type, its default (n8n leaves defaults out of saved workflows) and the values of its
 * options. Display names and descriptions are left out: renaming them breaks no saved workflow.
 * fixtures/agencyCrm-0.1.0-parameters.json holds the shapes of the node as 0.1.0 shipped it, taken
 * once with parameterShapes(…, 1) from the release's build in fixtures/n8n-nodes-agency-crm-0.1.0.tgz
 * (package/dist/nodes/AgencyCrm/AgencyCrm.node.js), not from the code it checks.
 */

export interface ParameterShape {
	type: string;
	default: NodeParameterValueType;
	/** The values of an `options` or `multiOptions` parameter, sorted (their order is the display's). */
	values?: unknown[];
	/** Other parameters it is shown for (`returnAll: [false]`). */
	shownWhen?: Record<string, unknown>;
}

/** Parameters by path, per `resource:operation` (and `*` for those shown for every operation). */
export type ParameterShapes = Record<string, Record<string, ParameterShape>>;

type Nested = INodeProperties | INodePropertyCollection | INodePropertyOptions;

function shapeOf(property: INodeProperties): ParameterShape {
	const values = (property.options ?? []).flatMap((option) => ('value' in option ? [String(option.value)] : [])).sort();
	const { resource, operation, '@version': version, ...shownWhen } = property.displayOptions?.show ?? {};
	return {
		type: property.type,
		default: property.default,
		...(values.length ? { values } : {}),
		...(Object.keys(shownWhen).length ? { shownWhen } : {}),
	};
}

/** A parameter and what it holds, by path: a collection's options, a fixedCollection's groups and their values. */
function flatten(property: INodeProperties, path: string): Array<[string, ParameterShape]> {
	const own: [string, ParameterShape] = [path, shapeOf(property)];
	const nested = ((property.options ?? []) as Nested[]).flatMap((option): Array<[string, ParameterShape]> => {
		if ('values' in option) {
			return option.values.flatMap((value) => flatten(value, `${path}.${option.name}.${value.name}`));
		}
		return 'type' in option ? flatten(option, `${path}.${option.name}`) : [];
	});
	return [own, ...nested];
}

/** The shapes of the parameters a node of `version` has (properties without `@version` are in every version). */
export function parameterShapes(properties: INodeProperties[], version: number): ParameterShapes {
	const shapes: ParameterShapes = {};
	for (const property of properties) {
		const show = property.displayOptions?.show ?? {};
		const versions = show['@version'] as number[] | undefined;
		if (versions && !versions.includes(version)) continue;
		const resources = (show.resource as string[] | undefined) ?? ['*'];
		const operations = (show.operation as string[] | undefined) ?? ['*'];
		for (const resource of resources) {
			for (const operation of operations) {
				const key = `${resource}:${operation}`;
				shapes[key] = { ...shapes[key], ...Object.fromEntries(flatten(property, property.name)) };
			}
		}
	}
	return shapes;
}
