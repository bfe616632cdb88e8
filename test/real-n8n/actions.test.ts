import { readFileSync } from 'node:fs';
import path from 'node:path';

import { png } from '../support/fixtures/images';
import { testContext } from '../support/real-n8n/context';
import { admin, routeCount } from '../support/sandbox/admin';
import { ROOT, executeWorkflow, importJson } from '../../tools/n8n/launcher';
import type { NodeSpec } from '../../tools/n8n/workflows';
import { byId, crmNode, itemsNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 4: the action node inside real n8n, against the sandbox: one operation of every resource,
 * Return All over many pages, uploads from binary data, Continue On Fail, and the example workflow.
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credActions00001', origin, client('demo-client'));
// The example workflow refers to the credential the demo creates.
const exampleCredential = {
	...sandboxCredential('agencyCrmSandbox', origin, client('demo-client')),
	name: 'Agency CRM Sandbox',
};
const crm = (name: string, parameters: Record<string, unknown>, extra: Partial<NodeSpec> = {}) =>
	crmNode(name, credential, parameters, { executeOnce: true, ...extra });

const requestsTo = (route: string) => routeCount(origin, route);

/** A Convert to File node turning a base64 field into the binary property `data`. */
function fileNode(name: string, fileName: string): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		parameters: { operation: 'toBinary', sourceProperty: 'base64', options: { fileName, mimeType: 'image/png' } },
	};
}

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential, exampleCredential]);
	const example = JSON.parse(
		readFileSync(path.join(ROOT, 'examples/website-lead-to-follow-up.json'), 'utf8'),
	) as unknown;
	await importJson(instance, 'workflow', [
		example,
		linearWorkflow('wfEveryResource1', [
			crm('Agency', { resource: 'agency', operation: 'discover' }),
			crm('Action', { resource: 'action', operation: 'getTypes' }),
			crm('Calendar', { resource: 'calendar', operation: 'getEventTypes' }),
			crm('Config', { resource: 'config', operation: 'getValues', listId: 1 }),
			crm('Consent', {
				resource: 'consent',
				operation: 'set',
				customerId: byId(10005),
				reason: 'Signed form at the agency',
				additionalFields: {},
			}),
			crm('Criterion', { resource: 'criterion', operation: 'getZones' }),
			crm('Lead', {
				resource: 'lead',
				operation: 'createBuyer',
				agencyId: byId(102),
				additionalFields: {
					lastname: 'Lefebvre',
					email: 'ines.lefebvre@example.com',
					criteria: { criterion: [{ id: 1, value: '300000' }] },
				},
			}),
			crm('Mandate', { resource: 'mandate', operation: 'getAll', returnAll: false, limit: 2, filters: {} }),
			crm('Product', { resource: 'product', operation: 'get', productId: byId(5004), output: 'simple', options: {} }),
			crm('Transaction', {
				resource: 'transaction',
				operation: 'getManyOffers',
				returnAll: false,
				limit: 3,
				filters: { include: ['buyer'] },
			}),
			crm('User', { resource: 'user', operation: 'get', userId: byId(1005), options: {} }),
			crm('Webhook', { resource: 'webhook', operation: 'getAll' }),
		]),
		linearWorkflow('wfReturnAll00001', [
			crmNode('All Customers', credential, {
				resource: 'customer',
				operation: 'getAll',
				returnAll: true,
				output: 'simple',
				filters: { agencyId: byId(101) },
				options: { perPage: 10 },
			}),
		]),
		linearWorkflow('wfUploads0000001', [
			itemsNode('Pictures', [
				{ base64: png(1200, 800).toString('base64') },
				{ base64: png(640, 480).toString('base64') },
			]),
			fileNode('To File', 'living-room.png'),
			crmNode(
				'Upload Picture',
				credential,
				{
					resource: 'product',
					operation: 'uploadPublicPicture',
					productId: byId(5006),
					binaryPropertyName: 'data',
					additionalFields: {},
				},
				{ continueOnFail: true },
			),
		]),
		linearWorkflow('wfContinueOnFail', [
			itemsNode('Ids', [{ id: '10007' }, { id: '..' }, { id: '99999999' }, { id: '10008' }]),
			crmNode(
				'Get Customer',
				credential,
				{
					resource: 'customer',
					operation: 'get',
					customerId: byId('={{ $json.id }}'),
					output: 'simple',
					options: {},
				},
				{ continueOnFail: true },
			),
		]),
	]);
});

beforeEach(async () => {
	await admin(origin, 'POST', '/reset');
});

