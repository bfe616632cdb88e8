import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { EVERY_10TH_THROTTLED, LIMIT_PER_SECOND, limitPerSecond } from '../support/faultProfiles';
import { waitFor } from '../support/waitFor';
import { testContext } from '../support/real-n8n/context';
import { admin, editInCrm } from '../support/sandbox/admin';
import type { FaultRun } from '../support/real-n8n/faultRun';
import {
	CREATE_NODE,
	describeFaultRun,
	emailOf,
	faultRunWorkflow,
	measureFaultRun,
	runByWebhook,
	webhookStarted,
} from '../support/real-n8n/faultRun';
import {
	executionsOf,
	finished,
	nodeItems,
	nodeOutput,
	setActive as setActiveOf,
} from '../support/real-n8n/executions';
import type { CliResult, N8nProcess } from '../../tools/n8n/launcher';
import { importJson, n8nCli, publicApi, startServer } from '../../tools/n8n/launcher';
import { byId, chainedWorkflow, crmNode, sandboxCredential, triggerNode } from '../../tools/n8n/workflows';

/**
 * Issue 11 inside a running n8n, against the sandbox: the fault run (customer creates at the default
 * Concurrency with every fault on, with and without Continue On Fail), forged deliveries to an
 * active trigger, then every secret looked for in what n8n printed and kept.
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const credential = sandboxCredential('credReliability1', origin, demo);
/** The right client id and secret for a site the client may not reach: the token exchange fails. */
const outOfScope = { ...sandboxCredential('credOutOfScope01', origin, { ...demo, siteId: 2 }), name: 'Out of scope' };

const itemsOverride = process.env.AGENCY_CRM_FAULT_RUN_ITEMS;
/** 1,000 items on n8n 2.x (issue 11's run); fewer on 1.x, to keep `npm test` in its time budget. */
const ITEMS = Number(itemsOverride ?? (instance.n8n.major >= 2 ? 1000 : 300));
/**
 * The run throttled on every 10th request waits a second per 429 whatever it does (about 118 s of its
 * 123 s at 1,000 items): 300 items here, and ten runs of 1,000 in `npm run bench:faults:real-n8n`.
 */
const THROTTLED_ITEMS = Number(itemsOverride ?? 300);

const SECRET_HEADER = 'x-agency-crm-secret';
const TRIGGER_WORKFLOW = 'wfReliabilityTrg';
const TRIGGER_WEBHOOK_ID = randomUUID();
const FAILING_WORKFLOW = 'wfReliabilityErr';
const FAILING_PATH = 'agency-crm-reliability-errors';

/**
 * Both runs have every fault on, none permanent. Their 429s differ: the run that stops at the first
 * failed item meets the harshest throttling (every 10th request, whatever the time); the other meets
 * a limit per second as real APIs set one, which is the run that judges the pause a 429 imposes.
 */
const FAULT_RUNS = [
	{
		label: `with Continue On Fail, a limit of ${LIMIT_PER_SECOND} requests/s`,
		workflowId: 'wfFaultRunCof01',
		tag: 'cof',
		continueOnFail: true,
		faults: limitPerSecond(),
		items: ITEMS,
	},
	{
		label: 'without Continue On Fail, every 10th request throttled',
		workflowId: 'wfFaultRunStop1',
		tag: 'stop',
		continueOnFail: false,
		faults: EVERY_10TH_THROTTLED,
		items: THROTTLED_ITEMS,
	},
];

let server: N8nProcess;
let api: Awaited<ReturnType<typeof publicApi>>;
/** What every n8n command of this file printed, beside the server's own log. */
const cliOutputs: CliResult[] = [];
/** Bodies of the answers n8n gave to deliveries and runs: error messages among them. */
const answers: string[] = [];
const triggerSecrets = new Set<string>();

const executions = (workflowId?: string) => executionsOf(api, workflowId);
const setActive = (workflowId: string, active: boolean) => setActiveOf(api, workflowId, active);
const keepAnswer = (body: string) => answers.push(body);

