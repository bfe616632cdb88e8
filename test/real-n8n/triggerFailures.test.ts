import { randomUUID } from 'node:crypto';

import type { N8nInstance, N8nProcess } from '../../tools/n8n/launcher';
import { importJson, publicApi, startServer } from '../../tools/n8n/launcher';
import { chainedWorkflow, sandboxCredential, triggerNode } from '../../tools/n8n/workflows';
import { testContext } from '../support/real-n8n/context';
import type { Execution, PublicApi } from '../support/real-n8n/executions';
import { executionsOf, finished, nodeOutput, setActive } from '../support/real-n8n/executions';
import { admin, contactCreatedInCrm, deactivateKeepingHook, hooksOf } from '../support/sandbox/admin';
import { waitFor } from '../support/waitFor';

/**
 * Issue 33: the trigger (version 2, its defaults) under production's failure modes, in real n8n: a
 * record gone, a catch-up that fails or is interrupted, a burst of 40. The sandbox delivers as
 * production does (retries after 1, 2 and 3 s here, then suspends the hook).
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credTrigFail0001', origin, client('demo-client'));
const SECRET_HEADER = 'x-agency-crm-secret';
const TRIGGER = 'Agency CRM Trigger';

const workflow = (id: string, webhookId: string, events: string[]) =>
	chainedWorkflow(id, [{ ...triggerNode(credential, webhookId, { events }), typeVersion: 2 }]);
const GONE = { id: 'wfTrigGone000001', webhookId: randomUUID(), events: ['CUSTOMER_UPDATE'] };
/** Property Updated and Deleted, not Created (issue 33: created properties were never replayed so). */
const CATCH_UP = {
	id: 'wfTrigCatchUp001',
	webhookId: randomUUID(),
	events: ['CUSTOMER_CREATE', 'PRODUCT_DELETE', 'PRODUCT_UPDATE'],
};
const BURST = { id: 'wfTrigBurst40001', webhookId: randomUUID(), events: ['CUSTOMER_UPDATE'] };

let server: N8nProcess;
let api: PublicApi;
const base = `http://127.0.0.1:${instance.port}/`;
const urlOf = (webhookId: string) => `${base}webhook/${webhookId}/webhook`;

async function start() {
	const withUrl: N8nInstance = { ...instance, env: { ...instance.env, WEBHOOK_URL: base } };
	server = await startServer(withUrl);
	api = await publicApi(server);
}

const activate = async (id: string, webhookId: string) => {
	await setActive(api, id, true, server);
	return await waitFor('the hook', async () => {
		const hook = (await hooksOf(origin)).find((candidate) => candidate.url === urlOf(webhookId));
		return hook?.status === 'active' ? hook : undefined;
	});
};
const itemOf = (execution: Execution) => nodeOutput(execution, TRIGGER)![0];
/** The workflow's executions once `count` finished, and a while later (time for one too many to show). */
async function runs(id: string, count: number, timeoutMs = 60_000) {
	await waitFor(
		`${count} finished execution(s) of ${id}`,
		async () => {
			const all = await executionsOf(api, id);
			return all.length >= count && all.every(finished) ? true : undefined;
		},
		timeoutMs,
	);
	await new Promise((resolve) => setTimeout(resolve, 3000));
	return await executionsOf(api, id);
}
const catchUpLogs = () => server.log().match(/Agency CRM Trigger: catch-up of workflow[^\n]*/g) ?? [];

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		workflow(GONE.id, GONE.webhookId, GONE.events),
		workflow(CATCH_UP.id, CATCH_UP.webhookId, CATCH_UP.events),
		workflow(BURST.id, BURST.webhookId, BURST.events),
	]);
	await admin(origin, 'POST', '/reset');
	await start();
});

afterAll(async () => {
	await server?.stop();
});

