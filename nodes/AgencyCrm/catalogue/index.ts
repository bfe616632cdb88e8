// calendar, product and user were single files in 0.1.0. n8n reloads an updated package in the same
// process, where Node still resolves an import it resolved before to the same path (its resolution
// cache outlives the package): './resources/calendar' would still mean calendar.js, gone since, and
// the update would fail. Naming index files keeps these imports apart from 0.1.0's
// (test/unit/updateResolution.test.ts).
import { actionEndpoints } from './resources/action';
import { agencyEndpoints } from './resources/agency';
import { calendarEndpoints } from './resources/calendar/index';
import { configEndpoints } from './resources/config';
import { consentEndpoints } from './resources/consent';
import { criterionEndpoints } from './resources/criterion';
import { customerEndpoints } from './resources/contact';
import { followUpEndpoints } from './resources/followUp';
import { leadEndpoints } from './resources/lead';
import { mandateEndpoints } from './resources/mandate';
import { productEndpoints } from './resources/product/index';
import { searchRequestEndpoints } from './resources/searchRequest';
import { transactionEndpoints } from './resources/transaction';
import { userEndpoints } from './resources/user/index';
import { webhookEndpoints } from './resources/webhook';
import type { Endpoint } from './types';

/** A resource of the node: its option in the Resource list, and its endpoints. */
export interface Resource {
	name: string;
	value: string;
	description: string;
	endpoints: readonly Endpoint[];
}

const resource = (name: string, value: string, description: string, endpoints: readonly Endpoint[]): Resource => ({
	name,
	value,
	description,
	endpoints,
});

/**
 * The Resource list, sorted by name as n8n lists options: name, value, description, endpoints. Names
 * are the users' words; where the API says otherwise, the description names the API's word once, and
 * the value (what saved workflows hold) stays the API's.
 */
export const RESOURCES: readonly Resource[] = [
	resource(
		'Activity',
		'action',
		"Calls, visits, emails and other activities logged on contacts and properties (the API's actions)",
		actionEndpoints,
	),
	resource('Agency', 'agency', 'Agencies of the site, and what this access can reach', agencyEndpoints),
	resource(
		'Calendar',
		'calendar',
		'Agenda events, availability, working hours, shared agendas and office hours',
		calendarEndpoints,
	),
	resource('Config List', 'config', 'Values of configuration lists', configEndpoints),
	resource('Consent', 'consent', 'Cold-calling consent of a contact', consentEndpoints),
	resource('Contact', 'customer', "Buyers, sellers, tenants and landlords (the API's customers)", customerEndpoints),
	resource('Criterion', 'criterion', 'Property and search criteria, categories and zones', criterionEndpoints),
	resource('Follow-Up', 'followUp', 'Links between a contact and a property', followUpEndpoints),
	resource('Lead', 'lead', 'Seller and buyer leads from websites and portals', leadEndpoints),
	resource('Mandate', 'mandate', 'The mandate register', mandateEndpoints),
	resource(
		'Property',
		'product',
		"Property listings with their pictures, lots and labels (the API's products)",
		productEndpoints,
	),
	resource('Search Request', 'searchRequest', 'What a buyer is looking for', searchRequestEndpoints),
	resource('Transaction', 'transaction', 'Sale agreements, offers and leases', transactionEndpoints),
	resource('User', 'user', 'Agents and collaborators', userEndpoints),
	resource('Webhook', 'webhook', 'Subscriptions to contact and property events', webhookEndpoints),
];

/** Every endpoint of the spec, resource after resource. */
export const ENDPOINTS: readonly Endpoint[] = RESOURCES.flatMap((resource) => resource.endpoints);

const byKey = new Map(ENDPOINTS.map((endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint]));

export function findEndpoint(resource: string, operation: string): Endpoint | undefined {
	return byKey.get(`${resource}:${operation}`);
}

/** The entry keyed `resource:operation`, which the node's own code names: one that is not there is a defect. */
export function endpointOf(key: string): Endpoint {
	const endpoint = byKey.get(key);
	if (!endpoint) throw new Error(`No catalogue entry "${key}"`);
	return endpoint;
}

/** The read of the record a write addresses by its own path (`DELETE /users/{userId}` → `GET /users/{userId}`), if any. */
export function readOf(endpoint: Endpoint): Endpoint | undefined {
	return ENDPOINTS.find((candidate) => candidate.method === 'GET' && candidate.path === endpoint.path);
}

/** The list of the records a write addresses by its own path (`DELETE /hooks/{hookId}` → `GET /hooks`), if any. */
export function listOf(endpoint: Endpoint): Endpoint | undefined {
	const collection = endpoint.path.replace(/\/\{\w+\}$/, '');
	return ENDPOINTS.find((candidate) => candidate.method === 'GET' && candidate.path === collection);
}
