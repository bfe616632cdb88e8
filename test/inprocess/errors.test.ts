import { route } from '../../nodes/AgencyCrm/actions/router';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { inProcessContext } from './context';

/** API refusals as users see them, through the node against the sandbox. */
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true });
});

afterAll(async () => {
	await sandbox.close();
});

function runAs(clientId: string, items: Array<Record<string, unknown>>) {
	const client = sandbox.clients.find((candidate) => candidate.clientId === clientId)!;
	const { context } = inProcessContext(
		{ authUrl: sandbox.authUrl, clientId, clientSecret: client.clientSecret, scope: 'site', siteId: client.siteId },
		items,
		[],
		true,
	);
	return route.call(context);
}

const getCustomer = (id: string) => ({
	resource: 'customer',
	operation: 'get',
	customerId: { __rl: true, mode: 'id', value: id },
	simplify: true,
	options: {},
});

test('a 403 for a pack not granted says which pack the operation needs, with the API code and request id', async () => {
	const [[item]] = await runAs('limited-client', [getCustomer('10001')]);
	expect(item.json.error).toMatch(/^PACK_NOT_GRANTED: .* \(HTTP 403\)$/);
	expect(item.json.description).toContain('This operation needs the Customers pack (or Full).');
	expect(item.json.apiError).toMatchObject({
		code: 'PACK_NOT_GRANTED',
		request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
	});
});

test('with Continue On Fail, every item has its output, in order, paired with its input', async () => {
	const [items] = await runAs('demo-client', [
		getCustomer('10001'),
		getCustomer('12x'),
		getCustomer('99999999'),
		getCustomer('10002'),
	]);
	expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(items[0].json.customers_id).toBe(10001);
	expect(items[1].json.error).toBe('Invalid input: "Customer" (customers_id) must be a whole-number ID (got "12x")');
	expect(items[2].json.apiError).toMatchObject({ code: 'NOT_FOUND' });
	expect(items[3].json.customers_id).toBe(10002);
});
