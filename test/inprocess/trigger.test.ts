import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { JOURNAL_KEY } from '../../nodes/AgencyCrmTrigger/memory/scope';
import { apiRequest } from '../../nodes/shared/transport';
import type { FakeContextOptions } from '../support/fakeN8n';
import { StoredStaticData, activateWebhook } from '../support/fakeN8n';
import { waitFor } from '../support/waitFor';
import type { InProcessRun } from '../support/inprocess/context';
import { credentialsOf, inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';

/**
 * The trigger against the sandbox, without n8n: activation registers a real hook, and the sandbox
 * delivers to a local HTTP server that hands each delivery to the trigger the way n8n does (static
 * data loaded before, saved after). Requests go over HTTP through the real credential. The
 * "workflow" started by a delivery is a function that writes back to the customer.
 */
const NODE_NAME = 'Agency CRM Trigger';
// One retry: a delivery fails twice, then its hook is suspended.
const h = useSandbox({ deliveryRetryDelaysMs: [50] });
let receiver: http.Server;
let webhookUrl: string;
/** The credential helpers every context of the test shares (the real credential, over HTTP). */
let credentialHelpers: InProcessRun['credentialHelpers'];
/** The context the "workflow" sends its own requests from, with the same credential. */
let workflowContext: IExecuteFunctions;

const stored = new StoredStaticData();
let parameters: Record<string, unknown> = {};
/** While true, the receiver answers 503, as an n8n that is down. */
let receiverDown = false;
const started: IDataObject[] = [];
const failures: Error[] = [];
let workflow: (item: IDataObject) => Promise<void> = async () => {};
let handled = 0;
let journals = 0;

const contextOptions = (extra: FakeContextOptions): FakeContextOptions => ({
	...extra,
	nodeName: NODE_NAME,
	webhookUrl,
	parameters,
	...credentialHelpers,
});

async function receive(request: http.IncomingMessage, response: http.ServerResponse, raw: string) {
	if (receiverDown) {
		response.writeHead(503).end();
		return;
	}
	const body = JSON.parse(raw) as IDataObject;
	const delivery = contextOptions({
		mode: 'webhook',
		body,
		headers: request.headers as Record<string, string>,
		onResponse: (statusCode, body) =>
			response.writeHead(statusCode ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
	});
	try {
		const { result } = await stored.around(delivery, async (fake) => new AgencyCrmTrigger().webhook.call(fake.webhook));
		for (const item of result.workflowData?.[0] ?? []) {
			started.push(item.json);
			await workflow(item.json);
		}
	} catch (error) {
		failures.push(error as Error);
	} finally {
		// The trigger's journals (what it remembers, written by a delivery of its own) are no change.
		if (body[JOURNAL_KEY]) journals++;
		else handled++;
	}
}

const hooks = async (): Promise<Array<{ id: number; url: string; status: string }>> =>
	(await h.admin('GET', '/hooks')).body.data;
const editCustomer = (id: number, changes: IDataObject) =>
	h.admin('POST', '/simulate-edit', { resource: 'customer', action: 'update', id, changes });

/** Waits until `count` deliveries were handled, then a little longer for any that should not come. */
async function handledCount(count: number) {
	await waitFor(`${count} handled deliveries`, () => (handled >= count ? true : undefined));
	await new Promise((resolve) => setTimeout(resolve, 300));
	return handled;
}

const activate = () =>
	stored.around(contextOptions({ mode: 'trigger' }), async (fake) =>
		activateWebhook(new AgencyCrmTrigger(), fake.hook),
	);
const deactivate = () =>
	stored.around(contextOptions({ mode: 'trigger' }), async (fake) =>
		new AgencyCrmTrigger().webhookMethods.default.delete.call(fake.hook),
	);

beforeAll(async () => {
	receiver = http.createServer((request, response) => {
		let raw = '';
		request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
		request.on('end', () => void receive(request, response, raw));
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook/3f1c/webhook`;
	const run = inProcessContext(credentialsOf(h.sandbox), []);
	workflowContext = run.context;
	credentialHelpers = run.credentialHelpers;
});

afterAll(async () => {
	await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
	started.length = 0;
	failures.length = 0;
	handled = 0;
	workflow = async () => {};
});

afterEach(async () => {
	await deactivate();
	expect(failures).toEqual([]);
});

test('a hook the sandbox suspended after failed deliveries comes back on the next activation', async () => {
	parameters = { events: ['CUSTOMER_UPDATE'], fetchFullRecord: false };
	await activate();
	receiverDown = true;
	await editCustomer(10001, { firstname: 'Down 1' });
	await editCustomer(10001, { firstname: 'Down 2' });
	const [suspended] = await waitFor('the suspension', async () => {
		const current = await hooks();
		return current[0]?.status === 'suspended' ? current : undefined;
	});
	receiverDown = false;

	await activate();
	expect(await hooks()).toEqual([expect.objectContaining({ id: suspended.id, url: webhookUrl, status: 'active' })]);
	await editCustomer(10001, { firstname: 'Back' });
	await waitFor('the delivery after reactivation', () => (started.length ? true : undefined));
	expect(started).toEqual([expect.objectContaining({ event_type: 'CUSTOMER_UPDATE', resource_id: 10001 })]);
});

test('a product update comes with the related data asked for: criteria and photos, as production fetches them', async () => {
	parameters = {
		events: ['PRODUCT_UPDATE'],
		fetchFullRecord: true,
		productFetch: ['criteres_text', 'criteres_number', 'products_photos'],
	};
	await activate();
	await h.admin('POST', '/simulate-edit', {
		resource: 'product',
		action: 'update',
		id: 5001,
		changes: { criteria: [{ id: 'Titre', value: 'Renovated' }] },
	});
	await waitFor('the delivery', () => (started.length ? true : undefined));
	const record = started[0].record as IDataObject;
	expect(record).toMatchObject({ id: 5001 });
	expect(record.criteres_text).toContainEqual({
		critere_id: 22,
		critere_name: 'Titre de l’annonce',
		critere_value: 'Renovated',
	});
	expect(Object.keys(record)).toEqual(expect.arrayContaining(['criteres_text', 'criteres_number', 'products_photos']));
});

test('a workflow that writes back what it received runs once; the echo of its write starts nothing', async () => {
	parameters = { events: ['CUSTOMER_UPDATE'], fetchFullRecord: true, skipUnchangedRecords: true };
	workflow = async (item) => {
		// The sandbox's updated_at has whole seconds: waiting for the next one makes the write move it.
		await new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));
		const record = item.record as IDataObject;
		const path = `/customers/${String(record.customers_id)}`;
		await apiRequest(workflowContext, {
			method: 'PATCH',
			idempotent: false,
			path,
			body: { firstname: record.firstname },
		});
	};
	await activate();
	await editCustomer(10002, { firstname: 'Loop' });
	expect(await handledCount(2)).toBe(2);
	expect(started).toHaveLength(1);
	expect(started[0]).toMatchObject({ resource_id: 10002, record: { firstname: 'Loop' } });
	const written = (await h.admin('GET', '/records/customer/10002')).body;
	expect(written.data.updated_at).not.toBe((started[0].record as IDataObject).updated_at);

	await editCustomer(10002, { firstname: 'Loop again' });
	expect(await handledCount(4)).toBe(4);
	expect(started).toHaveLength(2);
});

interface LogEntry {
	attempt: number;
	outcome: string;
	status: number | null;
	resource_id: number;
	event_type: string;
}
const deliveryLog = async (): Promise<LogEntry[]> => (await h.admin('GET', '/deliveries?limit=2000')).body.data;

test('a delivery acknowledged late is sent again by the sandbox, as production does; the repeat starts nothing', async () => {
	parameters = { events: ['CUSTOMER_UPDATE'], fetchFullRecord: false, dropRepeatedDeliveries: true };
	await activate();
	await h.admin('POST', '/reset');
	await h.admin('POST', '/deliveries/late-acks', { count: 1 });
	await editCustomer(10011, { firstname: 'Late' });
	expect(await handledCount(2)).toBe(2);
	expect(started).toEqual([expect.objectContaining({ event_type: 'CUSTOMER_UPDATE', resource_id: 10011 })]);
	// What the first delivery taught was written by a journal through the receiver, as n8n takes one.
	await waitFor('the journal', () => (journals > 0 ? true : undefined));
	expect((await deliveryLog()).map((entry) => [entry.attempt, entry.outcome])).toEqual([
		[1, 'failed'],
		[2, 'delivered'],
	]);

	// A change between two deliveries is never a repeat.
	await editCustomer(10011, { firstname: 'Later' });
	expect(await handledCount(3)).toBe(3);
	expect(started).toHaveLength(2);
});

test('a deleted property starts the workflow once, with its id; the 404 of its fetch is the answer expected', async () => {
	parameters = { events: ['PRODUCT_DELETE'], fetchFullRecord: true, dropRepeatedDeliveries: true };
	await activate();
	await h.admin('POST', '/simulate-edit', { resource: 'product', action: 'delete', id: 5030 });
	await handledCount(1);
	expect(started).toEqual([
		expect.objectContaining({ event_type: 'PRODUCT_DELETE', resource_id: 5030, deleted: true, record: null }),
	]);
});

test('contacts created while the hook was suspended (the API does not say so) are replayed once at the next activation, and not again', async () => {
	parameters = { events: ['CUSTOMER_CREATE'], fetchFullRecord: true, dropRepeatedDeliveries: true, catchUp: true };
	// A workflow activated for the first time: followed from now.
	stored.data = {};
	await activate();
	receiverDown = true;
	const created = async (lastname: string) =>
		(await h.admin('POST', '/simulate-edit', { resource: 'customer', action: 'create', changes: { lastname } })).body
			.data.customers_id as number;
	const first = await created('Missed One');
	await waitFor('the suspension', async () => ((await hooks())[0]?.status === 'suspended' ? true : undefined));
	const second = await created('Missed Two');
	receiverDown = false;

	await activate();
	await waitFor('the replays', () => (started.length >= 2 ? true : undefined), 20_000);
	await new Promise((resolve) => setTimeout(resolve, 500));
	expect(started.map((item) => [item.resource_id, item.caught_up, (item.record as IDataObject).lastname])).toEqual([
		[second, true, 'Missed Two'],
		[first, true, 'Missed One'],
	]);
	// The next activation looks again from the watermark, less the margin: what was taken starts nothing.
	await activate();
	await new Promise((resolve) => setTimeout(resolve, 3000));
	expect(started).toHaveLength(2);
}, 30_000);
