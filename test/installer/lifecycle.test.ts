import { randomUUID } from 'node:crypto';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { waitFor } from '../support/waitFor';
import { sandboxApi, testContext } from '../support/real-n8n/context';
import type { PublicApi } from '../support/real-n8n/executions';
import { executionsOf, finished, nodeOutput, setActive } from '../support/real-n8n/executions';
import { admin, counters, editInCrm, hooksOf, hooksSettleTo } from '../support/sandbox/admin';
import type { Rest } from '../support/installer/communityNodes';
import {
	LICENSE_FEATURE,
	RUNS,
	communityPackages,
	enableCustomRegistry,
	installerInstance,
	servedDescription,
} from '../support/installer/communityNodes';
import { installFromSettingsPage, nodesPanelSearch, openEditor } from '../support/installer/browser';
import { RELEASED, actionParameters, parameterNames, stageWorkingTree } from '../support/installer/packages';
import type { StagedPackage } from '../support/installer/packages';
import type { Registry, RegistryServer } from '../support/installer/registry';
import { registryClient, startRegistry } from '../support/installer/registry';
import type { N8nInstance, N8nProcess } from '../../tools/n8n/launcher';
import {
	NODE_TYPES,
	PACKAGE_NAME,
	installedN8n,
	packedTarball,
	publicApi,
	restClient,
	startServer,
} from '../../tools/n8n/launcher';
import type { Credential, NodeSpec } from '../../tools/n8n/workflows';
import { byId, chainedWorkflow, crmNode, sandboxCredential, triggerNode, webhookNode } from '../../tools/n8n/workflows';

/**
 * Issue 21: the package installed, updated and removed the way users do it, by n8n's own Community
 * Nodes installer from an npm registry (Verdaccio on loopback), in one n8n that runs throughout:
 * 0.1.0 installed through the page's REST route, workflows saved and a trigger activated under it,
 * the working tree published as the next version and installed over it with the page's Update
 * call, then uninstalled with the trigger still active; then installed again through the page
 * itself in Chromium, where the leftover hook is found and removed as the README says. Tests run
 * in order and share that n8n. Times and hook counts are printed for the README.
 */
const { origin, client } = testContext();
const n8n = installedN8n();
const crm = sandboxApi(origin, client('demo-client'));

let registryServer: RegistryServer;
let registry: Registry;
let instance: N8nInstance;
let webhookBase: string;
let triggerUrl: string;
let server: N8nProcess;
let rest: Rest;
let api: PublicApi;
const packages = () => communityPackages(rest);
let next: StagedPackage;
let browser: Browser | undefined;
let page: Page;

/** What the run measured, printed at the end. */
const measured: Record<string, unknown> = { n8n: n8n.version };

const TRIGGER_WEBHOOK_ID = randomUUID();
const ACTION_PATH = `saved-under-0-1-0-${randomUUID()}`;
const CLEANUP_PATH = `remove-leftover-hooks-${randomUUID()}`;
const CUSTOMER = 10001;
const ids: { action?: string; trigger?: string; cleanup?: string } = {};
let credential: Credential;

const hooks = () => hooksOf(origin);
const settleTo = (count: number, url?: string) => hooksSettleTo(origin, count, url);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates a workflow through n8n's public API, as the editor saves one. */
async function saveWorkflow(name: string, nodes: NodeSpec[]): Promise<string> {
	const { nodes: described, connections, settings } = chainedWorkflow(name, nodes);
	const { status, body } = await api<{ id: string }>('POST', '/workflows', {
		name,
		nodes: described,
		connections,
		settings,
	});
	if (status !== 200) throw new Error(`saving ${name}: ${status} ${JSON.stringify(body)}`);
	return body.id;
}

