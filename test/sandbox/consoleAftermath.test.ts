import type { DeliveryLogEntry } from '../../sandbox/webhooks';
import { eventually, sleep, useSandbox } from '../support/sandbox/harness';
import { useReceiver } from '../support/sandbox/receiver';

/**
 * Issue 29, point 7: the console after a change that reached a webhook. The page the form leads to
 * waits for the workflow (it refreshes itself, saying so) until the workflow has acted, then shows
 * what it changed; each delivery links to the n8n execution it started; a page without webhooks,
 * or without deliveries, says why it is empty and what fills it. The "workflow" here is this test:
 * it answers the delivery (the receiver) and then writes through the API, as the lead-routing
 * example assigns an agent.
 */

/** What scripts/demo.ts gives the sandbox beside n8n: here, a link for every delivery to /ok. */
const executions = {
	of: (delivery: DeliveryLogEntry) =>
		delivery.url.endsWith('/ok') ? `http://n8n.test/workflow/w1/executions/${delivery.delivery_id}` : undefined,
};
// Production's 10 s to answer: a busy machine must not make the sandbox send a delivery again here.
const h = useSandbox({ deliveryTimeoutMs: 10_000, executions });
const receiver = useReceiver();
afterEach(async () => {
	await h.deleteAllHooks();
	receiver.clear();
});

const url = (path: string) => `${h.sandbox.origin}${path}`;
const open = async (path: string) => await (await fetch(url(path))).text();
const refreshes = (page: string) => /<meta http-equiv="refresh" content="2"/.test(page);
/** A page's text, tags removed and spaces collapsed. */
const textOf = (markup: string) =>
	markup
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.replace(/ ([.,:])/g, '$1')
		.trim();
const aftermath = (page: string) =>
	textOf(/<div class="progress" id="aftermath">([\s\S]*?)<\/div>/.exec(page)?.[1] ?? '');

/** A website lead received in the console; answers the page it leads to. */
async function receiveLead(lastname: string): Promise<{ location: string; customerId: number }> {
	const response = await fetch(url('/console/contacts'), {
		method: 'POST',
		body: new URLSearchParams({
			site: '1',
			lastname,
			email: `${lastname.toLowerCase()}@example.net`,
			agency_id: '101',
		}),
		redirect: 'manual',
	});
	expect(response.status).toBe(303);
	const location = response.headers.get('location')!;
	return { location, customerId: Number(/contacts\/(\d+)/.exec(location)![1]) };
}

test('after a lead, the contact page waits for the workflow, refreshing itself, then shows what it did, without a reload by hand', async () => {
	const hook = await h.api('POST', '/hooks', { body: { url: receiver.url('/ok'), origines: ['CUSTOMER_CREATE'] } });
	const { location, customerId } = await receiveLead('Aftermath');
	expect(new URL(location, 'http://console').searchParams.get('awaiting')).toMatch(
		new RegExp(`^CUSTOMER_CREATE ${customerId} \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
	);

	// Delivered, and the workflow has not acted yet.
	await eventually('the delivery', async () => receiver.received.length === 1);
	const waiting = await eventually('the delivery answered', async () => {
		const page = await open(location);
		return aftermath(page).includes('HTTP 200') && page;
	});
	expect(refreshes(waiting)).toBe(true);
	expect(aftermath(waiting)).toContain(`Webhook ${hook.body.data.id} answered HTTP 200 n8n execution.`);
	expect(aftermath(waiting)).toContain('Waiting for the workflow to act');
	expect(aftermath(waiting)).toContain('This page refreshes itself every 2 s.');

	// The workflow reads the agents and assigns one, as lead routing does: two requests.
	const [agent] = (await h.api('GET', '/users', { query: { agency_id: '101' } })).body.data as Array<{
		user_id: number;
	}>;
	expect((await h.api('PATCH', `/customers/${customerId}`, { body: { user_id: agent.user_id } })).status).toBe(204);
	expect(aftermath(await open(location))).toContain('The workflow is at work: 2 requests to the API so far.');
	await sleep(2100);
	const done = await open(location);
	expect(refreshes(done)).toBe(false);
	expect(aftermath(done)).toMatch(/The workflow has acted: 2 requests to the API, the last at \d\d:\d\d:\d\d UTC\./);
	expect(done).toMatch(new RegExp(`<option value="${agent.user_id}"\\s+selected`));
});

test('a delivery the receiver refused starts no workflow: the page waits for its retries, then says so and stops waiting', async () => {
	await h.api('POST', '/hooks', { body: { url: receiver.url('/fail'), origines: ['CUSTOMER_CREATE'] } });
	const { location } = await receiveLead('Refused');
	const retried = await eventually('the first attempt answered', async () => {
		const text = await open(location);
		return aftermath(text).includes('HTTP 500') && text;
	});
	if (!aftermath(retried).includes('No workflow was started.')) {
		expect(aftermath(retried)).toMatch(/answered HTTP 500 \(sent again at \d\d:\d\d:\d\d UTC\)/);
		expect(refreshes(retried)).toBe(true);
	}
	// The harness's sandbox retries after 100, 200 and 300 ms; after the last, the hook is suspended.
	const page = await eventually('the last retry answered', async () => {
		const text = await open(location);
		return aftermath(text).includes('No workflow was started.') && text;
	});
	expect(refreshes(page)).toBe(false);
	expect(receiver.at('/fail')).toHaveLength(4);
	expect(aftermath(page).match(/answered HTTP 500/g)).toHaveLength(1);
});

test('a change that reaches no webhook leads to a page that does not wait', async () => {
	const { location } = await receiveLead('Unheard');
	expect(new URL(location, 'http://console').searchParams.get('awaiting')).toBeNull();
	const page = await open(location);
	expect(refreshes(page)).toBe(false);
	expect(page).toContain('CUSTOMER_CREATE: no active webhook of this site subscribes to it, so nothing was sent.');
});

test('the webhooks page links each delivery to the n8n execution it started', async () => {
	await h.api('POST', '/hooks', { body: { url: receiver.url('/ok'), origines: ['CUSTOMER_CREATE'] } });
	await receiveLead('Linked');
	const delivered = await eventually('the delivery', async () => {
		const data = (await h.admin('GET', '/deliveries?limit=1')).body.data as DeliveryLogEntry[];
		return data.find((delivery) => delivery.url.endsWith('/ok'));
	});
	const page = await open('/console/webhooks?site=1');
	expect(page).toContain(
		`<a href="http://n8n.test/workflow/w1/executions/${delivered.delivery_id}" class="execution">n8n execution</a>`,
	);
});

test('empty pages say why, and how they fill: no webhook, no delivery, no contact matching', async () => {
	const webhooks = textOf(await open('/console/webhooks?site=2'));
	expect(webhooks).toContain('No webhook on this site yet: publish a workflow with the Agency CRM Trigger in n8n');
	expect(webhooks).toContain('No delivery yet: with a hook registered, receive a website lead');
	expect(webhooks).toContain('The trigger examples start unpublished: publish one in n8n first');
	const contacts = await open('/console/contacts?site=1&q=nobody-is-called-this');
	expect(contacts).toMatch(/<td class="empty" colspan="8">\s*None\.\s*<\/td>/);
});
