import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { startSandbox } from '../sandbox';
import { executionLinks } from '../tools/demo/executions';
import type { Editor } from '../tools/n8n/editor';
import {
	contactFormsWorkflow,
	executeNodeError,
	executeNodeToJson,
	openDropdown,
	newCredential,
	openEditor,
	openNode,
	openPanelNode,
	openWorkflow,
	showWorkflow,
	searchNodesPanel,
	showPanelGroup,
	propertyFormsWorkflow,
} from '../tools/n8n/editor';
import { readExamples } from '../tools/n8n/examples';
import type { N8nProcess } from '../tools/n8n/launcher';
import { ROOT, createInstance, importJson, publicApi, startServer } from '../tools/n8n/launcher';
import { crmNode, linearWorkflow, sandboxCredential } from '../tools/n8n/workflows';
import { waitFor } from '../test/support/waitFor';
import type { Credential } from '../tools/n8n/workflows';

/**
 * `npm run screenshots`: each example workflow as the editor shows it, taken in headless Chromium
 * from a real n8n with the package installed, into docs/images/<example>.png for the README; the
 * editor's words and forms (docs/images/editor-*.png: the nodes panel searched for "contact", the
 * Create or Update form, a new node as it opens, Property → Get Many's filters, an error, a new
 * credential; a property's criteria rows with a list value's choices, and a property's Simplified output); then
 * the sandbox console after a website lead started the published lead-routing example (docs/images/console-*.png),
 * its deliveries linked to n8n's executions as under npm start.
 */
const IMAGES = path.join(ROOT, 'docs', 'images');

async function shoot(page: Page, name: string) {
	const image = path.join(IMAGES, `${name}.png`);
	await page.screenshot({ path: image });
	console.log(`wrote ${path.relative(ROOT, image)}`);
}

async function main() {
	const executions = executionLinks();
	const sandbox = await startSandbox({ port: 0, quiet: true, executions });
	const client = sandbox.clients.find((candidate) => candidate.clientId === 'demo-client') ?? sandbox.clients[0];
	const instance = createInstance('screenshots', Number(process.env.AGENCY_CRM_N8N_PORT_BASE ?? 5710) + 50);
	const credential = { ...sandboxCredential('agencyCrmSandbox', sandbox.authUrl, client), name: 'Agency CRM Sandbox' };
	await importJson(instance, 'credentials', [credential]);
	const examples = readExamples();
	const forms = contactFormsWorkflow('wfContactForms01', credential);
	const properties = propertyFormsWorkflow('wfPropertyForms1', credential);
	const fixed = fixedFormsWorkflow(credential);
	// As the files are: the lead-routing example the console starts calls nothing but the CRM.
	await importJson(instance, 'workflow', [...examples.values(), forms, properties, fixed]);
	const server = await startServer(instance);
	executions.connect(server.url);
	const editor = await openEditor(server);
	try {
		mkdirSync(IMAGES, { recursive: true });
		for (const [file, workflow] of examples) {
			await openWorkflow(editor, workflow.id);
			// Let the canvas fit the view.
			await editor.page.keyboard.press('Shift+1');
			await editor.page.waitForTimeout(1500);
			await shoot(editor.page, file.replace(/\.json$/, ''));
		}
		await editorScreenshots(editor, forms.id, fixed.id);
		await propertyScreenshots(editor, properties.id);
		const leadRouting = examples.get('lead-routing.json')!;
		const { status } = await (await publicApi(server))('POST', `/workflows/${leadRouting.id}/activate`);
		if (status !== 200) throw new Error(`Could not publish ${leadRouting.id}: HTTP ${status}`);
		// n8n 2.x publishes in the background: the trigger's hook appears a moment after the answer.
		await waitFor('the lead-routing trigger registering its webhook', async () => {
			const hooks = (await (await fetch(`${sandbox.origin}/_admin/hooks`)).json()) as {
				data: Array<{ status: string }>;
			};
			return hooks.data.some((hook) => hook.status === 'active');
		});
		await consoleScreenshots(editor.page, sandbox.consoleUrl);
		await publishedAgainScreenshot(editor, server, sandbox.origin, leadRouting.id);
	} finally {
		await editor.close();
		await server.stop();
		await sandbox.close();
		rmSync(instance.userFolder, { recursive: true, force: true });
	}
}

/**
 * Nodes as issue 29 left them: a version 2 node as n8n adds it (no parameter set: it opens on Contact →
 * Get Many, a read), and Property → Get Many with a Maximum Price added and left at 0 (which sends nothing).
 * Maximum Price is version 1's (0.1.0's filter, kept for saved workflows); version 2 filters a price with a
 * Criteria row (Prix, Less Than), as production does.
 */
function fixedFormsWorkflow(credential: Credential) {
	const added = crmNode('New Agency CRM Node', credential, {}, { typeVersion: 2 });
	const filtered = crmNode(
		'Properties Under a Price',
		credential,
		{ resource: 'product', operation: 'getAll', filters: { priceMax: 0 } },
		{ typeVersion: 1 },
	);
	return { ...linearWorkflow('wfFixedForms0001', [added, filtered]), name: 'Forms of issue 29' };
}

