import { randomUUID } from 'node:crypto';

import { waitFor } from '../support/waitFor';
import { testContext } from '../support/real-n8n/context';
import {
	admin,
	contactCreatedInCrm,
	deactivateKeepingHook,
	editInCrm,
	hooksOf,
	hooksSettleTo as settleTo,
	routeCount,
} from '../support/sandbox/admin';
import type { PublicApi } from '../support/real-n8n/executions';
import { executionsOf, finished, nodeOutput, setActive } from '../support/real-n8n/executions';
import type { N8nInstance, N8nProcess } from '../../tools/n8n/launcher';
import { importJson, NODE_TYPES, publicApi, restClient, startServer } from '../../tools/n8n/launcher';
import { byId, chainedWorkflow, crmNode, sandboxCredential, triggerNode } from '../../tools/n8n/workflows';

/**
 * Issue 5: the trigger's webhook lifecycle and deliveries inside a running n8n, against the
 * sandbox. One workflow, activated and deactivated through n8n's public API.
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credTrigger00001', origin, client('demo-client'));
const WORKFLOW_ID = 'wfTrigger0000001';
const WEBHOOK_ID = randomUUID();
const SECRET_HEADER = 'x-agency-crm-secret';

let server: N8nProcess;
let api: PublicApi;

const hooks = () => hooksOf(origin);
const requestsTo = (route: string) => routeCount(origin, route);
const hooksSettleTo = (count: number, url?: string) => settleTo(origin, count, url);
const webhookUrl = (base: string) => `${base}webhook/${WEBHOOK_ID}/webhook`;

const executions = (workflowId = WORKFLOW_ID) => executionsOf(api, workflowId);

async function start(webhookBase: string): Promise<N8nInstance> {
	const withUrl: N8nInstance = { ...instance, env: { ...instance.env, WEBHOOK_URL: webhookBase } };
	server = await startServer(withUrl);
	api = await publicApi(server);
	return withUrl;
}

const activate = (workflowId = WORKFLOW_ID) => setActive(api, workflowId, true, server);
const deactivate = (workflowId = WORKFLOW_ID) => setActive(api, workflowId, false, server);

/**
 * Issue 12, "a trigger that does not loop": a second workflow writes back to the customer that
 * started it. Its PATCH makes the API send CUSTOMER_UPDATE again; Skip Unchanged Records stops it.
 * Its trigger is of version 1, as in workflows made before 1.1 (the other workflow's is 1.1).
 */
const LOOP_WORKFLOW_ID = 'wfTriggerLoop001';
const LOOP_WEBHOOK_ID = randomUUID();
const loopWorkflow = chainedWorkflow(LOOP_WORKFLOW_ID, [
	{
		...triggerNode(credential, LOOP_WEBHOOK_ID, {
			events: ['CUSTOMER_UPDATE'],
			fetchFullRecord: true,
			skipUnchangedRecords: true,
			ignoredFields: 'updated_at',
			dropRepeatedDeliveries: true,
		}),
		typeVersion: 1,
	},
	// The sandbox's updated_at has whole seconds: waiting makes the write-back move it.
	{
		name: 'Let A Second Pass',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		parameters: { resume: 'timeInterval', amount: 1.2, unit: 'seconds' },
	},
	crmNode('Write Back', credential, {
		resource: 'customer',
		operation: 'update',
		customerId: byId('={{ $json.resource_id }}'),
		additionalFields: { firstname: '={{ $json.record.firstname }}' },
	}),
]);

const base1 = `http://127.0.0.1:${instance.port}/`;
const base2 = `http://localhost:${instance.port}/`;

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		chainedWorkflow(WORKFLOW_ID, [
			triggerNode(credential, WEBHOOK_ID, {
				events: ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_CREATE', 'PRODUCT_UPDATE'],
				fetchFullRecord: true,
			}),
		]),
		loopWorkflow,
	]);
	await admin(origin, 'POST', '/reset');
	await start(base1);
});

afterAll(async () => {
	await server?.stop();
});

