import type { Browser, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { OWNER, PACKAGE_NAME } from '../../../tools/n8n/launcher';

/**
 * n8n's editor in headless Chromium (Debian's package, driven by playwright-core), used as a user
 * uses it: signed in as the owner, Settings → Community Nodes, and the nodes panel. Elements are
 * found by the `data-test-id`s n8n's own end-to-end tests use, which both 1.123 and 2.41 carry.
 */

const CHROMIUM = process.env.AGENCY_CRM_CHROMIUM ?? '/usr/bin/chromium';
const byTestId = (id: string) => `[data-test-id="${id}"]`;

export async function openEditor(url: string): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
	await page.goto(`${url}/signin`);
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
	await page.locator('input[type="password"]').first().fill(OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((address) => !address.pathname.startsWith('/signin'), { timeout: 60_000 });
	return { browser, page };
}

/**
 * Settings → Community Nodes → Install: types the package name, accepts the risks, presses Install,
 * and waits until the page lists the package. Answers how long that took, from the press.
 */
export async function installFromSettingsPage(page: Page, url: string): Promise<number> {
	await page.goto(`${url}/settings/community-nodes`);
	await page
		.getByRole('button', { name: /^Install/ })
		.first()
		.click();
	await page
		.locator(`input${byTestId('package-name-input')}, ${byTestId('package-name-input')} input`)
		.first()
		.fill(PACKAGE_NAME);
	await page.locator(byTestId('user-agreement-checkbox')).click();
	const pressed = performance.now();
	await page.locator(byTestId('install-community-package-button')).click();
	await page
		.locator(byTestId('community-package-card'))
		.filter({ hasText: PACKAGE_NAME })
		.waitFor({ timeout: 180_000 });
	return Math.round(performance.now() - pressed);
}

/**
 * The nodes panel where users open it: with + or Tab in a saved workflow (actions), and with "Add first
 * step" on an empty canvas (triggers). Answers the names each lists for a search, and the node the
 * canvas shows (node or settings dialog) once the trigger panel's first match is chosen.
 */
export async function nodesPanelSearch(page: Page, url: string, savedWorkflowId: string, text: string) {
	const search = async () => {
		const field = page.locator(
			`${byTestId('node-creator-search-bar')} input, input${byTestId('node-creator-search-bar')}`,
		);
		await field.first().fill(text);
		const items = page.locator(`${byTestId('node-creator')} ${byTestId('node-creator-item-name')}`);
		// The list shows its default entries until the search has run.
		await items.filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
		return items;
	};
	const names = async (items: Locator) => (await items.allInnerTexts()).map((name) => name.trim());
	await page.goto(`${url}/workflow/${savedWorkflowId}`);
	await page.locator(byTestId('canvas-node')).first().waitFor({ timeout: 60_000 });
	// The panel's + button (n8n 2.41 shows it beside a saved workflow's canvas), else its shortcut, Tab.
	const plus = page.locator(byTestId('node-creator-plus-button')).or(page.locator(byTestId('canvas-plus-button')));
	const hasPlus = await plus
		.first()
		.waitFor({ timeout: 5_000 })
		.then(
			() => true,
			() => false,
		);
	if (hasPlus) await plus.first().click();
	else await page.keyboard.press('Tab');
	const actions = await names(await search());

	await page.goto(`${url}/workflow/new`);
	await page.locator(byTestId('canvas-add-button')).first().click({ timeout: 60_000 });
	const found = await search();
	const triggers = await names(found);
	await found.filter({ hasText: text }).first().click();
	// n8n adds the trigger (its name on the canvas or in its dialog), or shows the app's page with
	// its trigger events ("Triggers (4)": n8n 1.123 lists one per event the trigger offers).
	const canvasNode = page.locator(byTestId('canvas-node')).filter({ hasText: `${text} Trigger` });
	const dialogTitle = page.getByText(`${text} Trigger`, { exact: true });
	const triggerEvents = page.getByText(/^Triggers \(\d+\)$/);
	const shown = canvasNode.or(dialogTitle).or(triggerEvents).first();
	await shown.waitFor({ timeout: 30_000 });
	return { actions, triggers, trigger: (await shown.innerText()).trim() };
}
