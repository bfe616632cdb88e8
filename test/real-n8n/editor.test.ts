import { testContext } from '../support/real-n8n/context';
import type { N8nProcess } from '../../tools/n8n/launcher';
import { NODE_TYPES, importJson, restClient, startServer } from '../../tools/n8n/launcher';
import { sandboxCredential } from '../../tools/n8n/workflows';

/**
 * What a user does in the editor, through the editor's own REST calls: press the credential's
 * Test button, open dropdowns (loadOptions) and search the "From list" resource locators.
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const credential = sandboxCredential('credEditor000001', origin, demo);

let server: N8nProcess;
let rest: Awaited<ReturnType<typeof restClient>>;

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	server = await startServer(instance);
	rest = await restClient(server);
});

afterAll(async () => {
	await server?.stop();
});

async function testCredential(data: Record<string, unknown>) {
	const { data: result } = await rest<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: {
			id: credential.id,
			name: credential.name,
			type: 'agencyCrmApi',
			data: { ...credential.data, ...data },
		},
	});
	return result;
}

const nodeRequest = (methodName: string, currentNodeParameters: Record<string, unknown>) => ({
	path: 'parameters',
	nodeTypeAndVersion: { name: NODE_TYPES.action, version: 1 },
	methodName,
	currentNodeParameters,
	credentials: { agencyCrmApi: { id: credential.id, name: credential.name } },
});

test('the credential Test button succeeds against the sandbox', async () => {
	expect(await testCredential({})).toEqual({ status: 'OK', message: 'Connection successful!' });
});

test('the credential Test button names the cause of a refusal', async () => {
	expect((await testCredential({ clientSecret: 'wrong-secret' })).message).toMatch(
		/^Agency CRM refused the client ID or client secret \(HTTP 401\); check both values in the credential/,
	);
	expect((await testCredential({ siteId: 2 })).message).toMatch(
		/^The site 2 is outside this API client's scope \(HTTP 403\)/,
	);
	expect((await testCredential({ scope: 'agency', agencyId: 999 })).message).toMatch(
		/^The agency 999 does not exist \(HTTP 404\)/,
	);
});

test('dropdowns are loaded from the API', async () => {
	const options = async (methodName: string) =>
		(
			await rest<Array<{ name: string; value: string | number }>>(
				'POST',
				'/dynamic-node-parameters/options',
				nodeRequest(methodName, { resource: 'customer', operation: 'create' }),
			)
		).data;
	const eventTypes = await options('getEventTypes');
	expect(eventTypes.map((option) => option.value).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
	const genders = await options('getGenders');
	expect(genders.map((option) => option.value).sort()).toEqual(['M', 'MME', 'M_MME', 'SCI', 'SOC']);
	const groups = await options('getCustomerGroups');
	expect(groups.length).toBeGreaterThan(0);
	expect(groups.every((option) => typeof option.name === 'string' && option.value !== undefined)).toBe(true);
});

test('"From list" searches customers on the server, page by page', async () => {
	const search = async (filter?: string, paginationToken?: string) =>
		(
			await rest<{ results: Array<{ name: string; value: string }>; paginationToken?: string }>(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{ ...nodeRequest('searchCustomers', { resource: 'customer', operation: 'get' }), filter, paginationToken },
			)
		).data;
	const first = await search();
	expect(first.results).toHaveLength(50);
	expect(first.paginationToken).toBeTruthy();
	const second = await search(undefined, first.paginationToken);
	expect(second.results).toHaveLength(50);
	expect(new Set([...first.results, ...second.results].map((result) => result.value)).size).toBe(100);

	// The last word of the contact's name (the list shows "First Last <email>"; contacts made by other
	// suites on the shared sandbox may have a last name only).
	const target = first.results[3];
	const lastName = target.name
		.replace(/ <[^>]*>$/, '')
		.split(' ')
		.pop()!;
	const filtered = await search(lastName);
	expect(filtered.results.length).toBeGreaterThan(0);
	expect(filtered.results.length).toBeLessThan(50);
	expect(filtered.results.every((result) => result.name.toLowerCase().includes(lastName.toLowerCase()))).toBe(true);
});