test('one operation of every resource runs in a workflow', async () => {
	const run = await executeWorkflow(instance, 'wfEveryResource1');
	expect(run.error).toBeUndefined();
	expect(run.output.Agency[0].agencies).toHaveLength(3);
	expect(run.output.Action.length).toBeGreaterThan(5);
	expect(run.output.Calendar.map((type) => type.key)).toContain('VISIT');
	expect(run.output.Config.length).toBeGreaterThan(0);
	// The consent is read back (issue 26): the output is the contact's consent as the CRM holds it,
	// confirmed when it is the one sent (issue 35).
	expect(run.output.Consent).toEqual([
		{
			customers_id: 10005,
			consent: expect.objectContaining({ reason: 'Signed form at the agency', revokedAt: null }),
			confirmed: true,
			date_confirmed: true,
		},
	]);
	expect(run.output.Criterion.length).toBeGreaterThan(0);
	expect(run.output.Lead[0]).toMatchObject({ customer: { lastname: 'Lefebvre' } });
	expect(run.output.Mandate).toHaveLength(2);
	expect(run.output.Product[0]).toMatchObject({ id: 5004 });
	expect(Object.keys(run.output.Product[0])).not.toContain('criteria');
	expect(run.output.Transaction).toHaveLength(3);
	expect(run.output.Transaction.every((offer) => typeof offer.offer_status === 'string')).toBe(true);
	expect(run.output.User[0]).toMatchObject({ user_id: 1005 });
	expect(Array.isArray(run.output.Webhook)).toBe(true);
	const consent = await admin<{ data?: { status?: string }; status?: string }>(origin, 'GET', '/records/consent/10005');
	expect(consent.data?.status ?? consent.status).toBe('collected');
});

test('Return All walks every page once, newest customer first', async () => {
	const run = await executeWorkflow(instance, 'wfReturnAll00001');
	expect(run.error).toBeUndefined();
	const ids = run.output['All Customers'].map((customer) => customer.customers_id as number);
	expect(ids.length).toBeGreaterThan(30);
	expect(new Set(ids).size).toBe(ids.length);
	expect([...ids].sort((a, b) => b - a)).toEqual(ids);
	const pages = await requestsTo('POST /customers/search');
	expect(pages).toBeGreaterThan(3);
	expect(pages).toBe(Math.ceil(ids.length / 10) + (ids.length % 10 === 0 ? 1 : 0));
});

test('a picture upload sends the binary; a too narrow one fails alone, before any request', async () => {
	const run = await executeWorkflow(instance, 'wfUploads0000001');
	const [uploaded, refused] = run.output['Upload Picture'];
	expect(uploaded).toMatchObject({ width: 1200, height: 800, is_public: true });
	expect(refused.error).toBe(
		'Invalid input: "Input Binary Field" (file) must be at least 800 px wide ("living-room.png" is 640 px)',
	);
	expect(await requestsTo('POST /products/{productId}/pictures/public')).toBe(1);
});

test('Continue On Fail: bad items become error items in place, the good ones go through', async () => {
	const run = await executeWorkflow(instance, 'wfContinueOnFail');
	expect(run.error).toBeUndefined();
	const items = run.output['Get Customer'];
	expect(items).toHaveLength(4);
	expect(items[0]).toMatchObject({ customers_id: 10007 });
	// ".." would address another endpoint: refused before sending.
	expect(items[1].error).toBe('Invalid input: "Contact" (customers_id) cannot be "." or ".."');
	expect(items[2].error).toMatch(/^NOT_FOUND: .* \(HTTP 404\)$/);
	expect(items[2].description).toMatch(/Request ID: [0-9a-f-]{36}/);
	expect(items[2].apiError).toMatchObject({ code: 'NOT_FOUND', request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
	expect(items[3]).toMatchObject({ customers_id: 10008 });
	// The invalid item was refused before sending: three requests for four items.
	expect(await requestsTo('GET /customers/{customerId}')).toBe(3);
});

test('the website lead example runs reference use case 1: upsert, search request, follow-up', async () => {
	const first = await executeWorkflow(instance, 'exampleUseCase01');
	expect(first.error).toBeUndefined();
	const [customer] = first.output['Create or Update Contact'];
	expect(customer).toMatchObject({ outcome: 'created', email: 'camille.martin@example.com' });
	expect(first.output['Create Search Request'][0]).toMatchObject({ customers_id: customer.customers_id });
	expect(first.output['Add Property to Follow-Up'][0]).toMatchObject({
		customers_id: customer.customers_id,
		product_id: 5001,
		rating: 4,
	});

	// The same lead again: the contact is found by email; it holds every field already, so nothing is
	// written (issue 32: `unchanged`), and nothing is duplicated.
	await admin(origin, 'POST', '/reset');
	const second = await executeWorkflow(instance, 'exampleUseCase01');
	expect(second.output['Create or Update Contact'][0]).toMatchObject({
		outcome: 'unchanged',
		matched_by: 'email',
		customers_id: customer.customers_id,
	});
	expect(await requestsTo('POST /customers')).toBe(0);
	expect(await requestsTo('PATCH /customers/{customerId}')).toBe(0);
	// The follow-up exists already: the API's 409 says so, and the run goes on (issue 26).
	expect(second.error).toBeUndefined();
	expect(second.output['Add Property to Follow-Up'][0]).toMatchObject({
		customers_id: customer.customers_id,
		product_id: 5001,
		outcome: 'existing',
	});
});