beforeAll(async () => {
	cliOutputs.push(await importJson(instance, 'credentials', [credential, outOfScope]));
	cliOutputs.push(
		await importJson(instance, 'workflow', [
			...FAULT_RUNS.map((run) =>
				faultRunWorkflow(run.workflowId, run.tag, credential, run.items, { continueOnFail: run.continueOnFail }),
			),
			chainedWorkflow(TRIGGER_WORKFLOW, [
				triggerNode(credential, TRIGGER_WEBHOOK_ID, { events: ['CUSTOMER_UPDATE'], fetchFullRecord: true }),
			]),
			// Error messages to search: an API error (404) with Continue On Fail, then a token exchange
			// refused (403) with the right secret, which stops the run.
			webhookStarted(FAILING_WORKFLOW, FAILING_PATH, [
				crmNode(
					'Missing Customer',
					credential,
					{ resource: 'customer', operation: 'get', customerId: byId(99999999), output: 'simple', options: {} },
					{ continueOnFail: true },
				),
				crmNode('Out Of Scope', outOfScope, { resource: 'agency', operation: 'discover' }),
			]),
		]),
	);
	server = await startServer(instance);
	api = await publicApi(server);
}, 180_000);

afterAll(async () => {
	// A test that failed may have left the trigger's hook in the sandbox the other suites share.
	await setActive(TRIGGER_WORKFLOW, false).catch(() => undefined);
	await server?.stop();
});

describe.each(FAULT_RUNS)('$items customer creates, every fault on, default Concurrency, $label', (run) => {
	test('every item once, in order, paired; 0 duplicate contacts; exchanges ≤ revocations + 1', async () => {
		const measured: FaultRun = await measureFaultRun(server, api, origin, {
			workflowId: run.workflowId,
			tag: run.tag,
			clientId: demo.clientId,
			faults: run.faults,
			onAnswer: keepAnswer,
		});
		console.log(
			describeFaultRun(`[fault run] n8n ${instance.n8n.version}, ${run.items} creates, ${run.label}`, measured),
		);

		expect(measured.execution.status).toBe('success');
		const items = nodeItems(measured.execution, CREATE_NODE)!;
		expect(items.map((item) => item.pairedItem)).toEqual(Array.from({ length: run.items }, (_, item) => ({ item })));
		expect(items.map((item) => item.json.email)).toEqual(
			Array.from({ length: run.items }, (_, index) => emailOf(run.tag, index)),
		);
		expect(items.filter((item) => item.json.error !== undefined)).toEqual([]);
		expect(new Set(items.map((item) => item.json.customers_id)).size).toBe(run.items);
		expect(measured.duplicateContacts).toBe(0);
		expect(measured.customersCreated).toBe(run.items);
		// Every kind of fault these runs set happened, so that the run proves something (a missing right,
		// forbidden_routes, is not one of them).
		const { forbidden, ...injected } = measured.seen.faults;
		expect(forbidden).toBe(0);
		expect(Math.min(...Object.values(injected))).toBeGreaterThan(0);
		expect(measured.exchanges).toBeLessThanOrEqual(measured.seen.faults.token_revoked + 1);
		expect(measured.maxInFlight).toBeLessThanOrEqual(10);
	}, 900_000);
});

interface SandboxHook {
	url: string;
	status: string;
	headers: Record<string, string> | null;
}

/** What a delivery to the trigger's URL was answered (a connection n8n closed reads as "closed"). */
async function deliver(url: string, init: RequestInit): Promise<number | 'closed'> {
	try {
		const response = await fetch(url, { method: 'POST', ...init });
		answers.push(await response.text());
		return response.status;
	} catch {
		return 'closed';
	}
}

