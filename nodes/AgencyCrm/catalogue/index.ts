import { agencyEndpoints } from './resources/agency';
import { customerEndpoints } from './resources/customer';
import type { Endpoint } from './types';

/** Every endpoint of the spec, in the order the Resource list shows them. */
export const ENDPOINTS: readonly Endpoint[] = [...agencyEndpoints, ...customerEndpoints];

const byKey = new Map(ENDPOINTS.map((endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint]));

export function findEndpoint(resource: string, operation: string): Endpoint | undefined {
	return byKey.get(`${resource}:${operation}`);
}
