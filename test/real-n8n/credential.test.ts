import { testContext } from '../support/real-n8n/context';
import { admin, counters } from '../support/sandbox/admin';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import { byId, crmNode, itemsNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 2: the credential's token exchange inside real n8n, against the sandbox. Each test uses
 * a credential of its own, imported with no token, so exchanges can be counted exactly.
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const credentials = {
	discovery: sandboxCredential('credDiscovery001', origin, demo),
	hundred: sandboxCredential('credHundredItems', origin, demo),
	revoked: sandboxCredential('credRevocation01', origin, demo),
	httpNode: sandboxCredential('credHttpRequest1', origin, demo),
};
const hundredItems = Array.from({ length: 100 }, (_, index) => ({ index }));
const getAgency = (name: string, credential: typeof credentials.discovery) =>
	crmNode(name, credential, { resource: 'agency', operation: 'get', agencyId: byId(101) });
/** n8n's HTTP Request node with this credential as its predefined credential type. */
const httpRequest = (name: string, url: string) => ({
	name,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: { method: 'GET', url, authentication: 'predefinedCredentialType', nodeCredentialType: 'agencyCrmApi' },
	credentials: { agencyCrmApi: { id: credentials.httpNode.id, name: credentials.httpNode.name } },
});
/** The sandbox under another name: the same server, another origin than the token's domain. */
const elsewhere = origin.replace('127.0.0.1', 'localhost');

beforeAll(async () => {
	await importJson(instance, 'credentials', Object.values(credentials));
	await importJson(instance, 'workflow', [
		linearWorkflow('wfDiscovery00001', [
			crmNode('Discover', credentials.discovery, { resource: 'agency', operation: 'discover' }),
		]),
		linearWorkflow('wfHundredItems01', [
			itemsNode('Items', hundredItems),
			getAgency('Get Agency', credentials.hundred),
		]),
		linearWorkflow('wfRevocation0001', [
			itemsNode('First Items', hundredItems),
			getAgency('Before Revocation', credentials.revoked),
			{
				name: 'Revoke Tokens',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				executeOnce: true,
				parameters: { method: 'POST', url: `${origin}/_admin/revoke-tokens`, options: {} },
			},
			itemsNode('Second Items', hundredItems),
			getAgency('After Revocation', credentials.revoked),
		]),
		linearWorkflow('wfHttpRequestCr1', [httpRequest('HTTP Request', `${origin}/api/v2/site/agencies/101`)]),
		linearWorkflow('wfHttpRequestCr2', [httpRequest('HTTP Request', `${elsewhere}/api/v2/site/agencies/101`)]),
	]);
});

beforeEach(async () => {
	await admin(origin, 'POST', '/reset');
});

test('the discovery operation returns the demo agencies and packs', async () => {
	const run = await executeWorkflow(instance, 'wfDiscovery00001');
	expect(run.error).toBeUndefined();
	expect(run.code).toBe(0);
	const [discovery] = run.output.Discover;
	const agencies = discovery.agencies as Array<{ agency_id: number; name: string }>;
	expect(agencies.map((agency) => agency.agency_id)).toEqual([101, 102, 103]);
	expect((discovery.packs as Array<{ name: string }>).map((pack) => pack.name)).toContain('Full');
});

test('100 items cost exactly one token exchange', async () => {
	const run = await executeWorkflow(instance, 'wfHundredItems01');
	expect(run.error).toBeUndefined();
	expect(run.output['Get Agency']).toHaveLength(100);
	expect(run.output['Get Agency'].every((agency) => agency.agency_id === 101)).toBe(true);
	const seen = await counters(origin);
	expect(seen.token_exchanges).toBe(1);
	expect(seen.requests_by_route['GET /agencies/{agencyId}']).toBe(100);
});

test('a token revoked mid-run is replaced by exactly one new exchange, and the run succeeds', async () => {
	const run = await executeWorkflow(instance, 'wfRevocation0001');
	expect(run.error).toBeUndefined();
	expect(run.code).toBe(0);
	expect(run.output['Before Revocation']).toHaveLength(100);
	expect(run.output['After Revocation']).toHaveLength(100);
	const seen = await counters(origin);
	// One exchange before the revocation, one after it.
	expect(seen.token_exchanges).toBe(2);
	// 200 answered requests, plus the refusals of the items in flight when the token died: each of
	// them is refused once, then at most once more when resent with status errors thrown (that 401
	// is what makes n8n exchange and resend). The node runs 10 items at a time (Concurrency's default),
	// so between 1 and 10 items are refused, depending on how the first wave interleaves.
	const refusals = seen.requests_by_route['GET /agencies/{agencyId}'] - 200;
	expect(refusals).toBeGreaterThanOrEqual(2);
	expect(refusals).toBeLessThanOrEqual(2 * 10);
});

test("the HTTP Request node takes this credential as a predefined type: the token exchange, the API's answer", async () => {
	const run = await executeWorkflow(instance, 'wfHttpRequestCr1');
	expect(run.error).toBeUndefined();
	expect(run.output['HTTP Request']).toEqual([{ data: expect.objectContaining({ agency_id: 101 }) }]);
	const seen = await counters(origin);
	expect(seen.token_exchanges).toBe(1);
	expect(seen.requests_by_route['GET /agencies/{agencyId}']).toBe(1);
});

test("the HTTP Request node's URL elsewhere than the token's domain is refused, and no token travels there", async () => {
	const run = await executeWorkflow(instance, 'wfHttpRequestCr2');
	expect(run.error?.message).toContain(
		`The Agency CRM credential sends its token to ${origin} only, not to ${elsewhere}`,
	);
	expect((await counters(origin)).requests_by_route['GET /agencies/{agencyId}'] ?? 0).toBe(0);
});