test('forged deliveries to the active trigger start no execution; the genuine one starts exactly one', async () => {
	await setActive(TRIGGER_WORKFLOW, true);
	const url = `${server.url}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	const hook = await waitFor('the hook', async () => {
		const { data } = await admin<{ data: SandboxHook[] }>(origin, 'GET', '/hooks');
		return data.find((candidate) => candidate.url === url && candidate.status === 'active');
	});
	const secret = hook.headers![SECRET_HEADER];
	triggerSecrets.add(secret);
	const before = (await executions(TRIGGER_WORKFLOW)).length;

	const notification = JSON.stringify({
		delivery_id: randomUUID(),
		event_type: 'CUSTOMER_UPDATE',
		resource_type: 'customer',
		resource_id: 10003,
	});
	const json = { 'content-type': 'application/json' };
	const lastChanged = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
	const oversized = JSON.stringify({ ...JSON.parse(notification), padding: 'x'.repeat(17 * 1024 * 1024) });
	const signed = { ...json, [SECRET_HEADER]: secret };
	const malformed = '{"event_type": "CUSTOMER_UPDATE", "resource_id": ';
	/**
	 * Each forgery, and the status it must get: 401 from the trigger when the secret is not in its
	 * header; 400 from the trigger for a text body that is no JSON object; n8n's own body parser
	 * answers malformed JSON (422) and a body over its 16 MB limit (N8N_PAYLOAD_SIZE_MAX) before the
	 * trigger runs, the latter with an error status of n8n's choosing (500 in 2.41 and 1.123) or a
	 * closed connection.
	 */
	const forged: Array<{ name: string; init: RequestInit; query?: string; status: number | 'an error' }> = [
		{ name: 'no secret', init: { headers: json, body: notification }, status: 401 },
		{
			name: 'a wrong secret',
			init: { headers: { ...json, [SECRET_HEADER]: 'not-the-secret' }, body: notification },
			status: 401,
		},
		{
			name: 'the right length, a wrong value',
			init: { headers: { ...json, [SECRET_HEADER]: lastChanged }, body: notification },
			status: 401,
		},
		{
			name: 'the secret in other headers',
			init: {
				headers: { ...json, 'x-agency-crm-token': secret, authorization: `Bearer ${secret}`, 'x-secret': secret },
				body: notification,
			},
			status: 401,
		},
		{
			name: 'the secret in the query string',
			init: { headers: json, body: notification },
			query: `?${SECRET_HEADER}=${secret}&secret=${secret}`,
			status: 401,
		},
		{ name: 'malformed JSON, with the secret', init: { headers: signed, body: malformed }, status: 422 },
		{
			name: 'malformed JSON sent as text, with the secret',
			init: { headers: { 'content-type': 'text/plain', [SECRET_HEADER]: secret }, body: malformed },
			status: 400,
		},
		{
			name: 'an oversized body (17 MB), with the secret',
			init: { headers: signed, body: oversized },
			status: 'an error',
		},
	];
	const statuses: Record<string, number | 'closed'> = {};
	for (const { name, init, query } of forged) statuses[name] = await deliver(`${url}${query ?? ''}`, init);
	console.log(`[forged deliveries] n8n ${instance.n8n.version}: answered ${JSON.stringify(statuses)}`);
	// Time for a wrongly started execution to show.
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const forgedExecutions = (await executions(TRIGGER_WORKFLOW)).length - before;
	console.log(
		`[forged deliveries] n8n ${instance.n8n.version}: ${forged.length} forged, ${forgedExecutions} executions`,
	);
	expect(forgedExecutions).toBe(0);
	for (const { name, status } of forged) {
		if (status === 'an error')
			expect([name, statuses[name] === 'closed' || statuses[name] >= 400]).toEqual([name, true]);
		else expect([name, statuses[name]]).toEqual([name, status]);
	}

	await editInCrm(origin, 'customer', 10003, { firstname: 'Genuine' });
	const run = await waitFor('the genuine execution', async () => {
		const all = await executions(TRIGGER_WORKFLOW);
		return all.length > before && finished(all[0]) ? all : undefined;
	});
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(await executions(TRIGGER_WORKFLOW)).toHaveLength(before + 1);
	expect(run[0].status).toBe('success');
	expect(nodeOutput(run[0], 'Agency CRM Trigger')![0]).toMatchObject({
		event_type: 'CUSTOMER_UPDATE',
		record: { customers_id: 10003, firstname: 'Genuine' },
	});
	// Left active: its registration stays in the workflow's static data for the secrets scan.
}, 120_000);

test('an API error and a refused token exchange fail with messages of their own', async () => {
	await setActive(FAILING_WORKFLOW, true);
	const execution = await runByWebhook(server, api, FAILING_WORKFLOW, FAILING_PATH, {
		timeoutMs: 60_000,
		onAnswer: keepAnswer,
	});
	await setActive(FAILING_WORKFLOW, false);
	expect(execution.status).toBe('error');
	expect(nodeOutput(execution, 'Missing Customer')![0].error).toMatch(/^NOT_FOUND: .*\(HTTP 404\)$/);
	expect(execution.data?.resultData?.error?.message).toMatch(/403/);
}, 120_000);

/** How many times `secret` occurs in `text`. */
const occurrences = (text: string, secret: string) => text.split(secret).length - 1;

test('no secret appears in any n8n log, answer, output item, error or execution record', async () => {
	const issued = await admin<{ data: Array<{ access_token: string; refresh_token: string }> }>(
		origin,
		'GET',
		'/tokens?limit=2000',
	);
	const secrets: Array<[string, string]> = [
		['the client secret', demo.clientSecret],
		['base64(client_id:client_secret)', Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64')],
		...issued.data.flatMap((token, index): Array<[string, string]> => [
			[`access token ${index + 1}`, token.access_token],
			[`refresh token ${index + 1}`, token.refresh_token],
		]),
		...[...triggerSecrets].map((secret, index): [string, string] => [`trigger secret ${index + 1}`, secret]),
	];
	const records = await executions();
	// The workflows as n8n exports them, static data included, where the active trigger keeps its
	// registration; then the trigger's hook is removed (the suites after this one share the sandbox)
	// and n8n stopped, so that its log is whole.
	const exportFile = path.join(instance.userFolder, 'export-workflows.json');
	cliOutputs.push(await n8nCli(instance, ['export:workflow', '--all', `--output=${exportFile}`]));
	await setActive(TRIGGER_WORKFLOW, false);
	await server.stop();
	const exported = readFileSync(exportFile, 'utf8');
	expect(exported).toContain('"secretDigest"');
	const places: Array<[string, string]> = [
		['the n8n server log', server.log()],
		['the workflows n8n exports', exported],
		...cliOutputs.map((output, index): [string, string] => [
			`n8n command ${index + 1}'s output`,
			`${output.stdout}\n${output.stderr}`,
		]),
		...answers.map((answer, index): [string, string] => [`answer ${index + 1}`, answer]),
	];
	for (const execution of records) {
		places.push([`execution ${execution.id}`, JSON.stringify(execution)]);
		const resultData = execution.data?.resultData;
		if (resultData?.error) places.push([`execution ${execution.id}'s error`, JSON.stringify(resultData.error)]);
		for (const [node, runs] of Object.entries(resultData?.runData ?? {})) {
			const items = runs.flatMap((nodeRun) => (nodeRun.data?.main ?? []).flat());
			items.forEach((item, index) =>
				places.push([`execution ${execution.id}, ${node}, item ${index}`, JSON.stringify(item)]),
			);
		}
	}
	const found = places.flatMap(([place, text]) =>
		secrets.filter(([, secret]) => occurrences(text, secret) > 0).map(([name]) => `${name} in ${place}`),
	);
	const total = places.reduce(
		(sum, [, text]) => sum + secrets.reduce((count, [, secret]) => count + occurrences(text, secret), 0),
		0,
	);
	console.log(
		`[secrets] n8n ${instance.n8n.version}: ${secrets.length} secrets (${issued.data.length} tokens issued) looked for in ` +
			`${places.length} places (${records.length} execution records, the workflow export, ${1 + cliOutputs.length} n8n process logs, ` +
			`${answers.length} answers): ${total} occurrences`,
	);
	expect(records.length).toBeGreaterThanOrEqual(FAULT_RUNS.length + 2);
	expect(issued.data.length).toBeGreaterThan(1);
	expect(found).toEqual([]);
	expect(total).toBe(0);
}, 120_000);
