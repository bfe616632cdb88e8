import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import type { N8nProcess } from './launcher';
import { OWNER } from './launcher';
import type { Credential, NodeSpec } from './workflows';
import { byId, chainedWorkflow, crmNode, linearWorkflow } from './workflows';

/**
 * n8n's editor in headless Chromium, driven as a user does, for the editor tests and
 * `npm run screenshots`: sign in, open a workflow, search the nodes panel, open a node, run it, start a
 * credential. Read through n8n's own `data-test-id` attributes (measured on n8n 2.41).
 */

export const CHROMIUM = process.env.AGENCY_CRM_CHROMIUM ?? '/usr/bin/chromium';

const byTestId = (id: string) => `[data-test-id="${id}"]`;

const version2 = { typeVersion: 2 };

/** Forms the editor opens: one node run after a manual start, another beside it, to look at. */
function formsWorkflow(id: string, name: string, run: NodeSpec, shown: NodeSpec) {
	const workflow = linearWorkflow(id, [run]);
	const [alone] = chainedWorkflow(id, [shown]).nodes;
	return { ...workflow, name, nodes: [...workflow.nodes, { ...alone, position: [220, -240] }] };
}

/**
 * The contact forms the editor tests and screenshots open, at node version 2: a Create or Update left
 * to fill in, its policy options shown, and a Create (after a manual start) whose email and mobile
 * phone are not ones.
 */
export function contactFormsWorkflow(id: string, credential: Credential) {
	const create = crmNode(
		'Create Contact',
		credential,
		{ resource: 'customer', operation: 'create', email: 'not-an-email', mobilePhone: 'call me', lastname: 'Martin' },
		version2,
	);
	// The matching policy's options added, at their defaults, as a user opens them (issue 32).
	const policy = { matchBy: 'emailElsePhones', whenPhoneMatchDiffers: 'create', withoutEmail: 'placeholder' };
	const upsert = crmNode(
		'Create or Update Contact',
		credential,
		{ resource: 'customer', operation: 'upsert', options: policy },
		version2,
	);
	return formsWorkflow(id, 'Contact forms', create, upsert);
}

/**
 * The property forms the editor tests and screenshots open, at node version 2: a Create whose
 * criteria rows are chosen from the lists (type, price, rooms, status), and a Get of listing 5001 with
 * its criteria, simplified (after a manual start).
 */
export function propertyFormsWorkflow(id: string, credential: Credential) {
	const property = (name: string, operation: string, parameters: Record<string, unknown>) =>
		crmNode(name, credential, { resource: 'product', operation, ...parameters }, version2);
	const rows = [
		{ id: 'TypeBien', listValue: 'Maison' },
		{ id: 'Prix', value: '415000' },
		{ id: 'NbPieces', value: '5' },
		{ id: 'Statut', listValue: 'EnCours' },
	];
	const create = property('Create Property', 'create', {
		agencyId: byId('101'),
		additionalFields: { reference: 'VA-EDITOR', criteria: { criterion: rows } },
	});
	const get = property('Get Property', 'get', {
		productId: byId('5001'),
		options: { output: 'simple', fetch: ['criteres_text', 'criteres_number', 'criteres_flag'] },
	});
	return formsWorkflow(id, 'Property forms', get, create);
}

export interface Editor {
	page: Page;
	url: string;
	close(): Promise<void>;
}