test('a delivery for a record deleted meanwhile (404) is answered 200 and starts one execution saying so; nothing running, no error logged', async () => {
	const hook = await activate(GONE.id, GONE.webhookId);
	const logBefore = server.log().length;
	const answer = await fetch(urlOf(GONE.webhookId), {
		method: 'POST',
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: hook.headers![SECRET_HEADER] },
		body: JSON.stringify({ event_type: 'CUSTOMER_UPDATE', resource_id: 99999999 }),
	});
	expect(answer.status).toBe(200);
	const [run] = await runs(GONE.id, 1);
	expect(await executionsOf(api, GONE.id)).toHaveLength(1);
	expect(run.status).toBe('success');
	expect(itemOf(run)).toMatchObject({ resource_id: 99999999, gone: true, record: null });
	const logged = server.log().slice(logBefore);
	expect(logged).not.toMatch(/Workflow could not be started|Cannot set headers|Error in workflow/);
	await setActive(api, GONE.id, false, server);
});

describe('the catch-up (Property Updated, Property Deleted and Contact Created chosen)', () => {
	const missed: { contact?: number; property?: number } = {};
	const replayedIds = async () =>
		(await executionsOf(api, CATCH_UP.id))
			.filter((run) => itemOf(run).caught_up === true)
			.map((run) => itemOf(run).resource_id);

	beforeAll(async () => {
		await activate(CATCH_UP.id, CATCH_UP.webhookId);
		// n8n stops taking deliveries (the workflow deactivated, its hook left registered): the CRM's
		// changes fail until the hook is suspended.
		await deactivateKeepingHook(origin, () => setActive(api, CATCH_UP.id, false, server));
		missed.contact = await contactCreatedInCrm(origin, { lastname: 'Missed Meanwhile' });
		const created = await admin<{ data: { id?: number; product_id?: number } }>(origin, 'POST', '/simulate-edit', {
			resource: 'product',
			action: 'create',
			changes: { criteria: [{ id: 'Prix', value: 250000 }] },
		});
		missed.property = created.data.id ?? created.data.product_id;
		await waitFor('the suspension', async () => {
			const hook = (await hooksOf(origin)).find((candidate) => candidate.url === urlOf(CATCH_UP.webhookId));
			return hook?.status === 'suspended' ? true : undefined;
		});
	});

	test('refused the property search (a missing right), it replays the contact, keeps the properties owed and says so', async () => {
		await admin(origin, 'POST', '/faults', { client_id: 'demo-client', forbidden_routes: ['POST /products/search'] });
		await activate(CATCH_UP.id, CATCH_UP.webhookId);
		const said = await waitFor('the catch-up said', () => catchUpLogs()[0], 60_000);
		expect(said).toMatch(
			/could not look \(.*403.*\), nothing replayed; contacts created above \d+: replayed 1 \(CUSTOMER_CREATE \d+\)/,
		);
		expect(server.log()).toMatch(
			/What was not replayed stays owed: the next activation or n8n start looks for it again/,
		);
		await runs(CATCH_UP.id, 1);
		expect(await replayedIds()).toEqual([missed.contact]);
		await admin(origin, 'DELETE', '/faults');
	});

	test('the next activation replays the property created meanwhile, as an update, and the contact not again', async () => {
		const before = (await executionsOf(api, CATCH_UP.id)).length;
		await setActive(api, CATCH_UP.id, false, server);
		await activate(CATCH_UP.id, CATCH_UP.webhookId);
		await waitFor('the second catch-up', () => catchUpLogs()[1], 60_000);
		await runs(CATCH_UP.id, before + 1);
		const replayed = await replayedIds();
		// The window starts 15 minutes before the last delivery: properties other tests changed come too.
		expect(replayed.filter((id) => id === missed.contact)).toHaveLength(1);
		expect(replayed.filter((id) => id === missed.property)).toHaveLength(1);
		expect(new Set(replayed).size).toBe(replayed.length);
		const property = (await executionsOf(api, CATCH_UP.id))
			.map(itemOf)
			.find((item) => item.resource_id === missed.property);
		expect(property).toMatchObject({ event_type: 'PRODUCT_UPDATE', caught_up: true, record: { id: missed.property } });
		// Closed: a third activation replays nothing.
		const settled = (await executionsOf(api, CATCH_UP.id)).length;
		await setActive(api, CATCH_UP.id, false, server);
		await activate(CATCH_UP.id, CATCH_UP.webhookId);
		await new Promise((resolve) => setTimeout(resolve, 6000));
		expect(await executionsOf(api, CATCH_UP.id)).toHaveLength(settled);
	});

	test('a catch-up interrupted by stopping n8n is replayed after the next start, each change once', async () => {
		await deactivateKeepingHook(origin, () => setActive(api, CATCH_UP.id, false, server));
		const contacts = [
			await contactCreatedInCrm(origin, { lastname: 'Missed Before Stop 1' }),
			await contactCreatedInCrm(origin, { lastname: 'Missed Before Stop 2' }),
		];
		await waitFor('the suspension', async () => {
			const hook = (await hooksOf(origin)).find((candidate) => candidate.url === urlOf(CATCH_UP.webhookId));
			return hook?.status === 'suspended' ? true : undefined;
		});
		const before = (await executionsOf(api, CATCH_UP.id)).length;
		// Each request to the API takes 2 s: n8n stops once the first contact is replayed, the second under way.
		await admin(origin, 'POST', '/faults', { client_id: 'demo-client', latency_ms: 2000 });
		await activate(CATCH_UP.id, CATCH_UP.webhookId);
		await waitFor(
			'the first replay',
			async () => ((await executionsOf(api, CATCH_UP.id)).length > before ? true : undefined),
			60_000,
		);
		await server.stop();
		await admin(origin, 'DELETE', '/faults');
		await start();
		// n8n 1.x calls the trigger at its start; n8n 2.x calls nothing, and the first delivery resumes it.
		const after = await contactCreatedInCrm(origin, { lastname: 'After The Start' });
		await waitFor(
			'the catch-up after the start',
			() => catchUpLogs().find((line) => /n8n started|resumed/.test(line)),
			90_000,
		);
		await runs(CATCH_UP.id, before + 3, 90_000);
		const all = await executionsOf(api, CATCH_UP.id);
		// Newest first: the executions since the stop.
		const ids = all.slice(0, all.length - before).map((run) => itemOf(run).resource_id);
		for (const id of [...contacts, after]) expect(ids.filter((other) => other === id)).toHaveLength(1);
		expect(await executionsOf(api, CATCH_UP.id)).toHaveLength(before + 3);
		await setActive(api, CATCH_UP.id, false, server);
	});
});

test('40 deliveries at once, each for another contact: each answered 200 within production’s 10 s, one execution each', async () => {
	const hook = await activate(BURST.id, BURST.webhookId);
	const ids = Array.from({ length: 40 }, (_, index) => 10051 + index);
	const burst = await admin<{ data: { deliveries: Array<{ outcome: string; ack_ms: number | null }> } }>(
		origin,
		'POST',
		'/deliveries/burst',
		{ hook_id: hook.id, count: ids.length, event_type: 'CUSTOMER_UPDATE', resource_ids: ids },
	);
	const acks = burst.data.deliveries.map((delivery) => delivery.ack_ms ?? Infinity).sort((a, b) => a - b);
	console.log(
		`[issue 33] n8n ${instance.n8n.version}: 40 deliveries at once, acknowledged in p50 ${acks[19]} ms, max ${acks[39]} ms`,
	);
	// The sandbox counts a delivery delivered only when answered 200 within its 10 s.
	expect(burst.data.deliveries.map((delivery) => delivery.outcome)).toEqual(ids.map(() => 'delivered'));
	const all = await runs(BURST.id, ids.length);
	expect(all.map((run) => itemOf(run).resource_id).sort()).toEqual(ids);
	await setActive(api, BURST.id, false, server);
});