/** A node of a workflow already loaded, opened (and acted on: an execution, a dropdown), taken as `image`. */
async function shootNode(
	editor: Editor,
	workflowId: string,
	node: string,
	image: string,
	act?: () => Promise<unknown>,
) {
	await showWorkflow(editor, workflowId);
	await openNode(editor, node);
	await act?.();
	await shoot(editor.page, image);
}

/** What a new user meets in the editor: the nodes panel searched for "contact", the forms, an error, a new credential. */
async function editorScreenshots(editor: Editor, formsId: string, fixedId: string) {
	await openWorkflow(editor, formsId);
	await searchNodesPanel(editor, 'contact');
	await openPanelNode(editor, 'Agency CRM');
	await showPanelGroup(editor, 'Contact Actions');
	await shoot(editor.page, 'editor-nodes-panel');
	await shootNode(editor, formsId, 'Create or Update Contact', 'editor-create-or-update');
	// Its Options, where the contact-matching policy is chosen (docs/contacts.md).
	await editor.page.locator('[data-test-id="parameter-input-withoutEmail"]').scrollIntoViewIfNeeded();
	await shoot(editor.page, 'editor-contact-policy');
	await shootNode(editor, formsId, 'Create Contact', 'editor-error', () => executeNodeError(editor));
	await openWorkflow(editor, fixedId);
	await openNode(editor, 'New Agency CRM Node');
	await shoot(editor.page, 'editor-new-node');
	await shootNode(editor, fixedId, 'Properties Under a Price', 'editor-property-filters');
	await newCredential(editor, 'Agency CRM API');
	// The dialog fades in.
	await editor.page.waitForTimeout(1000);
	await shoot(editor.page, 'editor-credential');
}

/** A property create's criteria rows, a list value's choices open; a property read, its Simplified output as JSON. */
async function propertyScreenshots(editor: Editor, propertiesId: string) {
	await shootNode(editor, propertiesId, 'Create Property', 'editor-property-criteria', () =>
		openDropdown(editor, 'listValue', 0),
	);
	await editor.page.keyboard.press('Escape');
	await shootNode(editor, propertiesId, 'Get Property', 'editor-property-simplified', () => executeNodeToJson(editor));
}

/**
 * What a user sees after publishing a workflow again (Unpublish, then Publish: the way back from a
 * suspension Agency CRM does not show): the trigger's notice, and the one webhook URL it delivers to.
 */
async function publishedAgainScreenshot(editor: Editor, server: N8nProcess, origin: string, workflowId: string) {
	const api = await publicApi(server);
	for (const step of ['deactivate', 'activate']) {
		const { status } = await api('POST', `/workflows/${workflowId}/${step}`);
		if (status !== 200) throw new Error(`Could not ${step} ${workflowId}: HTTP ${status}`);
	}
	await waitFor('the trigger registering its webhook again', async () => {
		const hooks = (await (await fetch(`${origin}/_admin/hooks`)).json()) as { data: Array<{ status: string }> };
		return hooks.data.some((hook) => hook.status === 'active');
	});
	await openWorkflow(editor, workflowId);
	await openNode(editor, 'New Contact');
	// The node's webhook URLs fold open on a click of their heading, as a user opens them.
	await editor.page
		.getByText('Webhook URLs')
		.first()
		.click()
		.catch(() => undefined);
	await editor.page
		.getByText('Production URL')
		.first()
		.click()
		.catch(() => undefined);
	await editor.page.waitForTimeout(1000);
	await shoot(editor.page, 'trigger-published-again');
}

/** The console as a user sees it after receiving a website lead: the contacts, then the webhooks and their deliveries. */
async function consoleScreenshots(page: Page, consoleUrl: string) {
	const shootConsole = (name: string) => shoot(page, `console-${name}`);
	await page.setViewportSize({ width: 1400, height: 800 });
	await page.goto(`${consoleUrl}/contacts/new`);
	const form = page.locator('#new-lead');
	await form.locator('[name=firstname]').fill('Camille');
	await form.locator('[name=lastname]').fill('Martin');
	await form.locator('[name=email]').fill('camille.martin@example.net');
	await form.locator('[name=agency_id]').selectOption('102');
	await form.locator('[name=comment]').fill('Bonjour, je voudrais visiter le bien VA5005 cette semaine.');
	await shootConsole('new-lead');
	await Promise.all([page.waitForURL(/notice=/), form.getByRole('button', { name: 'Receive the lead' }).click()]);
	// The contact's page refreshes itself until the lead-routing workflow has assigned the lead.
	const aftermath = page.locator('#aftermath');
	await aftermath
		.filter({ hasText: 'This page shows what they changed' })
		.waitFor({ timeout: 40_000 })
		.catch(async (error: Error) => {
			throw new Error(`${error.message}\nThe page said: ${await aftermath.innerText().catch(() => '(no #aftermath)')}`);
		});
	await shootConsole('after-lead');
	await page.goto(`${consoleUrl}/contacts`);
	await shootConsole('contacts');
	await page.goto(`${consoleUrl}/webhooks`);
	await shootConsole('webhooks');
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exitCode = 1;
});
