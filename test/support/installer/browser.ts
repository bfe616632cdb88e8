import type { Browser, Page } from 'playwright-core';
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
 * The node names the nodes panel lists for a search, both where users open it: on an empty canvas
 * ("Add first step", which offers triggers) and with the panel's + in a saved workflow (actions).
 */
export async function nodesPanelSearch(page: Page, url: string, savedWorkflowId: string, text: string) {
	const names = new Set<string>();
	for (const [address, opener] of [
		[`${url}/workflow/new`, 'canvas-add-button'],
		[`${url}/workflow/${savedWorkflowId}`, 'node-creator-plus-button'],
	]) {
		await page.goto(address);
		await page.locator(byTestId(opener)).first().click({ timeout: 60_000 });
		const search = page.locator(
			`${byTestId('node-creator-search-bar')} input, input${byTestId('node-creator-search-bar')}`,
		);
		await search.first().fill(text);
		const items = page.locator(`${byTestId('node-creator')} ${byTestId('node-creator-item-name')}`);
		// The list shows its default entries until the search has run.
		await items.filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
		for (const name of await items.allInnerTexts()) names.add(name.trim());
	}
	return [...names];
}
