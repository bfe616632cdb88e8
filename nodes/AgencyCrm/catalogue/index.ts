import { actionEndpoints } from './resources/action';
import { agencyEndpoints } from './resources/agency';
import { calendarEndpoints } from './resources/calendar';
import { configEndpoints } from './resources/config';
import { consentEndpoints } from './resources/consent';
import { criterionEndpoints } from './resources/criterion';
import { customerEndpoints } from './resources/customer';
import { followUpEndpoints } from './resources/followUp';
import { leadEndpoints } from './resources/lead';
import { mandateEndpoints } from './resources/mandate';
import { productEndpoints } from './resources/product';
import { searchRequestEndpoints } from './resources/searchRequest';
import { transactionEndpoints } from './resources/transaction';
import { userEndpoints } from './resources/user';
import { webhookEndpoints } from './resources/webhook';
import type { Endpoint } from './types';

/** Every endpoint of the spec, in the order the Resource list shows them. */
export const ENDPOINTS: readonly Endpoint[] = [
	...actionEndpoints,
	...agencyEndpoints,
	...calendarEndpoints,
	...configEndpoints,
	...consentEndpoints,
	...criterionEndpoints,
	...customerEndpoints,
	...followUpEndpoints,
	...leadEndpoints,
	...mandateEndpoints,
	...productEndpoints,
	...searchRequestEndpoints,
	...transactionEndpoints,
	...userEndpoints,
	...webhookEndpoints,
];

const byKey = new Map(ENDPOINTS.map((endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint]));

export function findEndpoint(resource: string, operation: string): Endpoint | undefined {
	return byKey.get(`${resource}:${operation}`);
}
