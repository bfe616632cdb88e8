import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { chromium, Browser, Page } from 'playwright-core';

import { StartResults } from '../../tools/demo/startResults';
import { signIn } from '../../tools/n8n/editor';
import { measuredNow, recordResults } from '../../tools/results';

import { PORT_VARIABLES, DemoPorts, describePorts } from '../../tools/demo/ports';
import { checkoutLikeCopy, npmStart, NpmStart } from '../../tools/demo/session';
import { ExampleWorkflow, readExamples } from '../../tools/n8n/examples';
import { DEFAULT_N8N, NODE_TYPES, publicApi, restClient, ROOT } from '../../tools/n8n/launcher';
import { stillRuns } from '../../tools/processes';
import { waitFor } from '../support/waitFor';
import { executionsOf, nodeOutput } from '../support/real-n8n/executions';
import type { PublicApi } from '../support/real-n8n/executions';
import { portBase } from '../support/real-n8n/context';

/**
 * Issues 22 and 29: `npm start` as a place to work, run as a user runs it in a fresh checkout. What
 * is built in it survives a stop and a restart, and the editor stays signed in; a SIGTERM or a SIGINT
 * to npm's own process stops everything within 10 s and says so, while the demo runs or while it is
 * being built; a second `npm start` refuses at once; `--fresh` starts over; and the sandbox console,
 * in headless Chromium, makes the published examples run. The tests run in order, on the same
 * checkout. What npm start measured of itself, and the stops, go to .cache/results/npm-start.json.
 */

/** Ports of their own: the test suites' base + 60 and up (real-n8n uses +0 to +39, screenshots +50). */
const ports: DemoPorts = {
	n8n: portBase() + 60,
	broker: portBase() + 61,
	sandbox: portBase() + 62,
	standIn: portBase() + 63,
};
const env: NodeJS.ProcessEnv = {
	...process.env,
	AGENCY_CRM_N8N_VERSION: DEFAULT_N8N,
	...Object.fromEntries(
		Object.entries(PORT_VARIABLES).map(([name, variable]) => [variable, String(ports[name as keyof DemoPorts])]),
	),
};
const n8nUrl = `http://127.0.0.1:${ports.n8n}`;
const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
const CHROMIUM = process.env.AGENCY_CRM_CHROMIUM ?? '/usr/bin/chromium';
const FIRST_START_MS = 10 * 60_000;
const START_MS = 3 * 60_000;

const examples = readExamples();
const LEAD_ROUTING = examples.get('lead-routing.json')!;
const PROPERTY_MATCH = examples.get('property-update-matching-buyers.json')!;
/** Examples that change between runs: one edited in n8n as well, one not. */
const CONTACT_SYNC_FILE = 'contact-sync-to-mailing-tool.json';
const USE_CASE_FILE = 'website-lead-to-follow-up.json';
/** The listing the lead cites and the one repriced in the console. */
const CITED_LISTING = 5005;
const REPRICED_LISTING = 5002;

