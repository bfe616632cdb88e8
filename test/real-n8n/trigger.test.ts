import { randomUUID } from 'node:crypto';

import { admin, testContext } from './harness/context';
import type { N8nInstance, N8nServer } from './harness/n8n';
import { NODE_TYPES, importJson, n8nCli, publicApi, startServer } from './harness/n8n';
import { chainedWorkflow, sandboxCredential } from './harness/workflows';

/**
 * Issue 5: the trigger's webhook lifecycle and deliveries inside a running n8n, against the
 * sandbox. One workflow, activated and deactivated through n8n's public API.
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credTrigger00001', origin, client('demo-client'));
const WORKFLOW_ID = 'wfTrigger0000001';
const WEBHOOK_ID = randomUUID();
const SECRET_HEADER = 'x-agency-crm-secret';

interface SandboxHook {
	id: number;
	url: string;
	origines: string[];
	headers: Record<string, string> | null;
	status: string;
}

interface Execution {
	id: string;
	status: string;
	data?: { resultData?: { runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>>; error?: { message?: string } } };
}

let server: N8nServer;
let api: Awaited<ReturnType<typeof publicApi>>;

const hooks = async () => (await admin<{ data: SandboxHook[] }>(origin, 'GET', '/hooks')).data;
const webhookUrl = (base: string) => `${base}webhook/${WEBHOOK_ID}/webhook`;

async function executions(): Promise<Execution[]> {
	const { body } = await api<{ data: Execution[] }>('GET', `/executions?workflowId=${WORKFLOW_ID}&includeData=true&limit=100`);
	return body.data;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

async function start(webhookBase: string): Promise<N8nInstance> {
	const withUrl: N8nInstance = { ...instance, env: { ...instance.env, N8N_WEBHOOK_URL: webhookBase } };
	server = await startServer(withUrl);
	api = await publicApi(server);
	return withUrl;
}

async function activate() {
	const { status, body } = await api('POST', `/workflows/${WORKFLOW_ID}/activate`);
	if (status !== 200) throw new Error(`activate: ${status} ${JSON.stringify(body)}\n${server.log().slice(-3000)}`);
}

async function deactivate() {
	const { status, body } = await api('POST', `/workflows/${WORKFLOW_ID}/deactivate`);
	if (status !== 200) throw new Error(`deactivate: ${status} ${JSON.stringify(body)}`);
}

/** Makes the workflow inactive in the database only: n8n's CLI does not call the trigger's delete. */
async function unpublishWithoutDelete(at: N8nInstance) {
	const result = await n8nCli(at, ['unpublish:workflow', `--id=${WORKFLOW_ID}`], at.port + 2);
	if (result.code !== 0) throw new Error(`unpublish failed: ${result.stdout}${result.stderr}`);
}

const base1 = `http://127.0.0.1:${instance.port}/`;
const base2 = `http://localhost:${instance.port}/`;

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		chainedWorkflow(WORKFLOW_ID, [
			{
				name: 'Agency CRM Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				webhookId: WEBHOOK_ID,
				parameters: { events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE', 'PRODUCT_UPDATE'], fetchFullRecord: true },
				credentials: { agencyCrmApi: { id: credential.id, name: credential.name } },
			},
		]),
	]);
	await admin(origin, 'POST', '/reset');
	await start(base1);
});

afterAll(async () => {
	await server?.stop();
});

