import type { IDataObject } from 'n8n-workflow';
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

test('a 403 for a pack not granted says which pack, permission and right the operation needs, with the API code and request id', async () => {
	const [[item]] = await runAs('limited-client', [getCustomer('10001')]);
	expect(item.json.error).toMatch(/^PACK_NOT_GRANTED: .* \(HTTP 403\)$/);
	expect(item.json.description).toContain(
		"This operation needs the Customers pack (or Full), and its permission and right (each operation has both, e.g. SITE_PRODUCT:READ + RS:PRODUCT_SEARCH to search properties), granted to the API client in Agency CRM's back office",
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

/** The lines of an error item's description (Continue On Fail gives them as plain text). */
const linesOf = (item: { json: { description?: unknown } }) => String(item.json.description).split('\n');

test('a create with an invalid email and phone: one line per problem, each with its label, nothing contradicting', async () => {
	const [[item]] = await runAs('demo-client', [
		{
			resource: 'customer',
			operation: 'create',
			lastname: 'Martin',
			additionalFields: { email: 'not-an-email', mobilePhone: 'call me' },
		},
	]);
	// The sandbox's message restates the first detail: the title counts the fields instead (issue 39).
	expect(item.json.error).toBe('VALIDATION_ERROR: 2 fields refused (HTTP 422)');
	const lines = linesOf(item);
	expect(lines.slice(0, -1)).toEqual([
		'"Email" (email): must be an email address',
		'"Mobile Phone" (mobile_phone): must be a phone number',
		"Fix these fields in the node's parameters and run again.",
	]);
	expect(lines[lines.length - 1]).toMatch(/^Request ID: [0-9a-f-]{36} \(quote it to Agency CRM support\)$/);
	expect(String(item.json.description)).not.toMatch(/needs at least/);
});

test('a contact that is not found says which value to check and how to find it again', async () => {
	const [[item]] = await runAs('demo-client', [getCustomer('99999999')]);
	expect(linesOf(item)[0]).toBe(
		'Check the Contact: pick it From List, or find its ID with Contact → Get Many (by email or phone).',
	);
});

test('issue 26: a follow-up that exists already is not an error: outcome existing, with the 409 that says so', async () => {
	const followUp = { resource: 'followUp', operation: 'create', customerId: byId('10001'), productId: byId('5001') };
	const [[first, second]] = await runAs('demo-client', [followUp, followUp]);
	expect(first.json).toMatchObject({ customers_id: 10001, product_id: 5001, outcome: 'created' });
	expect(second.json).toEqual({
		customers_id: 10001,
		product_id: 5001,
		outcome: 'existing',
		outcome_evidence: expect.stringMatching(/^HTTP 409: .*\(HTTP 409\)$/),
	});
});

test('several problems found before sending come one per line, then what to do', async () => {
	const [[item]] = await runAs('demo-client', [
		{ resource: 'webhook', operation: 'update', hookId: 'x', additionalFields: { extraBodyJson: '{' } },
	]);
	expect(item.json.error).toMatch(/^Invalid input: /);
	const lines = linesOf(item);
	expect(lines).toHaveLength(3);
	expect(lines[0]).toBe('"Webhook ID" (hook_id) must be a whole-number ID');
	expect(lines[1]).toMatch(/^"Extra Body Fields \(JSON\)" /);
	// The JSON that could not be read is not also reported as "names nothing to change".
	expect(lines[2]).toBe(
		'Nothing was sent to Agency CRM. Fix "Webhook ID" (hook_id), "Extra Body Fields (JSON)" and run again.',
	);
});

test('issue 27: criteria the site refuses come back in production’s shape, one line per criterion with its XML key', async () => {
	const [[item]] = await runAs('demo-client', [
		{
			resource: 'product',
			operation: 'create',
			agencyId: byId('101'),
			propertyType: 'house',
			// Codes the site does not list: sent as given (the site may know them), and refused.
			additionalFields: {
				criteria: {
					criterion: [
						{ id: 'TypeBien', value: 'Chateau' },
						{ id: 'Statut', value: 'Brouillon' },
					],
				},
			},
		},
	]);
	expect(item.json.error).toMatch(/\(HTTP 422\)$/);
	// The TypeBien row wins over version 1's Property Type: one TypeBien on the wire, the one the site refuses.
	expect((item.json.apiError as IDataObject).details).toEqual([
		{ field: 'criteria.5', message: expect.stringMatching(/^TypeBien: "Chateau" is not a value of TypeBien/) },
		{ field: 'criteria.21', message: expect.stringMatching(/^Statut: "Brouillon" is not a value of Statut/) },
	]);
	expect(String(item.json.description).split('\n').slice(0, 3)).toEqual([
		expect.stringMatching(/^"Criteria" \(criteria\.5\): TypeBien: "Chateau"/),
		expect.stringMatching(/^"Criteria" \(criteria\.21\): Statut: "Brouillon"/),
		"Fix these fields in the node's parameters and run again.",
	]);
});
