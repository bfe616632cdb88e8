import { route } from '../../nodes/AgencyCrm/actions/router';
import { credentialsOf, inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/** API refusals as users see them, through the node against the sandbox. */
const h = useSandbox();

function runAs(clientId: string, items: Array<Record<string, unknown>>) {
	const { context } = inProcessContext(credentialsOf(h.sandbox, clientId), items, [], true);
	return route.call(context);
}

const getCustomer = (id: string) => ({
	resource: 'customer',
	operation: 'get',
	customerId: byId(id),
	output: 'simple',
	options: {},
});

test('a 403 for a pack not granted says which pack the operation needs, with the API code and request id', async () => {
	const [[item]] = await runAs('limited-client', [getCustomer('10001')]);
	expect(item.json.error).toMatch(/^PACK_NOT_GRANTED: .* \(HTTP 403\)$/);
	expect(item.json.description).toContain(
		'This operation needs the Customers pack (or Full): ask Agency CRM to grant it',
	);
	expect(item.json.apiError).toMatchObject({
		code: 'PACK_NOT_GRANTED',
		request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
	});
});

test('with Continue On Fail, every item has its output, in order, paired with its input', async () => {
	const [items] = await runAs('demo-client', [
		getCustomer('10001'),
		getCustomer('..'),
		getCustomer('12x'),
		getCustomer('99999999'),
		getCustomer('10002'),
	]);
	expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
	expect(items[0].json.customers_id).toBe(10001);
	// ".." would address another endpoint: refused before sending.
	expect(items[1].json.error).toBe('Invalid input: "Contact" (customers_id) cannot be "." or ".."');
	// The spec does not type customer ids: a non-numeric one is sent, and the API answers.
	expect(items[2].json.apiError).toMatchObject({ code: 'NOT_FOUND' });
	expect(items[3].json.apiError).toMatchObject({ code: 'NOT_FOUND' });
	expect(items[4].json.customers_id).toBe(10002);
});
