import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { sandboxApi, testContext } from '../support/real-n8n/context';
import { nodeOutput, setActive } from '../support/real-n8n/executions';
import type { PublicApi } from '../support/real-n8n/executions';
import { finishedExecution, hookSettles } from '../support/real-n8n/triggers';
import { admin, editInCrm } from '../support/sandbox/admin';
import type { ExampleWorkflow, StandIn } from '../../tools/n8n/examples';
import { startStandIn, withStandIn } from '../../tools/n8n/examples';
import type { N8nProcess } from '../../tools/n8n/launcher';
import { NODE_TYPES, ROOT, executeWorkflow, importJson, publicApi, startServer } from '../../tools/n8n/launcher';
import { sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 18: workflows saved before node version 2 keep running. The four examples as 0.1.0 shipped
 * them (node version 1, parameters where version 1 keeps them, today's values such as `customer`),
 * imported as they are and run against the sandbox. Only what would clash with the current examples
 * the other files run is changed: their ids and webhook paths, and the lead's email (its own contact).
 */
const { origin, client, instance } = testContext();
const api = sandboxApi(origin, client('demo-client'));
const credential = {
	...sandboxCredential('agencyCrmSandbox', origin, client('demo-client')),
	name: 'Agency CRM Sandbox',
};
const SAVED = path.join(ROOT, 'test/support/fixtures/examples-0.1.0');

/** A saved example with an id and webhook path of its own. */
function saved(file: string): ExampleWorkflow {
	const workflow = JSON.parse(readFileSync(path.join(SAVED, file), 'utf8')) as ExampleWorkflow;
	return {
		...workflow,
		id: `saved${workflow.id.slice(-11)}`,
		nodes: workflow.nodes.map((node) => ('webhookId' in node ? { ...node, webhookId: randomUUID() } : node)),
	};
}

const LEAD_ROUTING = saved('lead-routing.json');
const CONTACT_SYNC = saved('contact-sync-to-mailing-tool.json');
const PROPERTY_MATCH = saved('property-update-matching-buyers.json');
const WEBSITE_LEAD = saved('use-case-1-lead-to-follow-up.json');
const LEAD_EMAIL = 'saved.workflow.lead@example.net';
/** The example lead's phone, and this file's. */
const LEAD_PHONE = ['"06 12 34 56 78"', '"06 98 76 54 32"'];

let standIn: StandIn;
let server: N8nProcess;
let n8nApi: PublicApi;

beforeAll(async () => {
	standIn = await startStandIn();
	// A lead of its own (email and phone), so that neither run finds the contact the other made.
	const websiteLead = JSON.parse(
		JSON.stringify(WEBSITE_LEAD)
			.replace('camille.martin@example.com', LEAD_EMAIL)
			.replace(LEAD_PHONE[0], LEAD_PHONE[1]),
	) as ExampleWorkflow;
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		websiteLead,
		withStandIn(CONTACT_SYNC, standIn.url),
		LEAD_ROUTING,
		withStandIn(PROPERTY_MATCH, standIn.url),
	]);
	server = await startServer(instance);
	n8nApi = await publicApi(server);
});

afterAll(async () => {
	await server?.stop();
	await standIn?.close();
});

test('the saved files are the four examples of 0.1.0, every Agency CRM node at version 1', () => {
	expect(readdirSync(SAVED).sort()).toEqual([
		'contact-sync-to-mailing-tool.json',
		'lead-routing.json',
		'property-update-matching-buyers.json',
		'use-case-1-lead-to-follow-up.json',
	]);
	const crmNodes = [LEAD_ROUTING, CONTACT_SYNC, PROPERTY_MATCH, WEBSITE_LEAD].flatMap((workflow) =>
		(workflow.nodes as unknown as Array<{ type: string; typeVersion: number }>).filter((node) =>
			node.type.startsWith('n8n-nodes-agency-crm.'),
		),
	);
	expect(crmNodes.length).toBeGreaterThan(10);
	expect(new Set(crmNodes.map((node) => node.typeVersion))).toEqual(new Set([1]));
});

test('the saved website lead creates the contact, its search request and its follow-up', async () => {
	const run = await executeWorkflow(instance, WEBSITE_LEAD.id, instance.port + 2);
	expect(run.error).toBeUndefined();
	const [contact] = run.output['Create or Update Customer'];
	expect(contact).toMatchObject({ email: LEAD_EMAIL, outcome: 'created' });
	expect(run.output['Add Product To Follow-Up'][0]).toMatchObject({ customers_id: contact.customers_id, rating: 4 });
});

test('the saved contact sync sends its batches and remembers the run', async () => {
	const received = standIn.received.length;
	const run = await executeWorkflow(instance, CONTACT_SYNC.id, instance.port + 2);
	expect(run.error).toBeUndefined();
	const batches = standIn.received.slice(received);
	expect(batches.length).toBeGreaterThan(0);
	expect(run.output['Remember This Run'][0].batches).toBe(batches.length);
});

test('the saved lead routing gives a new lead an agent and logs it', async () => {
	await setActive(n8nApi, LEAD_ROUTING.id, true, server);
	await hookSettles(origin, instance, LEAD_ROUTING);
	const { data } = await api<{ data: { customer: { customers_id: number } } }>('POST', '/leads/buyers', {
		agency_id: 102,
		comment: 'Bonjour, je cherche un appartement.',
		customer: { lastname: 'SavedRouting', email: 'saved.routing@example.net', origin_id: 2 },
	});
	const execution = await finishedExecution(n8nApi, origin, instance, LEAD_ROUTING, 1);
	expect(execution.status).toBe('success');
	const [assigned] = nodeOutput(execution, 'Assign Agent')!;
	const contact = (
		await admin<{ data: { user_id: number } }>(origin, 'GET', `/records/customer/${data.customer.customers_id}`)
	).data;
	expect(contact.user_id).toBe(assigned.user_id);
	expect(nodeOutput(execution, 'Log Assignment')).toHaveLength(1);
	await setActive(n8nApi, LEAD_ROUTING.id, false, server);
	await hookSettles(origin, instance, LEAD_ROUTING, false);
});

test('the saved property update looks for matching buyers when a listing changes', async () => {
	await setActive(n8nApi, PROPERTY_MATCH.id, true, server);
	await hookSettles(origin, instance, PROPERTY_MATCH);
	await editInCrm(origin, 'product', 5003, { status: 'active', price: 612_000 });
	const execution = await finishedExecution(n8nApi, origin, instance, PROPERTY_MATCH, 1);
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'Still on Offer')).toEqual([expect.objectContaining({ resource_id: 5003 })]);
	expect(nodeOutput(execution, 'Buyers of the Agency')?.length).toBeGreaterThan(0);
	await setActive(n8nApi, PROPERTY_MATCH.id, false, server);
	await hookSettles(origin, instance, PROPERTY_MATCH, false);
});

test('n8n still knows the saved nodes as version 1 of the Agency CRM node', async () => {
	const { body } = await n8nApi<{ nodes: Array<{ type: string; typeVersion: number }> }>(
		'GET',
		`/workflows/${CONTACT_SYNC.id}`,
	);
	expect(body.nodes.find((node) => node.type === NODE_TYPES.action)?.typeVersion).toBe(1);
});
