import { prepareRequest } from '../../../nodes/AgencyCrm/actions/prepareRequest';
import { findEndpoint } from '../../../nodes/AgencyCrm/catalogue';
import { optionalGroupOf } from '../../../nodes/AgencyCrm/catalogue/form';
import type { Endpoint, FieldSpec } from '../../../nodes/AgencyCrm/catalogue/types';
import type { Binary } from '../fakeN8n';
import { inProcessContext } from '../inprocess/context';
import { ENDPOINT_CASES, PLACEHOLDER_IDS } from './index';
import { resolve } from './types';

/** Node parameters of one item, as the editor stores them. */
export type Parameters = Record<string, unknown>;

export interface Baseline {
	endpoint: Endpoint;
	parameters: Parameters;
	binary?: Record<string, Binary>;
}

/** The item of the first in-process case of an operation: what a user would set, with nothing wrong. */
export function baselineOf(resource: string, operation: string): Baseline | undefined {
	const endpoint = findEndpoint(resource, operation);
	const found = ENDPOINT_CASES.find((testCase) => {
		const parameters = resolve(testCase.parameters, PLACEHOLDER_IDS);
		return parameters.resource === resource && parameters.operation === operation;
	});
	return (
		endpoint && found && { endpoint, parameters: resolve(found.parameters, PLACEHOLDER_IDS), binary: found.binary }
	);
}

/** The parameters with one field set where the editor puts it: its own parameter, or in the collection. */
export function withField(endpoint: Endpoint, parameters: Parameters, field: FieldSpec, value: unknown): Parameters {
	const name = field.property.name;
	if (field.placement === 'top') return { ...parameters, [name]: value };
	return inCollection(parameters, optionalGroupOf(endpoint), { [name]: value });
}

/** The parameters with options added to one collection (Additional Fields, Filters, Options). */
export function inCollection(parameters: Parameters, collection: string, options: Parameters): Parameters {
	return { ...parameters, [collection]: { ...(parameters[collection] as Parameters | undefined), ...options } };
}

/** `resource:operation`, as the tables name an operation. */
export const operationKey = (endpoint: Endpoint) => `${endpoint.resource}:${endpoint.operation.value}`;

/** prepareRequest for one item, with no request sent. */
export async function prepareItem(endpoint: Endpoint, parameters: Parameters, binary?: Record<string, Binary>) {
	const { context } = inProcessContext({}, [parameters], binary ? [binary] : []);
	return await prepareRequest(context, endpoint, 0);
}