test('activation registers exactly one hook, with a secret header, for the selected events', async () => {
	await activate();
	const registered = await hooks();
	expect(registered).toHaveLength(1);
	expect(registered[0].url).toBe(webhookUrl(base1));
	expect([...registered[0].origines].sort()).toEqual(['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE', 'PRODUCT_UPDATE']);
	expect(registered[0].headers?.[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);
});

test('a customer change starts exactly one execution that holds the full record', async () => {
	const before = (await executions()).length;
	const edited = await admin<{ customers_id: number }>(origin, 'POST', '/simulate-edit', {
		resource: 'customer',
		action: 'update',
		changes: { firstname: 'Delivered' },
	});
	const customerId = edited.customers_id ?? (edited as { data?: { customers_id: number } }).data?.customers_id;
	const run = await waitFor('the execution', async () => {
		const all = await executions();
		return all.length > before && all[0].status !== 'running' && all[0].status !== 'new' ? all : undefined;
	});
	expect(run.length).toBe(before + 1);
	const [item] = run[0].data!.resultData!.runData!['Agency CRM Trigger'][0].data!.main![0];
	expect(item.json).toMatchObject({
		event_type: 'CUSTOMER_UPDATE',
		resource_type: 'customer',
		resource_id: customerId,
		record: { customers_id: customerId, firstname: 'Delivered' },
	});
	expect(item.json.notification).toMatchObject({ event_type: 'CUSTOMER_UPDATE', resource_id: customerId });
});

test('a product change starts one execution with the product', async () => {
	const before = (await executions()).length;
	const edited = await admin<{ product_id: number }>(origin, 'POST', '/simulate-edit', { resource: 'product', action: 'update', changes: { title: 'Renovated loft' } });
	const productId = edited.product_id ?? (edited as { data?: { product_id: number } }).data?.product_id;
	const run = await waitFor('the execution', async () => {
		const all = await executions();
		return all.length > before && all[0].status === 'success' ? all : undefined;
	});
	const [item] = run[0].data!.resultData!.runData!['Agency CRM Trigger'][0].data!.main![0];
	expect(item.json).toMatchObject({ event_type: 'PRODUCT_UPDATE', resource_type: 'product', record: { product_id: productId, title: 'Renovated loft' } });
});

test('a forged delivery (missing or wrong secret) gets 401 and starts nothing', async () => {
	const before = (await executions()).length;
	const forged = { event_type: 'CUSTOMER_UPDATE', resource_type: 'customer', resource_id: 1 };
	const send = (headers: Record<string, string>) =>
		fetch(webhookUrl(base1), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(forged) });
	expect((await send({})).status).toBe(401);
	expect((await send({ [SECRET_HEADER]: 'f'.repeat(64) })).status).toBe(401);
	await new Promise((resolve) => setTimeout(resolve, 1500));
	expect((await executions()).length).toBe(before);
});

test('deactivation removes the hook', async () => {
	await deactivate();
	expect(await hooks()).toHaveLength(0);
});

test('10 activate/deactivate cycles leave 0 hooks', async () => {
	for (let cycle = 0; cycle < 10; cycle++) {
		await activate();
		expect(await hooks()).toHaveLength(1);
		await deactivate();
	}
	expect(await hooks()).toHaveLength(0);
});

test("after n8n's webhook URL changes, activating again updates the same hook instead of adding one", async () => {
	await activate();
	const [first] = await hooks();
	await server.stop();
	await unpublishWithoutDelete(instance);
	expect(await hooks()).toHaveLength(1);

	await start(base2);
	await activate();
	const after = await hooks();
	expect(after).toHaveLength(1);
	expect(after[0].id).toBe(first.id);
	expect(after[0].url).toBe(webhookUrl(base2));
});

test('a hook suspended by failed deliveries is reactivated on the next activation', async () => {
	await server.stop();
	const at = { ...instance, env: { ...instance.env, N8N_WEBHOOK_URL: base2 } };
	await unpublishWithoutDelete(at);
	// n8n is down: every delivery fails until the sandbox suspends the hook.
	for (let edit = 0; edit < 6; edit++) {
		await admin(origin, 'POST', '/simulate-edit', { resource: 'customer', action: 'update', changes: { lastname: `Fail ${edit}` } });
	}
	const suspended = await waitFor('the suspension', async () => {
		const [hook] = await hooks();
		return hook?.status === 'suspended' ? hook : undefined;
	});

	await start(base2);
	await activate();
	const [reactivated] = await hooks();
	expect(reactivated.id).toBe(suspended.id);
	expect(reactivated.status).toBe('active');

	const before = (await executions()).length;
	await admin(origin, 'POST', '/simulate-edit', { resource: 'customer', action: 'update', changes: { lastname: 'Back' } });
	await waitFor('a delivery after reactivation', async () => ((await executions()).length > before ? true : undefined));
	await deactivate();
	expect(await hooks()).toHaveLength(0);
});
