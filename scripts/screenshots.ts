import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { chromium, Page } from 'playwright-core';

import { startSandbox } from '../sandbox';
import { readExamples } from '../tools/n8n/examples';
import { OWNER, ROOT, createInstance, importJson, publicApi, startServer } from '../tools/n8n/launcher';
import { sandboxCredential } from '../tools/n8n/workflows';

/**
 * `npm run screenshots`: each example workflow as the editor shows it, taken in headless Chromium
 * from a real n8n with the package installed, into docs/images/<example>.png for the README; then
 * the sandbox console after a website lead started the published lead-routing example
 * (docs/images/console-*.png).
 */
const IMAGES = path.join(ROOT, 'docs', 'images');
const CHROMIUM = process.env.AGENCY_CRM_CHROMIUM ?? '/usr/bin/chromium';

async function main() {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	const client = sandbox.clients.find((candidate) => candidate.clientId === 'demo-client') ?? sandbox.clients[0];
	const instance = createInstance('screenshots', Number(process.env.AGENCY_CRM_N8N_PORT_BASE ?? 5710) + 50);
	await importJson(instance, 'credentials', [
		{ ...sandboxCredential('agencyCrmSandbox', sandbox.authUrl, client), name: 'Agency CRM Sandbox' },
	]);
	const examples = readExamples();
	// As the files are: the lead-routing example the console starts calls nothing but the CRM.
	await importJson(instance, 'workflow', [...examples.values()]);
	const server = await startServer(instance);
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	try {
		const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
		await page.goto(`${server.url}/signin`);
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
		await page.locator('input[type="password"]').first().fill(OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
		mkdirSync(IMAGES, { recursive: true });
		for (const [file, workflow] of examples) {
			await page.goto(`${server.url}/workflow/${workflow.id}`);
			await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 30_000 });
			// Close what the editor may open on a first visit, then let the canvas fit the view.
			await page.keyboard.press('Escape');
			await page.keyboard.press('Shift+1');
			await page.waitForTimeout(1500);
			const image = path.join(IMAGES, file.replace(/\.json$/, '.png'));
			await page.screenshot({ path: image });
			console.log(`wrote ${path.relative(ROOT, image)}`);
		}
		const leadRouting = examples.get('lead-routing.json')!;
		const { status } = await (await publicApi(server))('POST', `/workflows/${leadRouting.id}/activate`);
		if (status !== 200) throw new Error(`Could not publish ${leadRouting.id}: HTTP ${status}`);
		await consoleScreenshots(page, sandbox.consoleUrl);
	} finally {
		await browser.close();
		await server.stop();
		await sandbox.close();
		rmSync(instance.userFolder, { recursive: true, force: true });
	}
}

/** The console as a user sees it after receiving a website lead: the contacts, then the webhooks and their deliveries. */
async function consoleScreenshots(page: Page, consoleUrl: string) {
	const shoot = async (name: string) => {
		const image = path.join(IMAGES, `console-${name}.png`);
		await page.screenshot({ path: image });
		console.log(`wrote ${path.relative(ROOT, image)}`);
	};
	await page.setViewportSize({ width: 1400, height: 800 });
	await page.goto(`${consoleUrl}/contacts/new`);
	const form = page.locator('#new-lead');
	await form.locator('[name=firstname]').fill('Camille');
	await form.locator('[name=lastname]').fill('Martin');
	await form.locator('[name=email]').fill('camille.martin@example.net');
	await form.locator('[name=agency_id]').selectOption('102');
	await form.locator('[name=comment]').fill('Bonjour, je voudrais visiter le bien VA5005 cette semaine.');
	await shoot('new-lead');
	await Promise.all([page.waitForURL(/notice=/), form.getByRole('button', { name: 'Receive the lead' }).click()]);
	// The lead-routing workflow answers the delivery, then assigns the lead: both show on the pages.
	await page.waitForTimeout(5000);
	await page.goto(`${consoleUrl}/contacts`);
	await shoot('contacts');
	await page.goto(`${consoleUrl}/webhooks`);
	await shoot('webhooks');
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exitCode = 1;
});