/** Calls a workflow's production Webhook and waits for its execution; answers the execution. */
async function runByWebhook(workflowId: string, webhookPath: string) {
	const before = (await executionsOf(api, workflowId)).length;
	// n8n 2.x may answer the activation before the Webhook is registered: 404 means "not yet".
	const response = await waitFor(`the Webhook of ${workflowId}`, async () => {
		const answer = await fetch(`${webhookBase}webhook/${webhookPath}`, { method: 'POST' });
		return answer.status !== 404 && answer;
	});
	const all = await waitFor(`an execution of ${workflowId}`, async () => {
		const current = await executionsOf(api, workflowId);
		return current.length > before && finished(current[0]) ? current : undefined;
	});
	return { status: response.status, execution: all[0] };
}

/** A change in the CRM's own screens, and the trigger's execution it starts (exactly one). */
async function deliverToTrigger(firstname: string) {
	const before = (await executionsOf(api, ids.trigger!)).length;
	await editInCrm(origin, 'customer', CUSTOMER, { firstname });
	const all = await waitFor('the trigger execution', async () => {
		const current = await executionsOf(api, ids.trigger!);
		return current.length > before && finished(current[0]) ? current : undefined;
	});
	await pause(1500);
	expect(await executionsOf(api, ids.trigger!)).toHaveLength(before + 1);
	return all[0];
}

