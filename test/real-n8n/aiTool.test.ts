import { randomUUID } from 'node:crypto';

import { waitFor } from '../support/waitFor';
import { sandboxApi, testContext } from '../support/real-n8n/context';
import { routeCount } from '../support/sandbox/admin';
import type { N8nProcess } from '../../tools/n8n/launcher';
import { NODE_TYPES, importJson, publicApi, startServer } from '../../tools/n8n/launcher';
import { byId, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 12: the Agency CRM node as an AI agent's tool, inside real n8n. An MCP Server Trigger
 * exposes two Agency CRM tools whose parameters come from `$fromAI`; the test is the agent: it lists
 * the tools and calls them over MCP (Streamable HTTP, JSON-RPC), the same call n8n's AI Agent makes
 * through its tool interface, with the arguments a model would fill in.
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const api = sandboxApi(origin, demo);
const credential = { ...sandboxCredential('credAiToolUse001', origin, demo), name: 'Agency CRM for agents' };
const WORKFLOW = 'wfAgencyCrmTools';
const MCP_PATH = `agency-crm-tools-${randomUUID().slice(0, 8)}`;

/** A tool node of this package: the node's generated `…Tool` type, its parameters filled by the model. */
function toolNode(name: string, parameters: Record<string, unknown>, x: number) {
	return {
		id: randomUUID(),
		name,
		type: `${NODE_TYPES.action}Tool`,
		typeVersion: 1,
		position: [x, 200],
		parameters,
		credentials: { agencyCrmApi: { id: credential.id, name: credential.name } },
	};
}

const workflow = {
	id: WORKFLOW,
	name: 'Agency CRM tools for agents',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: randomUUID(),
			name: 'MCP Server Trigger',
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { path: MCP_PATH },
		},
		toolNode(
			'Get Contact',
			{
				resource: 'customer',
				operation: 'get',
				customerId: byId("={{ $fromAI('customerId', 'The id of the contact (customers_id)', 'number') }}"),
			},
			0,
		),
		toolNode(
			'Find Contacts by Email',
			{
				resource: 'customer',
				operation: 'getAll',
				returnAll: false,
				limit: 5,
				filters: { email: "={{ $fromAI('email', 'The email address of the contact', 'string') }}" },
			},
			250,
		),
	],
	connections: {
		'Get Contact': { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
		'Find Contacts by Email': { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
	},
};

let server: N8nProcess;
let sessionId: string | undefined;
let nextId = 1;

/** One JSON-RPC message to the MCP server; the answer may come as JSON or as one server-sent event. */
async function mcp<T>(method: string, params: Record<string, unknown> = {}, notification = false): Promise<T> {
	const response = await fetch(`${server.url}/mcp/${MCP_PATH}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			...(sessionId ? { 'mcp-session-id': sessionId } : {}),
		},
		body: JSON.stringify({ jsonrpc: '2.0', method, params, ...(notification ? {} : { id: nextId++ }) }),
	});
	sessionId = response.headers.get('mcp-session-id') ?? sessionId;
	const text = await response.text();
	if (notification) return undefined as T;
	if (!response.ok) throw new Error(`MCP ${method}: ${response.status} ${text}`);
	const json = text.trimStart().startsWith('{')
		? text
		: text
				.split('\n')
				.filter((line) => line.startsWith('data:'))
				.map((line) => line.slice(5).trim())
				.join('');
	const message = JSON.parse(json) as { result?: T; error?: { message: string } };
	if (message.error) throw new Error(`MCP ${method}: ${message.error.message}`);
	return message.result as T;
}

interface ToolResult {
	content: Array<{ type: string; text: string }>;
	isError?: boolean;
}

const requestsTo = (route: string) => routeCount(origin, route);

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [workflow]);
	server = await startServer(instance);
	const n8nApi = await publicApi(server);
	const activated = await n8nApi('POST', `/workflows/${WORKFLOW}/activate`);
	if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);
	// n8n registers the trigger's webhook a moment after answering the activation.
	await waitFor('the MCP server', () =>
		mcp('initialize', {
			protocolVersion: '2025-03-26',
			capabilities: {},
			clientInfo: { name: 'agency-crm-tests', version: '1.0.0' },
		}).then(
			() => true,
			(error: Error) => (error.message.includes(' 404 ') ? undefined : Promise.reject(error)),
		),
	);
	await mcp('notifications/initialized', {}, true);
});

afterAll(async () => {
	await server?.stop();
});

test('the agent sees both tools, each with a description and the arguments $fromAI asks for', async () => {
	const { tools } = await mcp<{
		tools: Array<{ name: string; description: string; inputSchema: { properties: Record<string, { type?: string }> } }>;
	}>('tools/list');
	const byName = new Map(tools.map((tool) => [tool.name, tool]));
	expect([...byName.keys()].sort()).toEqual(['Find_Contacts_by_Email', 'Get_Contact']);
	expect(byName.get('Get_Contact')!.inputSchema.properties.customerId.type).toBe('number');
	expect(byName.get('Find_Contacts_by_Email')!.inputSchema.properties.email.type).toBe('string');
	for (const tool of tools) expect(tool.description.length).toBeGreaterThan(20);
});

test('a call with the arguments a model fills in returns the contact, simplified', async () => {
	const { data: customers } = await api<{ data: Array<{ customers_id: number; email: string | null }> }>(
		'POST',
		'/customers/search',
		{ per_page: 50 },
	);
	const contact = customers.find((customer) => customer.email)!;
	const before = await requestsTo('GET /customers/{customerId}');

	const result = await mcp<ToolResult>('tools/call', {
		name: 'Get_Contact',
		arguments: { customerId: contact.customers_id },
	});
	expect(result.isError).toBeFalsy();
	const text = result.content.map((part) => part.text).join('');
	const output = JSON.parse(text) as unknown;
	const [record] = (Array.isArray(output) ? output : [output]) as Array<Record<string, unknown>>;
	expect(record.customers_id).toBe(contact.customers_id);
	expect(record.email).toBe(contact.email);
	// Simplified: at most 10 main fields and the id (production's `id`, the spec's `customers_id`), what a
	// model needs and no more.
	expect(Object.keys(record).filter((key) => key !== 'id' && key !== 'customers_id').length).toBeLessThanOrEqual(10);
	expect(record).toHaveProperty('origin');
	expect(record).toHaveProperty('groups');
	expect(await requestsTo('GET /customers/{customerId}')).toBe(before + 1);

	const found = await mcp<ToolResult>('tools/call', {
		name: 'Find_Contacts_by_Email',
		arguments: { email: contact.email },
	});
	expect(found.isError).toBeFalsy();
	expect(found.content.map((part) => part.text).join('')).toContain(String(contact.customers_id));
});

test("an unknown contact gives the agent the API's error code, not an empty answer", async () => {
	const before = await requestsTo('GET /customers/{customerId}');
	const answer = await mcp<ToolResult>('tools/call', {
		name: 'Get_Contact',
		arguments: { customerId: 987654321 },
	}).then(
		(result) => result.content.map((part) => part.text).join(''),
		(error: Error) => error.message,
	);
	expect(answer).toContain('NOT_FOUND');
	expect(await requestsTo('GET /customers/{customerId}')).toBe(before + 1);
});