/** Signs the page in to the n8n at `url` as its owner, through the sign-in form. */
export async function signIn(page: Page, url: string) {
	await page.goto(`${url}/signin`);
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
	await page.locator('input[type="password"]').first().fill(OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((address) => !address.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** A browser signed in to n8n as its owner. */
export async function openEditor(server: N8nProcess): Promise<Editor> {
	const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
	await signIn(page, server.url);
	return { page, url: server.url, close: () => browser.close() };
}

/** A workflow on the canvas, what the editor may open on a first visit closed. */
export async function openWorkflow({ page, url }: Editor, workflowId: string) {
	await page.goto(`${url}/workflow/${workflowId}`);
	await page.locator(byTestId('canvas-node')).first().waitFor({ timeout: 30_000 });
	await page.keyboard.press('Escape');
}

/**
 * A workflow on the canvas: the one shown already, its nodes panel and node view closed with Escape as
 * a user does, else opened (a page load, which costs seconds of a busy machine).
 */
export async function showWorkflow(editor: Editor, workflowId: string) {
	if (!editor.page.url().endsWith(`/workflow/${workflowId}`)) return await openWorkflow(editor, workflowId);
	const open = editor.page.locator(`${byTestId('node-creator')}:visible, ${byTestId('node-parameters')}:visible`);
	// Each Escape closes one layer: the actions of a node in the panel, the panel, a node's view.
	for (let presses = 0; presses < 4 && (await open.count()) > 0; presses++) {
		await editor.page.keyboard.press('Escape');
		await open
			.first()
			.waitFor({ state: 'hidden', timeout: 3_000 })
			.catch(() => undefined);
	}
	await open.first().waitFor({ state: 'hidden' });
}

/** The Execute workflow button's text (with several triggers: "… from <trigger>"). */
export async function executeButtonText({ page }: Editor): Promise<string> {
	return (await page.locator(byTestId('execute-workflow-button')).first().innerText()).replace(/\s+/g, ' ').trim();
}

/** The nodes panel, searched for `text`: the names of the nodes it finds. */
export async function searchNodesPanel({ page }: Editor, text: string): Promise<string[]> {
	await page.locator(byTestId('node-creator-plus-button')).first().click();
	await page.locator(byTestId('node-creator-search-bar')).fill(text);
	const found = page.locator(`${byTestId('item-iterator-item')}[data-keyboard-nav-type="node"]`);
	await found.first().waitFor();
	return await found.locator(byTestId('node-creator-item-name')).allInnerTexts();
}

/**
 * A node of the panel's list opened: the headers its actions are grouped under (n8n names them after
 * the node's resources: "Contact Actions"; read as written, before the stylesheet capitalises them),
 * and the actions listed.
 */
export async function openPanelNode({ page }: Editor, name: string): Promise<{ headers: string[]; actions: string[] }> {
	await page.locator(byTestId('node-creator-item-name'), { hasText: name }).first().click();
	const panel = page.locator(byTestId('node-creator'));
	const actions = panel.locator(`[data-keyboard-nav-type="action"] ${byTestId('node-creator-item-name')}`);
	await actions.first().waitFor();
	const headers = panel.locator(`${byTestId('item-iterator-item')}:not([data-keyboard-nav-type])`);
	return {
		headers: await headers.evaluateAll((elements) =>
			elements.map((element) => element.getAttribute('data-keyboard-nav-id') ?? ''),
		),
		actions: await actions.allInnerTexts(),
	};
}

/** Scrolls the open node's actions to the group under this header, at the top of the panel. */
export async function showPanelGroup({ page }: Editor, header: string) {
	await page
		.locator(`${byTestId('node-creator')} [data-keyboard-nav-id="${header}"]`)
		.evaluate((element) => element.scrollIntoView({ block: 'start' }));
}

/** A node of the canvas opened in its detail view. */
export async function openNode({ page }: Editor, name: string) {
	await page.locator(byTestId('canvas-node'), { hasText: name }).first().dblclick();
	await page.locator(byTestId('node-parameters')).waitFor();
}

/**
 * Opens the open node's dropdown `name` in row `row` of its rows (0-based) as a user does, and waits
 * for its choices (loaded from the API as it opens): their names, the dropdown left open. A click
 * while the node's view still settles may open nothing: it is clicked again after 2 s without choices.
 */
export async function openDropdown({ page }: Editor, name: string, row: number): Promise<string[]> {
	const choices = page.locator(`${byTestId('parameter-input-item')}:visible .option-headline`);
	const dropdown = page.locator(byTestId(`parameter-input-${name}`)).nth(row);
	let names: string[] = [];
	for (let attempt = 0; attempt < 60; attempt++) {
		if (attempt % 8 === 0 && names.length === 0) await dropdown.click();
		await page.waitForTimeout(250);
		const now = await choices.allInnerTexts();
		if (now.length > 0 && now.join('|') === names.join('|')) return names;
		names = now;
	}
	throw new Error(`The dropdown ${name} of row ${row} showed no stable choices (last: ${names.join(', ')})`);
}

/** The choices of the open node's dropdown `name` in row `row` (openDropdown), then closed with Escape. */
export async function dropdownChoices(editor: Editor, name: string, row: number): Promise<string[]> {
	const names = await openDropdown(editor, name, row);
	await editor.page.keyboard.press('Escape');
	await editor.page
		.locator(`${byTestId('parameter-input-item')}:visible`)
		.first()
		.waitFor({ state: 'hidden' });
	return names;
}

/** Chooses `choice` in the open node's dropdown `name` of row `row`, as a user does. */
export async function choose(editor: Editor, name: string, row: number, choice: string) {
	const choices = editor.page.locator(`${byTestId('parameter-input-item')}:visible`);
	await openDropdown(editor, name, row);
	await choices.filter({ hasText: choice }).first().click();
	await choices.first().waitFor({ state: 'hidden' });
}

/** Runs the open node (Execute step) and shows its output as JSON. */
export async function executeNodeToJson({ page }: Editor) {
	await page.locator(byTestId('node-execute-button')).first().click();
	await page.locator(byTestId('run-data-item-count')).first().waitFor({ timeout: 30_000 });
	await page.locator(byTestId('ndv-run-data-display-mode')).last().getByText('JSON', { exact: true }).click();
}

/** The names of the parameters the open node shows, in the order shown (collection options included). */
export async function parameterOrder({ page }: Editor): Promise<string[]> {
	const labels = page.locator(`${byTestId('node-parameters')} ${byTestId('input-label')} label`);
	return await labels.evaluateAll((elements) => elements.map((element) => element.getAttribute('for') ?? ''));
}

/** Runs the open node (Execute step) and reads the error it shows: its title, and its details line by line as displayed. */
export async function executeNodeError({ page }: Editor): Promise<{ message: string; lines: string[] }> {
	await page.locator(byTestId('node-execute-button')).first().click();
	const message = page.locator(byTestId('node-error-message'));
	await message.waitFor({ timeout: 30_000 });
	const description = page.locator(byTestId('node-error-description'));
	// innerText follows the rendering: a line break is a new line, a newline in the text is a space.
	const lines = (await description.innerText()).split('\n').filter((line) => line.trim() !== '');
	return { message: await message.innerText(), lines };
}

/** A new credential of the type whose name is given, its form open: the values its inputs start with, by parameter name. */
export async function newCredential({ page, url }: Editor, typeName: string): Promise<Record<string, string>> {
	await page.goto(`${url}/home/credentials/create`);
	await page.getByPlaceholder('Search for app...').fill(typeName);
	await page.getByText(typeName, { exact: true }).first().click();
	await page.getByRole('button', { name: 'Continue' }).click();
	const dialog = page.locator(byTestId('credential-edit-dialog'));
	await dialog.locator('input').first().waitFor();
	return await dialog
		.locator('[data-test-id^="parameter-input-"]')
		.evaluateAll((elements) =>
			Object.fromEntries(
				elements.map((element) => [
					(element.getAttribute('data-test-id') ?? '').replace('parameter-input-', ''),
					element.querySelector('input')?.value ?? '',
				]),
			),
		);
}