beforeAll(async () => {
	await admin(origin, 'POST', '/reset');
	registryServer = await startRegistry(RUNS);
	registry = registryClient(registryServer);
	instance = installerInstance('installer', n8n, registry.url);
	webhookBase = `http://127.0.0.1:${instance.port}/`;
	triggerUrl = `${webhookBase}webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	server = await startServer(instance);
	rest = await restClient(server);
	api = await publicApi(server);
}, 180_000);

afterAll(async () => {
	console.log(`installer measurements: ${JSON.stringify(measured)}`);
	await browser?.close();
	await server?.stop();
	await registryServer?.stop();
}, 60_000);

test(`without the licence feature, n8n refuses a registry other than npmjs.org (${LICENSE_FEATURE})`, async () => {
	await registry.publish(RELEASED.tarball);
	const refused = await packages().install();
	expect(refused.status).toBe(500);
	expect(JSON.stringify(refused.data)).toContain(LICENSE_FEATURE);
	expect(await packages().list()).toEqual([]);
});

test('0.1.0 installs through the Community Nodes route; its two nodes are served to the editor', async () => {
	enableCustomRegistry(instance);
	const installed = await packages().install();
	measured.installMs = installed.ms;
	expect(installed.status).toBe(200);
	expect(installed.data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: RELEASED.version });
	expect(installed.data.installedNodes.map((node) => node.type).sort()).toEqual(
		[NODE_TYPES.action, NODE_TYPES.trigger].sort(),
	);
	for (const type of [NODE_TYPES.action, NODE_TYPES.trigger])
		expect(await servedDescription(rest, type, 1)).toBeDefined();
	expect((await packages().list()).map((listed) => listed.installedVersion)).toEqual([RELEASED.version]);
});

test('under 0.1.0, a workflow runs against the sandbox and an active trigger registers exactly 1 hook', async () => {
	// As the credential form saves one (n8n 1.x's public API refuses this credential's data).
	const { name, type, data } = sandboxCredential('installer', origin, client('demo-client'));
	const created = await rest<{ id: string }>('POST', '/credentials', { name, type, data });
	expect(created.status).toBe(200);
	credential = { id: created.data.id, name, type, data };
	// Parameters as 0.1.0's editor saved them: Simplify was a switch then.
	ids.action = await saveWorkflow('Saved under 0.1.0', [
		webhookNode(ACTION_PATH),
		crmNode('Simplified', credential, {
			resource: 'customer',
			operation: 'get',
			customerId: byId(CUSTOMER),
			simplify: true,
		}),
		crmNode('Raw', credential, { resource: 'customer', operation: 'get', customerId: byId(CUSTOMER), simplify: false }),
	]);
	ids.trigger = await saveWorkflow('Trigger saved under 0.1.0', [
		triggerNode(credential, TRIGGER_WEBHOOK_ID, { events: ['CUSTOMER_UPDATE'], fetchFullRecord: true }),
	]);
	await setActive(api, ids.action, true, server);
	await expectSavedWorkflowRuns();

	await setActive(api, ids.trigger, true, server);
	const [hook] = await settleTo(1, triggerUrl);
	measured.hooksAfterInstall = (await hooks()).length;
	measured.hookId = hook.id;
	const execution = await deliverToTrigger('Installed');
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'Agency CRM Trigger')![0]).toMatchObject({ record: { firstname: 'Installed' } });
});

/** The 0.1.0 workflow's two nodes: Simplify on gives fewer fields than the API's record, off gives the record. */
async function expectSavedWorkflowRuns() {
	const { status, execution } = await runByWebhook(ids.action!, ACTION_PATH);
	expect(status).toBe(200);
	expect(execution.status).toBe('success');
	const record = ((await crm<{ data: Record<string, unknown> }>('GET', `/customers/${CUSTOMER}`)).data ?? {}) as Record<
		string,
		unknown
	>;
	const [simplified] = nodeOutput(execution, 'Simplified')!;
	const [raw] = nodeOutput(execution, 'Raw')!;
	expect(simplified.customers_id).toBe(CUSTOMER);
	expect(Object.keys(simplified).length).toBeLessThan(Object.keys(record).length);
	expect(Object.keys(raw).sort()).toEqual(expect.arrayContaining(Object.keys(record).sort()));
}

test('the working tree, published as the next version through the provenance guard, is offered as an update', async () => {
	next = stageWorkingTree(RUNS);
	const published = await registry.publish(next.folder);
	expect(published.stderr).toContain('a registry on this machine: no provenance needed');
	expect(await registry.versions(PACKAGE_NAME)).toEqual({
		versions: [RELEASED.version, next.version],
		latest: next.version,
	});
	// The same folder, pointed at the npm registry, stops at the guard (a dry run: nothing could leave).
	const refused = await registry.publish(next.folder, ['--dry-run', '--registry=https://registry.npmjs.org/']).then(
		() => 'published',
		(error: { stderr: string }) => error.stderr,
	);
	expect(refused).toContain('Refusing to publish n8n-nodes-agency-crm without npm provenance');
	const [listed] = await packages().list();
	expect(listed).toMatchObject({ installedVersion: RELEASED.version, updateAvailable: next.version });
});

test('the Update call installs it without a restart: saved workflows run, the trigger keeps its 1 hook', async () => {
	const hookRequests = async () =>
		Object.entries((await counters(origin)).requests_by_route)
			.filter(([route]) => route.includes('/hooks'))
			.reduce((sum, [, count]) => sum + count, 0);
	const hookRequestsBefore = await hookRequests();
	const updated = await packages().update(next.version);
	measured.updateMs = updated.ms;
	expect(updated.status).toBe(200);
	expect(updated.data.installedVersion).toBe(next.version);

	// No duplicate and no orphan: the same hook, still the only one, a moment later too.
	await pause(2000);
	const after = await hooks();
	measured.hooksAfterUpdate = after.length;
	expect(after.map((hook) => [hook.id, hook.url])).toEqual([[measured.hookId, triggerUrl]]);
	// n8n does not activate the trigger again: the hook 0.1.0 registered serves on, untouched.
	measured.hookRequestsDuringUpdate = (await hookRequests()) - hookRequestsBefore;
	expect(measured.hookRequestsDuringUpdate).toBe(0);

	// What the editor now gets is the new version's node, with no restart.
	const action = updated.data.installedNodes.find((node) => node.type === NODE_TYPES.action)!;
	const served = parameterNames((await servedDescription(rest, NODE_TYPES.action, action.latestVersion))!);
	const newParameters = actionParameters(packedTarball(), RUNS);
	expect(newParameters).not.toEqual(actionParameters(RELEASED.tarball, RUNS));
	expect(served).toEqual(newParameters);
	measured.restartNeeded = false;

	await expectSavedWorkflowRuns();
	const execution = await deliverToTrigger('Updated');
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'Agency CRM Trigger')![0]).toMatchObject({ record: { firstname: 'Updated' } });
});

test('uninstalling with the trigger active leaves its hook registered in the CRM, delivering to n8n in vain', async () => {
	const removed = await packages().uninstall();
	measured.uninstallMs = removed.ms;
	expect(removed.status).toBe(200);
	expect(await packages().list()).toEqual([]);
	await pause(2000);
	const left = await hooks();
	measured.hooksAfterUninstall = left.length;
	expect(left.map((hook) => hook.url)).toEqual([triggerUrl]);

	// The CRM still sends each change there; n8n cannot run a node it no longer has.
	const { body } = await api<{ active: boolean }>('GET', `/workflows/${ids.trigger}`);
	measured.triggerWorkflowActiveAfterUninstall = body.active;
	const sent = (await admin<{ data: Array<{ url: string }> }>(origin, 'GET', '/deliveries')).data.length;
	await editInCrm(origin, 'customer', CUSTOMER, { firstname: 'Uninstalled' });
	const delivery = await waitFor('the delivery to the removed trigger', async () => {
		const all = (
			await admin<{ data: Array<{ url: string; status: number | null; outcome: string }> }>(
				origin,
				'GET',
				'/deliveries',
			)
		).data;
		return all.length > sent ? all[all.length - 1] : undefined;
	});
	measured.deliveryAfterUninstall = { status: delivery.status, outcome: delivery.outcome };
	expect(delivery.url).toBe(triggerUrl);
});

test('installed again through the Settings page in Chromium; both nodes in the nodes panel', async () => {
	({ browser, page } = await openEditor(server.url));
	try {
		measured.pageInstallMs = await installFromSettingsPage(page, server.url);
		const [listed] = await packages().list();
		expect(listed.installedVersion).toBe(next.version);
		const { actions, triggers, trigger } = await nodesPanelSearch(page, server.url, ids.action!, 'Agency CRM');
		// The panel names an app once; in the trigger panel, "Agency CRM" leads to the trigger (its 5 events).
		expect(actions).toContain('Agency CRM');
		expect(triggers).toContain('Agency CRM');
		expect(trigger).toMatch(/^(Agency CRM Trigger|Triggers \(5\))$/);
	} catch (error) {
		// What the page showed, for whoever reads the failure.
		await page.screenshot({ path: path.join(RUNS, `installer-page-${n8n.runtime}.png`) });
		throw error;
	}
});

test("the README's way to remove a leftover hook: Webhook → Get Many, keep this n8n's URLs, Webhook → Delete", async () => {
	ids.cleanup = await saveWorkflow('Remove leftover hooks', [
		webhookNode(CLEANUP_PATH),
		crmNode('Get Many Hooks', credential, { resource: 'webhook', operation: 'getAll' }),
		{
			name: 'This n8n Only',
			type: 'n8n-nodes-base.filter',
			typeVersion: 2,
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
					combinator: 'and',
					conditions: [
						{
							id: randomUUID(),
							leftValue: '={{ $json.url }}',
							rightValue: webhookBase,
							operator: { type: 'string', operation: 'startsWith' },
						},
					],
				},
			},
		},
		crmNode('Delete Hook', credential, { resource: 'webhook', operation: 'delete', hookId: '={{ $json.id }}' }),
	]);
	await setActive(api, ids.cleanup, true, server);
	const { execution } = await runByWebhook(ids.cleanup, CLEANUP_PATH);
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'This n8n Only')!.map((hook) => hook.url)).toEqual([triggerUrl]);
	expect(await hooks()).toEqual([]);
});

test('after the reinstall, the trigger registers exactly 1 hook again; deactivated first, an uninstall leaves none', async () => {
	await setActive(api, ids.trigger!, false, server).catch(() => undefined);
	await setActive(api, ids.trigger!, true, server);
	await settleTo(1, triggerUrl);
	measured.hooksAfterPageInstall = (await hooks()).length;
	expect((await deliverToTrigger('Reinstalled')).status).toBe('success');

	await setActive(api, ids.trigger!, false, server);
	await settleTo(0);
	expect((await packages().uninstall()).status).toBe(200);
	await pause(2000);
	measured.hooksAfterDeactivateThenUninstall = (await hooks()).length;
	expect(await hooks()).toEqual([]);
});
