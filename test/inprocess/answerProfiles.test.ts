import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { fetchRecord } from '../../nodes/AgencyCrmTrigger/receive';
import { ANSWER_PROFILES } from '../../sandbox/answerProfiles';
import { credentialsOf, inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 17: the core operations through every answer profile of the sandbox (sandbox/answerProfiles.ts),
 * each an answer the spec allows or leaves open: Get Many with Return All in both pagination modes,
 * Create, Update, Create or Update, Delete, the trigger's fetch and an error. Each asserts what the
 * sandbox holds, not only what the node output. The profile is demo-client's only: the expected
 * values are read through the admin routes or another client, which the profile does not touch.
 */
const h = useSandbox();

interface Run {
	output: IDataObject[];
	hints: string[];
}

async function run(items: Array<Record<string, unknown>>, continueOnFail = false): Promise<Run> {
	const { context, hints } = inProcessContext(credentialsOf(h.sandbox), items, [], continueOnFail);
	const [output] = await route.call(context);
	return { output: output.map((item) => item.json), hints: hints.map((hint) => hint.message) };
}

const stored = async (kind: string, id: unknown): Promise<IDataObject> =>
	(await h.admin('GET', `/records/${kind}/${String(id)}`)).body.data;
const siteContacts = async () => (await h.admin('GET', '/duplicate-contacts?site_id=1')).body.data;
/** A contact made in the CRM's own screens, as the user's existing data. */
const existingContact = async (changes: IDataObject): Promise<IDataObject> =>
	(await h.admin('POST', '/simulate-edit', { resource: 'customer', action: 'create', changes })).body.data;

const customerItem = (operation: string, fields: IDataObject, concurrency = 10) => ({
	resource: 'customer',
	operation,
	agencyId: byId(101),
	lastname: fields.lastname,
	output: 'raw',
	additionalFields: { email: fields.email, concurrency },
});

describe.each(ANSWER_PROFILES)('answer profile %s', (profile) => {
	const email = (name: string) => `${name}.${profile}@example.com`;

	beforeAll(async () => {
		await h.admin('POST', '/answer-profile', { client_id: 'demo-client', profile });
	});
	afterAll(async () => {
		await h.admin('DELETE', '/answer-profile');
	});

	test('Get Many contacts, Return All (cursor): every contact of the site once, newest first', async () => {
		const { customers } = await siteContacts();
		const { output } = await run([
			{
				resource: 'customer',
				operation: 'getAll',
				returnAll: true,
				output: 'raw',
				filters: {},
				options: { perPage: 50 },
			},
		]);
		const ids = output.map((record) => record.customers_id as number);
		expect(ids).toHaveLength(customers);
		expect([...ids].sort((a, b) => b - a)).toEqual(ids);
		expect(new Set(ids).size).toBe(customers);
	});

	test('Get Many properties, Return All (offset mode): every property once', async () => {
		const everyProduct = await h.api('POST', '/products/search', { client: 'limited-client', body: { per_page: 200 } });
		const expected = (everyProduct.body.data as IDataObject[]).map((product) => product.product_id);
		const { output } = await run([
			{
				resource: 'product',
				operation: 'getAll',
				returnAll: true,
				output: 'raw',
				filters: {},
				options: { paginationMode: 'offset', perPage: 20 },
			},
		]);
		expect(output.map((product) => product.product_id)).toEqual(expected);
	});

	test('Create: a new contact is created; the email of a contact the site had is that contact, "existing", unchanged, with a hint', async () => {
		const first = await run([customerItem('create', { lastname: 'First', email: email('create') })]);
		expect(first.output[0]).toMatchObject({ lastname: 'First', outcome: 'created' });
		const id = first.output[0].customers_id;
		expect(await stored('customer', id)).toMatchObject({ lastname: 'First', email: email('create') });

		// A contact of the demo data, created before this run: the answer's created_at tells, whatever the status.
		const seeded = await stored('customer', 10003);
		const again = await run([customerItem('create', { lastname: 'Second', email: seeded.email })]);
		expect(again.output[0]).toMatchObject({ customers_id: 10003, lastname: seeded.lastname, outcome: 'existing' });
		expect(again.hints).toEqual([expect.stringContaining("this item's fields were not applied")]);
		expect(await stored('customer', 10003)).toMatchObject({ lastname: seeded.lastname });
	});

	test('Update: the change is stored, and the output is the contact with it', async () => {
		const contact = await existingContact({ lastname: 'Before', email: email('update') });
		const { output } = await run([
			{
				resource: 'customer',
				operation: 'update',
				customerId: byId(contact.customers_id as number),
				output: 'raw',
				additionalFields: { firstname: 'Changed' },
			},
		]);
		expect(output[0]).toMatchObject({ customers_id: contact.customers_id, firstname: 'Changed', lastname: 'Before' });
		expect(await stored('customer', contact.customers_id)).toMatchObject({ firstname: 'Changed' });
	});

	test('Create or Update at Concurrency 10: one contact per email, each holding the last item of its email, no other contact touched', async () => {
		const known = await existingContact({ lastname: 'Known', email: email('known') });
		// The newest contact of the site: the one a search that ignores its filter answers first.
		const bystander = await existingContact({ lastname: 'Bystander', email: email('bystander') });
		const before = await siteContacts();
		const lastnames = ['New A', 'Known B', 'Fresh C', 'New D', 'Known E', 'New F', 'Fresh G'];
		const emails = [
			email('new'),
			email('known'),
			email('fresh'),
			email('new'),
			email('known'),
			email('new'),
			email('fresh'),
		];
		const { output } = await run(
			lastnames.map((lastname, index) => customerItem('upsert', { lastname, email: emails[index] })),
		);
		expect(output.map((record) => record.outcome)).toEqual([
			'created',
			'updated',
			'created',
			'updated',
			'updated',
			'updated',
			'updated',
		]);
		const after = await siteContacts();
		expect(after.customers - before.customers).toBe(2);
		expect(after.duplicate_contacts).toBe(before.duplicate_contacts);
		const byEmail = (address: string) => output.find((record, index) => emails[index] === address)!.customers_id;
		expect(await stored('customer', byEmail(email('new')))).toMatchObject({ lastname: 'New F' });
		expect(await stored('customer', byEmail(email('fresh')))).toMatchObject({ lastname: 'Fresh G' });
		expect(await stored('customer', known.customers_id)).toMatchObject({ lastname: 'Known E' });
		expect(await stored('customer', bystander.customers_id)).toMatchObject({
			lastname: 'Bystander',
			email: email('bystander'),
			updated_at: bystander.updated_at,
		});
	});

	test('Delete: a webhook created, then deleted by the id its create gave', async () => {
		const url = `https://example.com/hooks/${profile}`;
		const created = await run([
			{ resource: 'webhook', operation: 'create', url, origines: ['CUSTOMER_CREATE'], additionalFields: {} },
		]);
		const hookId = created.output[0].id;
		expect((await stored('hook', hookId)).url).toBe(url);
		const deleted = await run([{ resource: 'webhook', operation: 'delete', hookId: String(hookId) }]);
		expect(deleted.output).toEqual([{ deleted: true }]);
		const hooks = (await h.admin('GET', '/hooks')).body.data as IDataObject[];
		expect(hooks.map((hook) => hook.id)).not.toContain(hookId);
	});

	test("the trigger's fetch: the record a notification names", async () => {
		const { webhook } = inProcessContext(credentialsOf(h.sandbox), [{}]);
		const fetched = await fetchRecord(
			webhook,
			{ eventType: 'CUSTOMER_UPDATE', resourceType: 'customer', resourceId: 10002 },
			[],
		);
		expect(fetched).toMatchObject({
			kind: 'found',
			record: { customers_id: 10002, email: (await stored('customer', 10002)).email },
		});
	});

	test('an API error quotes the request id, from the body or the X-Request-Id header', async () => {
		const { output } = await run(
			[{ resource: 'customer', operation: 'get', customerId: byId(99999999), output: 'raw', options: {} }],
			true,
		);
		expect(output[0].apiError).toMatchObject({
			code: 'NOT_FOUND',
			request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
		});
	});
});