test('activation registers exactly one hook, with a secret header, for the selected events', async () => {
	await activate();
	const registered = await hooksSettleTo(1, webhookUrl(base1));
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(await hooks()).toHaveLength(1);
	expect(registered[0].url).toBe(webhookUrl(base1));
	expect([...registered[0].origines].sort()).toEqual([
		'CUSTOMER_CREATE',
		'CUSTOMER_UPDATE',
		'PRODUCT_CREATE',
		'PRODUCT_UPDATE',
	]);
	expect(registered[0].headers?.[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);
});

test.each([
	{
		resource: 'customer' as const,
		id: 10001,
		changes: { firstname: 'Delivered' },
		record: { customers_id: 10001, firstname: 'Delivered' },
		event: 'CUSTOMER_UPDATE',
	},
	{
		resource: 'product' as const,
		id: 5001,
		// A listing's price is one of its criteria, as production models a property.
		changes: { criteria: [{ id: 'Prix', value: 455000 }] },
		record: { id: 5001, price: 455000 },
		event: 'PRODUCT_UPDATE',
	},
])(
	'a $resource change starts exactly one execution that holds the full record',
	async ({ resource, id, changes, record, event }) => {
		const before = (await executions()).length;
		await editInCrm(origin, resource, id, changes);
		const run = await waitFor('the execution', async () => {
			const all = await executions();
			return all.length > before && finished(all[0]) ? all : undefined;
		});
		expect(run.length).toBe(before + 1);
		expect(run[0].status).toBe('success');
		const [item] = nodeOutput(run[0], 'Agency CRM Trigger')!;
		expect(item).toMatchObject({
			event_type: event,
			resource_type: resource,
			resource_id: id,
			record,
		});
		expect(item.notification).toMatchObject({ event_type: event, resource_id: id });
	},
);

test('a forged delivery (missing or wrong secret) gets 401 and starts nothing', async () => {
	const before = (await executions()).length;
	const forged = { event_type: 'CUSTOMER_UPDATE', resource_type: 'customer', resource_id: 1 };
	const send = (headers: Record<string, string>) =>
		fetch(webhookUrl(base1), {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(forged),
		});
	expect((await send({})).status).toBe(401);
	expect((await send({ [SECRET_HEADER]: 'f'.repeat(64) })).status).toBe(401);
	await new Promise((resolve) => setTimeout(resolve, 1500));
	expect((await executions()).length).toBe(before);
});

test('deactivation removes the hook', async () => {
	await deactivate();
	expect(await hooksSettleTo(0)).toEqual([]);
});

test('10 activate/deactivate cycles leave 0 hooks', async () => {
	const posted = await requestsTo('POST /hooks');
	for (let cycle = 0; cycle < 10; cycle++) {
		await activate();
		await hooksSettleTo(1, webhookUrl(base1));
		await deactivate();
		await hooksSettleTo(0);
	}
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(await hooks()).toHaveLength(0);
	expect(await requestsTo('POST /hooks')).toBe(posted + 10);
	expect(await requestsTo('DELETE /hooks/{hookId}')).toBeGreaterThanOrEqual(10);
});

/**
 * Deactivates while the API refuses the DELETE: the trigger logs the failure and keeps its
 * registration, so the next activation finds the hook and updates it in place.
 */
async function deactivateWhileApiFails() {
	await deactivateKeepingHook(origin, () => deactivate());
	await waitFor('the logged failure', async () =>
		server.log().includes('Agency CRM Trigger: could not delete webhook') ? true : undefined,
	);
}

test("after n8n's webhook URL changes, activating again updates the same hook with PUT instead of adding one", async () => {
	await activate();
	const [first] = await hooksSettleTo(1, webhookUrl(base1));
	await deactivateWhileApiFails();
	expect(await hooks()).toEqual([expect.objectContaining({ id: first.id, url: webhookUrl(base1) })]);
	await server.stop();

	const posts = await requestsTo('POST /hooks');
	const puts = await requestsTo('PUT /hooks/{hookId}');
	await start(base2);
	await activate();
	const [moved] = await hooksSettleTo(1, webhookUrl(base2));
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(await hooks()).toHaveLength(1);
	expect(moved.id).toBe(first.id);
	expect(await requestsTo('POST /hooks')).toBe(posts);
	expect(await requestsTo('PUT /hooks/{hookId}')).toBe(puts + 1);
});

test('a hook suspended by failed deliveries is reactivated on the next activation', async () => {
	await deactivateWhileApiFails();
	// The workflow is inactive, so n8n refuses every delivery until the sandbox suspends the hook.
	for (let edit = 0; edit < 6; edit++) {
		await editInCrm(origin, 'customer', 10002, { lastname: `Fail ${edit}` });
	}
	const suspended = await waitFor('the suspension', async () => {
		const [hook] = await hooks();
		return hook?.status === 'suspended' ? hook : undefined;
	});

	await activate();
	const [reactivated] = await hooksSettleTo(1, webhookUrl(base2));
	expect(reactivated.id).toBe(suspended.id);
	expect(reactivated.status).toBe('active');

	const before = (await executions()).length;
	await editInCrm(origin, 'customer', 10002, { lastname: 'Back' });
	await waitFor('a delivery after reactivation', async () => ((await executions()).length > before ? true : undefined));
	await deactivate();
	expect(await hooksSettleTo(0)).toEqual([]);
});

test('"Listen for test event" uses a hook of its own, runs on one change, then removes it', async () => {
	const rest = await restClient(server);
	// The editor sends the workflow it shows (n8n 1.x requires it).
	const { data: workflowData } = await rest('GET', `/workflows/${WORKFLOW_ID}`);
	const listening = await rest('POST', `/workflows/${WORKFLOW_ID}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'Agency CRM Trigger' },
	});
	expect(listening.status).toBe(200);
	const testUrl = `${base2}webhook-test/${WEBHOOK_ID}/webhook`;
	const [testHook] = await hooksSettleTo(1, testUrl);
	expect(testHook.headers?.[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);

	await editInCrm(origin, 'customer', 10009, { firstname: 'Test' });
	const deliveries = await waitFor('the test delivery', async () => {
		const log = await admin<{ data: Array<{ url: string; status?: number }> }>(origin, 'GET', '/deliveries?limit=20');
		const delivered = log.data.filter((delivery) => delivery.url === testUrl && delivery.status === 200);
		return delivered.length ? delivered : undefined;
	});
	expect(deliveries).toHaveLength(1);
	// n8n stops listening after the first event and calls the trigger's delete.
	expect(await hooksSettleTo(0)).toEqual([]);
});

interface DeliveryLogEntry {
	url: string;
	status: number | null;
	delivery_id: string;
	event_type: string;
	resource_id: number;
}

const deliveriesTo = async (url: string) =>
	(await admin<{ data: DeliveryLogEntry[] }>(origin, 'GET', '/deliveries?limit=100')).data.filter(
		(delivery) => delivery.url === url,
	);

/** Waits for `count` acknowledged deliveries to `url` and `runs` finished executions, then a while longer. */
async function settle(url: string, count: number, runs: number) {
	await waitFor(`${count} deliveries`, async () => {
		const acknowledged = (await deliveriesTo(url)).filter((delivery) => delivery.status === 200);
		return acknowledged.length >= count ? true : undefined;
	});
	await waitFor(`${runs} finished execution(s)`, async () => {
		return (await executions(LOOP_WORKFLOW_ID)).filter(finished).length >= runs;
	});
	// Time for a wrongly started execution to show.
	await new Promise((resolve) => setTimeout(resolve, 2000));
}

test('a workflow that writes back the values it received runs exactly once; a real change runs it once more; a repeated delivery is dropped', async () => {
	const loopUrl = `${base2}webhook/${LOOP_WEBHOOK_ID}/webhook`;
	await activate(LOOP_WORKFLOW_ID);
	await hooksSettleTo(1, loopUrl);
	const patches = await requestsTo('PATCH /customers/{customerId}');
	const edit = (firstname: string) => editInCrm(origin, 'customer', 10004, { firstname });

	await edit('Echo');
	// The edit's delivery, then the echo of the workflow's own PATCH, which starts nothing.
	await settle(loopUrl, 2, 1);
	let runs = await executions(LOOP_WORKFLOW_ID);
	expect(runs.map((run) => run.status)).toEqual(['success']);
	const [item] = runs[0].data!.resultData!.runData!['Agency CRM Trigger'][0].data!.main![0];
	expect(item.json).toMatchObject({ event_type: 'CUSTOMER_UPDATE', resource_id: 10004, record: { firstname: 'Echo' } });
	expect(await requestsTo('PATCH /customers/{customerId}')).toBe(patches + 1);
	expect(await deliveriesTo(loopUrl)).toHaveLength(2);
	// The echo's record differed in updated_at only.
	const written = await admin<{ data: { firstname: string; updated_at: string } }>(
		origin,
		'GET',
		'/records/customer/10004',
	);
	expect(written.data.firstname).toBe('Echo');
	expect(written.data.updated_at).not.toBe((item.json.record as { updated_at: string }).updated_at);

	await edit('Echo again');
	await settle(loopUrl, 4, 2);
	runs = await executions(LOOP_WORKFLOW_ID);
	expect(runs).toHaveLength(2);
	expect(await requestsTo('PATCH /customers/{customerId}')).toBe(patches + 2);
	expect(await deliveriesTo(loopUrl)).toHaveLength(4);

	// Agency CRM sends the last delivery again (its answer came late, say): production's deliveries
	// carry no id, so the record is fetched, found unchanged since, and nothing starts.
	const fetches = await requestsTo('GET /customers/{customerId}');
	const [hook] = await hooks();
	const repeated = await fetch(loopUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: hook.headers![SECRET_HEADER] },
		body: JSON.stringify({ event_type: 'CUSTOMER_UPDATE', resource_id: 10004 }),
	});
	// Answered at once, before the record is read; the log says it was a repeat.
	expect(repeated.status).toBe(200);
	expect(await repeated.json()).toEqual({ received: true });
	await waitFor('the repeat said', () =>
		server.log().includes('CUSTOMER_UPDATE customer 10004 repeats a delivery already taken') ? true : undefined,
	);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(await executions(LOOP_WORKFLOW_ID)).toHaveLength(2);
	expect(await requestsTo('GET /customers/{customerId}')).toBe(fetches + 1);

	await deactivate(LOOP_WORKFLOW_ID);
	expect(await hooksSettleTo(0)).toEqual([]);
});

/**
 * Issue 28: the trigger on production's delivery contract (version 2, its defaults: Drop Repeated
 * Deliveries and the catch-up on). The sandbox retries deliveries n8n did not acknowledge, after
 * 1, 2 and 3 s here, and suspends the hook when the last retry fails.
 */
const PRODUCTION_WORKFLOW_ID = 'wfTriggerProd001';
const PRODUCTION_WEBHOOK_ID = randomUUID();
const ANSWER_WORKFLOW_ID = 'wfTriggerAnswer1';
const ANSWER_WEBHOOK_ID = randomUUID();

interface Attempt {
	url: string;
	attempt: number;
	outcome: string;
	status: number | null;
	event_type: string;
	resource_id: number;
}
const attemptsTo = async (url: string) =>
	(await admin<{ data: Attempt[] }>(origin, 'GET', '/deliveries?limit=2000')).data.filter((entry) => entry.url === url);
const repeatsLogged = () => server.log().split('repeats a delivery already taken').length - 1;

describe('on production’s delivery contract (issue 28)', () => {
	const url = () => `${base2}webhook/${PRODUCTION_WEBHOOK_ID}/webhook`;
	const productionRuns = () => executions(PRODUCTION_WORKFLOW_ID);
	const runs = async (count: number) => {
		const all = await waitFor(`${count} finished execution(s)`, async () => {
			const found = await productionRuns();
			return found.length >= count && found.every(finished) ? found : undefined;
		});
		// Time for a wrongly started execution to show.
		await new Promise((resolve) => setTimeout(resolve, 2000));
		return all;
	};
	const firstItem = (run: { data?: unknown }) =>
		nodeOutput(run as Parameters<typeof nodeOutput>[0], 'Agency CRM Trigger')![0];

	beforeAll(async () => {
		await importJson(instance, 'workflow', [
			chainedWorkflow(PRODUCTION_WORKFLOW_ID, [
				{
					...triggerNode(credential, PRODUCTION_WEBHOOK_ID, {
						// Events from an expression, as a comma-separated text.
						events: '={{ "CUSTOMER_CREATE, CUSTOMER_UPDATE, PRODUCT_DELETE" }}',
						fetchFullRecord: true,
					}),
					typeVersion: 2,
				},
			]),
			chainedWorkflow(ANSWER_WORKFLOW_ID, [
				{
					...triggerNode(credential, ANSWER_WEBHOOK_ID, {
						events: ['CUSTOMER_UPDATE'],
						fetchFullRecord: true,
						answer: 'workflow',
					}),
					typeVersion: 2,
				},
				{
					name: 'Agency CRM Answer',
					type: NODE_TYPES.answer,
					typeVersion: 1,
					parameters: { answer: 'refuse', reason: '={{ "No e-mail address for " + $json.record.lastname }}' },
				},
			]),
		]);
		await server.stop();
		await start(base2);
	});

	test('Events given by an expression subscribe to each event of the text', async () => {
		await activate(PRODUCTION_WORKFLOW_ID);
		const [hook] = await hooksSettleTo(1, url());
		expect([...hook.origines].sort()).toEqual(['CUSTOMER_CREATE', 'CUSTOMER_UPDATE', 'PRODUCT_DELETE']);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	});

	test('a delivery acknowledged late is sent again by the sandbox: exactly one execution; a change between two deliveries starts a second', async () => {
		const repeatsBefore = repeatsLogged();
		await admin(origin, 'POST', '/deliveries/late-acks', { count: 1 });
		await editInCrm(origin, 'customer', 10021, { firstname: 'Late' });
		await waitFor('the retry acknowledged', async () => {
			const attempts = (await attemptsTo(url())).filter((entry) => entry.resource_id === 10021);
			return attempts.some((entry) => entry.attempt === 2 && entry.outcome === 'delivered') ? attempts : undefined;
		});
		const [run] = await runs(1);
		expect(await productionRuns()).toHaveLength(1);
		expect(firstItem(run)).toMatchObject({
			event_type: 'CUSTOMER_UPDATE',
			resource_id: 10021,
			record: { firstname: 'Late' },
		});
		expect(repeatsLogged()).toBe(repeatsBefore + 1);

		await editInCrm(origin, 'customer', 10021, { firstname: 'Later' });
		const [second] = await runs(2);
		expect(firstItem(second)).toMatchObject({ resource_id: 10021, record: { firstname: 'Later' } });
		console.log(
			`[issue 28] n8n ${instance.n8n.version}: 2 changes, ${(await attemptsTo(url())).length} deliveries sent, 2 executions, ${repeatsLogged() - repeatsBefore} repeat dropped, 0 changes lost`,
		);
	});

	test('the memory is in the database: after n8n restarts, Agency CRM sending the last delivery again starts nothing', async () => {
		await server.stop();
		await start(base2);
		const hook = await waitFor('the hook after the restart', async () => {
			const found = (await hooks()).find((candidate) => candidate.url === url());
			return found?.status === 'active' ? found : undefined;
		});
		const repeated = await waitFor('n8n serving the webhook', async () => {
			const answer = await fetch(url(), {
				method: 'POST',
				headers: { 'content-type': 'application/json', [SECRET_HEADER]: hook.headers![SECRET_HEADER] },
				body: JSON.stringify({ event_type: 'CUSTOMER_UPDATE', resource_id: 10021 }),
			});
			return answer.status === 404 ? undefined : answer;
		});
		expect(await repeated.json()).toEqual({ received: true });
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(await productionRuns()).toHaveLength(2);
	});

	test('a deleted property starts one execution with its id, saying it is gone', async () => {
		await admin(origin, 'POST', '/simulate-edit', { resource: 'product', action: 'delete', id: 5044 });
		const [run] = await runs(3);
		expect(run.status).toBe('success');
		expect(firstItem(run)).toMatchObject({
			event_type: 'PRODUCT_DELETE',
			resource_id: 5044,
			deleted: true,
			record: null,
		});
	});

	test('a hook suspended while n8n could not take deliveries (production does not say so) comes back at activation, and the contacts created meanwhile are replayed once', async () => {
		// n8n stops: the CRM's deliveries fail until the hook is suspended.
		await server.stop();
		const created = (lastname: string) => contactCreatedInCrm(origin, { lastname });
		const missed = [await created('Missed Once'), await created('Missed Twice')];
		await waitFor('the suspension', async () => {
			const hook = (await hooks()).find((candidate) => candidate.url === url());
			return hook?.status === 'suspended' ? true : undefined;
		});
		await start(base2);
		await deactivate(PRODUCTION_WORKFLOW_ID);
		await activate(PRODUCTION_WORKFLOW_ID);
		const all = await runs(5);
		const replayed = all.slice(0, 2).map(firstItem);
		expect(replayed.map((item) => item.resource_id).sort()).toEqual([...missed].sort());
		expect(replayed.every((item) => item.caught_up === true && item.event_type === 'CUSTOMER_CREATE')).toBe(true);
		expect(server.log()).toMatch(/Agency CRM Trigger: registered webhook \d+ of workflow "[^"]+" for CUSTOMER_CREATE/);
		// Said once the replay wrote that it replayed all of it, a moment after the executions.
		const said =
			/Agency CRM Trigger: replay of workflow "[^"]+" \(the workflow was (activated|published or updated)\)/g;
		await waitFor('the replay said', () => server.log().match(said));
		expect(server.log().match(said)).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(await productionRuns()).toHaveLength(5);
		await deactivate(PRODUCTION_WORKFLOW_ID);
		expect(await hooksSettleTo(0)).toEqual([]);
	});

	test('Answer From the Workflow: an Agency CRM Answer node refuses the contact with a 422 and its reason; the CRM marks it errored', async () => {
		await activate(ANSWER_WORKFLOW_ID);
		const answerUrl = `${base2}webhook/${ANSWER_WEBHOOK_ID}/answer`;
		await hooksSettleTo(1, answerUrl);
		await new Promise((resolve) => setTimeout(resolve, 1000));
		await editInCrm(origin, 'customer', 10022, { firstname: 'Refused' });
		const [refusal] = await waitFor('the refusal', async () => {
			const attempts = await attemptsTo(answerUrl);
			return attempts.length ? attempts : undefined;
		});
		expect(refusal).toMatchObject({ status: 422, outcome: 'rejected', attempt: 1 });
		const { lastname } = (await admin<{ data: { lastname: string } }>(origin, 'GET', '/records/customer/10022')).data;
		const rejection = await admin<{ data: { reason: string; event_type: string } }>(
			origin,
			'GET',
			'/records/rejection/customer:10022',
		);
		expect(rejection.data).toMatchObject({
			reason: `No e-mail address for ${lastname}`,
			event_type: 'CUSTOMER_UPDATE',
		});
		const [run] = await waitFor('the execution', async () => {
			const all = await executions(ANSWER_WORKFLOW_ID);
			return all.length && finished(all[0]) ? all : undefined;
		});
		expect(run.status).toBe('success');
		await deactivate(ANSWER_WORKFLOW_ID);
		expect(await hooksSettleTo(0)).toEqual([]);
	});
});