let checkout: string;
let demo: NpmStart | undefined;
let browser: Browser | undefined;
/** What the run made before the restart, to find after it. */
const made: { workflowId?: string; credentialId?: string; leadId?: number; leadEmail: string } = {
	leadEmail: `lead.${Date.now()}@example.net`,
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function start(args: string[] = [], timeoutMs = START_MS): Promise<number> {
	demo = npmStart(checkout, env, args);
	return await demo.ready(timeoutMs);
}

/**
 * Sends the signal to npm's own process (what an IDE's stop button or a process manager does, not a
 * terminal's Ctrl+C, which reaches every process of the group); answers how long until every port was
 * free and no process of the run remained.
 */
async function stopWith(signal: 'SIGTERM' | 'SIGINT', { expectedProcesses = 4 } = {}): Promise<number> {
	const run = demo!;
	const processes = run.processes();
	expect(processes.length).toBeGreaterThanOrEqual(expectedProcesses);
	const sent = performance.now();
	process.kill(run.pid, signal);
	const left = async () => {
		const busy = [];
		for (const port of Object.values(ports)) if (!(await portIsFree(port))) busy.push(port);
		const running = processes.filter(stillRuns).map((info) => `${info.pid} ${info.command.slice(0, 80)}`);
		return { busy, running };
	};
	const stopped = await waitFor(
		'every port free and every process of the run gone',
		async () => {
			const { busy, running } = await left();
			return busy.length === 0 && running.length === 0 ? performance.now() - sent : undefined;
		},
		20_000,
		100,
	).catch(async (error: Error) => {
		throw new Error(`${error.message}: ${JSON.stringify(await left())}\n${run.output().slice(-2000)}`);
	});
	await run.exited;
	demo = undefined;
	stops.push({ signal, ms: stopped, output: run.output() });
	return stopped;
}

/** Every stop of a running demo: the signal, how long it took, what npm start printed. */
const stops: Array<{ signal: string; ms: number; output: string }> = [];

async function n8nWorkflows(): Promise<Array<{ id: string; name: string }>> {
	const rest = await restClient({ url: n8nUrl });
	const { data } = await rest<Array<{ id: string; name: string }>>('GET', '/workflows');
	return data;
}

const sandboxAdmin = async <T>(path: string): Promise<{ status: number; data: T }> => {
	const response = await fetch(`${sandboxUrl}/_admin${path}`);
	const body = (await response.json()) as { data: T };
	return { status: response.status, data: body.data };
};

/** Waits until the workflow's `count`th execution has finished, and returns it. */
async function finishedExecution(api: PublicApi, workflowId: string, count: number) {
	return await waitFor(
		`execution ${count} of ${workflowId}`,
		async () => {
			const all = await executionsOf(api, workflowId);
			const finished = all.filter((execution) => !['new', 'running', 'waiting'].includes(execution.status));
			return all.length >= count && finished.length === all.length ? all[0] : undefined;
		},
		60_000,
	);
}

/** Waits until the workflow's trigger has registered its webhook with the sandbox. */
async function hookRegistered(webhookId: string) {
	await waitFor(`the webhook ${webhookId}`, async () => {
		const { data } = await sandboxAdmin<Array<{ url: string; status: string }>>('/hooks');
		return data.some((hook) => hook.url.includes(webhookId) && hook.status === 'active') ? true : undefined;
	});
	// n8n 1.x saves the hook's secret with the workflow a moment after the registration.
	await pause(1000);
}

function webhookIdOf(workflow: ExampleWorkflow): string {
	const trigger = workflow.nodes.find((node) => node.type === NODE_TYPES.trigger) as { webhookId?: string };
	return trigger.webhookId!;
}

/** The console's message after a form, once the page it leads to has loaded. */
async function noticeAfter(page: Page, submit: () => Promise<void>): Promise<string> {
	await Promise.all([page.waitForURL(/notice=/), submit()]);
	return (await page.locator('[role="status"]').textContent()) ?? '';
}

beforeAll(() => {
	checkout = checkoutLikeCopy(ROOT, [DEFAULT_N8N]);
});

afterAll(async () => {
	// The checkout's own record of its starts, and the stops measured here, join this repository's.
	const recorded = path.join(checkout, '.cache/results/npm-start.json');
	const starts = (existsSync(recorded) ? JSON.parse(readFileSync(recorded, 'utf8')) : {}) as StartResults;
	const stopped = (signal: string) => stops.find((stop) => stop.signal === signal);
	recordResults<Record<string, unknown>>('npm-start', (previous) => ({
		...previous,
		...starts,
		...Object.fromEntries(
			(['SIGTERM', 'SIGINT'] as const)
				.filter((signal) => stopped(signal))
				.map((signal) => [`stopOn${signal}`, { ...measuredNow(), seconds: stopped(signal)!.ms / 1000 }]),
		),
	}));
	await browser?.close();
	if (demo) {
		// A test failed with the demo running: end its whole process group.
		for (const info of demo.processes()) {
			try {
				process.kill(info.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
	}
	rmSync(checkout, { recursive: true, force: true });
});

test('the first npm start in a fresh checkout builds, imports the examples and says what it keeps, its ports and the console', async () => {
	const readyIn = await start([], FIRST_START_MS);
	const output = demo!.output();
	console.log(`[demo] first start ready in ${(readyIn / 1000).toFixed(1)} s; its output:\n${output}`);
	expect(output).toContain('[start] building and packing the package');
	expect(output).toContain('[start] compiling the sandbox and the demo');
	expect(output).toContain(`n8n         ${n8nUrl}`);
	expect(output).toContain(`console     ${sandboxUrl}/console`);
	expect(output).toContain('Kept between runs in .cache/demo/2.41 (npm start -- --fresh starts over)');
	expect(output).toContain('n8n: a new instance');
	expect(output).toContain('sandbox: the demo data');
	expect(output).toContain(
		`examples and credential: imported the credential "Agency CRM Sandbox", ${[...examples.keys()].map((file) => `examples/${file}`).join(', ')}`,
	);
	expect(output).toContain(`Ports: ${describePorts(ports)}`);
	expect((await n8nWorkflows()).map((workflow) => workflow.id).sort()).toEqual(
		[...examples.values()].map((workflow) => workflow.id).sort(),
	);
});

test('in the console (headless Chromium), a website lead runs the published lead-routing example and a new price the property-update example; both deliveries show 200', async () => {
	const api = await publicApi({ url: n8nUrl });
	for (const workflow of [LEAD_ROUTING, PROPERTY_MATCH]) {
		const { status } = await api('POST', `/workflows/${workflow.id}/activate`);
		expect(status).toBe(200);
		await hookRegistered(webhookIdOf(workflow));
	}
	browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	const page = await browser.newPage();

	// A lead from the website, citing a listing.
	const listing = (await sandboxAdmin<{ model: string }>(`/records/product/${CITED_LISTING}`)).data;
	await page.goto(`${sandboxUrl}/console`);
	await page.getByRole('link', { name: 'New website lead' }).click();
	const form = page.locator('#new-lead');
	await form.locator('[name=firstname]').fill('Camille');
	await form.locator('[name=lastname]').fill('Demo');
	await form.locator('[name=email]').fill(made.leadEmail);
	await form.locator('[name=agency_id]').selectOption('102');
	await form.locator('[name=origin_id]').selectOption('1');
	await form.locator('[name=comment]').fill(`Bonjour, je voudrais visiter le bien ${listing.model}.`);
	const leadNotice = await noticeAfter(page, () => form.getByRole('button', { name: 'Receive the lead' }).click());
	made.leadId = Number(/contact (\d+) created/.exec(leadNotice)?.[1]);
	expect(leadNotice).toMatch(/^Lead received: contact \d+ created\. CUSTOMER_CREATE sent to webhook \d+/);

	const routed = await finishedExecution(api, LEAD_ROUTING.id, 1);
	expect(routed.status).toBe('success');
	const [trigger] = nodeOutput(routed, 'New Contact')!;
	expect(trigger).toMatchObject({
		event_type: 'CUSTOMER_CREATE',
		resource_id: made.leadId,
		record: {
			customers_id: made.leadId,
			email: made.leadEmail,
			lastname: 'Demo',
			origin: expect.objectContaining({ id: 1 }),
		},
	});
	expect(nodeOutput(routed, 'Create Follow-Up')).toHaveLength(1);
	// The contact's page, left alone, refreshes itself until the workflow has acted, then shows the agent
	// it assigned, and links the delivery to the execution it started.
	await page.locator('#aftermath', { hasText: 'This page shows what they changed' }).waitFor({ timeout: 40_000 });
	expect(await page.locator('#edit-contact [name=user_id]').inputValue()).not.toBe('');
	expect(await page.locator('#aftermath a.execution').getAttribute('href')).toBe(
		`${n8nUrl}/workflow/${LEAD_ROUTING.id}/executions/${routed.id}`,
	);

	// A new price for a listing.
	await page.getByRole('link', { name: 'Properties' }).click();
	await page.getByLabel('Search').fill(String(REPRICED_LISTING));
	await page.getByRole('button', { name: 'Search' }).click();
	await page.getByRole('link', { name: String(REPRICED_LISTING), exact: true }).click();
	const edit = page.locator('#edit-property');
	const price = Number(await edit.locator('[name=price]').inputValue()) + 5000;
	await edit.locator('[name=price]').fill(String(price));
	const priceNotice = await noticeAfter(page, () => edit.getByRole('button', { name: 'Save' }).click());
	expect(priceNotice).toMatch(/^Listing saved\. PRODUCT_UPDATE sent to webhook \d+/);
	const matched = await finishedExecution(api, PROPERTY_MATCH.id, 1);
	expect(matched.status).toBe('success');
	expect(nodeOutput(matched, 'Property Updated')).toEqual([
		expect.objectContaining({ resource_id: REPRICED_LISTING, record: expect.objectContaining({ price }) }),
	]);

	// Both deliveries, acknowledged.
	await page.getByRole('link', { name: 'Webhooks' }).click();
	const statusOf = async (event: string, resourcePage: string) =>
		(
			await page
				.locator('#deliveries tbody tr', { hasText: event })
				.filter({ has: page.locator(`a[href="${resourcePage}"]`) })
				.locator('.http-status')
				.allTextContents()
		).map((text) => text.trim());
	expect(await statusOf('CUSTOMER_CREATE', `/console/contacts/${made.leadId}`)).toEqual(['200']);
	expect(await statusOf('PRODUCT_UPDATE', `/console/properties/${REPRICED_LISTING}`)).toEqual(['200']);
});

test('what a user builds (a workflow and a credential through the REST API) is there after SIGTERM and a restart, the editor still signed in, with the lead, no example twice, and an edited example kept', async () => {
	// The editor, signed in once before the stop.
	const editor = await browser!.newPage();
	await signIn(editor, n8nUrl);
	const rest = await restClient({ url: n8nUrl });
	const workflow = await rest<{ id: string }>('POST', '/workflows', {
		name: 'Built before the restart',
		active: false,
		nodes: [
			{
				id: 'a1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	expect(workflow.status).toBe(200);
	made.workflowId = workflow.data.id;
	const credential = await rest<{ id: string }>('POST', '/credentials', {
		name: 'My own Agency CRM',
		type: 'agencyCrmApi',
		data: { authUrl: sandboxUrl, clientId: 'solo-client', clientSecret: 'solo-secret', scope: 'site', siteId: 2 },
	});
	expect(credential.status).toBe(200);
	made.credentialId = credential.data.id;
	// A user's edit in n8n, and a new version of two example files: the edited copy is kept, the other updated.
	const syncId = examples.get(CONTACT_SYNC_FILE)!.id;
	const before = await rest<{ versionId: string }>('GET', `/workflows/${syncId}`);
	const renamed = await rest('PATCH', `/workflows/${syncId}`, {
		name: 'My contact sync',
		versionId: before.data.versionId,
	});
	expect(renamed.status).toBe(200);
	for (const file of [CONTACT_SYNC_FILE, USE_CASE_FILE]) {
		const target = path.join(checkout, 'examples', file);
		const workflow = JSON.parse(readFileSync(target, 'utf8')) as { name: string };
		writeFileSync(target, JSON.stringify({ ...workflow, name: `${workflow.name} (new version)` }));
	}

	const stoppedIn = await stopWith('SIGTERM');
	console.log(`[demo] SIGTERM to npm: every port free and every process gone in ${(stoppedIn / 1000).toFixed(1)} s`);
	expect(stoppedIn).toBeLessThan(10_000);
	expect(stops.at(-1)!.output).toMatch(
		/Stopping \(SIGTERM\)…\nStopped in [\d.]+ s: n8n, the sandbox and the stand-in are down/,
	);

	const readyIn = await start();
	console.log(`[demo] restart ready in ${(readyIn / 1000).toFixed(1)} s; its output:\n${demo!.output()}`);
	const output = demo!.output();
	expect(output).not.toContain('[start] building');
	expect(output).toContain('n8n: as you left it');
	expect(output).toMatch(/sandbox: restored as saved at \d{4}-/);
	expect(output).toContain('examples and credential: already in n8n');
	expect(output).toContain(
		`examples/${CONTACT_SYNC_FILE}: the demo's version changed, but its copy in n8n was edited there, so it is kept as it is`,
	);
	expect(output).toContain(
		`examples/${USE_CASE_FILE}: updated in n8n (its copy there was unchanged since the last import)`,
	);

	const workflows = await n8nWorkflows();
	expect(workflows.map((candidate) => candidate.id).sort()).toEqual(
		[...[...examples.values()].map((example) => example.id), made.workflowId].sort(),
	);
	const nameOf = (file: string) => workflows.find((workflow) => workflow.id === examples.get(file)!.id)?.name;
	expect(nameOf(CONTACT_SYNC_FILE)).toBe('My contact sync');
	expect(nameOf(USE_CASE_FILE)).toBe(`${examples.get(USE_CASE_FILE)!.name} (new version)`);
	const { data: credentials } = await (
		await restClient({ url: n8nUrl })
	)<Array<{ id: string; name: string }>>('GET', '/credentials');
	expect(credentials.map((candidate) => candidate.name).sort()).toEqual(['Agency CRM Sandbox', 'My own Agency CRM']);
	expect((await sandboxAdmin<{ email: string }>(`/records/customer/${made.leadId}`)).data.email).toBe(made.leadEmail);
	const api = await publicApi({ url: n8nUrl });
	expect((await api<{ active: boolean }>('GET', `/workflows/${LEAD_ROUTING.id}`)).body.active).toBe(true);
	expect(await executionsOf(api, LEAD_ROUTING.id)).toHaveLength(1);

	// The same browser, after the restart: still signed in, its workflows listed (signed out, n8n would
	// show its sign-in form instead).
	await editor.goto(`${n8nUrl}/home/workflows`);
	await editor.getByText(LEAD_ROUTING.name).first().waitFor({ timeout: 30_000 });
	expect(new URL(editor.url()).pathname).not.toMatch(/^\/signin/);
	await editor.close();
});

test('a second npm start while one runs exits at once, naming the running one and the port variables', async () => {
	const sent = performance.now();
	const second = npmStart(checkout, env);
	const code = await second.exited;
	const took = performance.now() - sent;
	console.log(`[demo] a second npm start exited (${code}) in ${(took / 1000).toFixed(1)} s:\n${second.output()}`);
	expect(code).not.toBe(0);
	expect(took).toBeLessThan(30_000);
	expect(second.output()).toContain('npm start is already running for n8n 2.41');
	expect(second.output()).toContain(`n8n ${n8nUrl}   console ${sandboxUrl}/console`);
	expect(second.output()).toContain(`Its ports: ${describePorts(ports)}`);
	// The running demo is untouched.
	expect((await fetch(`${n8nUrl}/healthz/readiness`)).status).toBe(200);
});

test("a SIGINT to npm start's own process (an IDE's stop button) stops the demo within 10 s and says so", async () => {
	const stoppedIn = await stopWith('SIGINT');
	console.log(`[demo] SIGINT to npm: every port free and every process gone in ${(stoppedIn / 1000).toFixed(1)} s`);
	expect(stoppedIn).toBeLessThan(10_000);
	expect(stops.at(-1)!.output).toMatch(
		/Stopping \(SIGINT\)…\nStopped in [\d.]+ s: n8n, the sandbox and the stand-in are down/,
	);
});

test('a SIGINT while npm start rebuilds after a change stops the build at once, says so, and leaves nothing running', async () => {
	// A change to the nodes: the next start builds and packs the package again.
	const source = path.join(checkout, 'nodes/shared/events.ts');
	writeFileSync(source, `${readFileSync(source, 'utf8')}\n// changed by the demo test\n`);
	demo = npmStart(checkout, env);
	const run = demo;
	await waitFor(
		'the build',
		async () => (run.output().includes('[start] building and packing') ? true : undefined),
		60_000,
		100,
	);
	const processes = run.processes();
	const sent = performance.now();
	process.kill(run.pid, 'SIGINT');
	const code = await run.exited;
	const stopped = await waitFor(
		'every process of the run gone',
		async () => (processes.some(stillRuns) ? undefined : performance.now() - sent),
		20_000,
		100,
	);
	demo = undefined;
	console.log(`[demo] SIGINT during the build: stopped in ${(stopped / 1000).toFixed(1)} s:\n${run.output()}`);
	expect(code).not.toBe(0);
	expect(stopped).toBeLessThan(10_000);
	expect(run.output()).toContain(
		'[start] stopped by SIGINT while building the package: nothing of it is left running.',
	);
	expect(run.output()).not.toContain('The demo is ready');
});

test('npm start -- --fresh gives the demo data back: the lead and the workflow built are gone, the examples there once', async () => {
	await start(['--fresh']);
	expect(demo!.output()).toContain('[start] building and packing the package');
	expect(demo!.output()).toContain('Started over (--fresh)');
	expect((await sandboxAdmin(`/records/customer/${made.leadId}`)).status).toBe(404);
	const { data: duplicates } = await sandboxAdmin<{ customers: number }>('/duplicate-contacts');
	expect(duplicates.customers).toBe(120);
	expect((await n8nWorkflows()).map((workflow) => workflow.id).sort()).toEqual(
		[...examples.values()].map((workflow) => workflow.id).sort(),
	);
	expect(await stopWith('SIGINT')).toBeLessThan(10_000);
});
