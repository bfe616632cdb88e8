import { sandboxApi, testContext } from '../support/real-n8n/context';
import { admin } from '../support/sandbox/admin';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import { byId, crmNode, itemsNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 35 inside real n8n, against the sandbox answering as production does: Consent → Set is
 * confirmed only by its read-back (a consent the API accepted but the contact does not show fails its
 * item, saying so), and Follow-Up → Get Many's Return All follows the pages production numbers.
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const credential = sandboxCredential('credCoverage0001', origin, demo);
const api = sandboxApi(origin, demo);
const tag = `${instance.n8n.version.split('.')[0]}x${Date.now().toString(36)}`;

interface Contact {
	customers_id: number;
}

interface LoggedRequest {
	method: string;
	route: string;
	query: Record<string, string>;
	status: number | null;
}

async function newContact(name: string): Promise<number> {
	const { data } = await api<{ data: Contact }>('POST', '/customers', {
		agency_id: 101,
		lastname: name,
		email: `${name.toLowerCase()}.${tag}@example.com`,
	});
	return data.customers_id;
}

const requestsOn = async (route: string) =>
	(await admin<{ data: LoggedRequest[] }>(origin, 'GET', '/requests?limit=200')).data.filter(
		(request) => request.route === route,
	);

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
});

describe('Consent → Set is confirmed by reading it back', () => {
	let contacts: number[];

	beforeAll(async () => {
		contacts = [await newContact('ConsentAna'), await newContact('ConsentBen')];
		await importJson(instance, 'workflow', [
			linearWorkflow('wfConsentCheck01', [
				itemsNode(
					'Contacts',
					contacts.map((id) => ({ id })),
				),
				crmNode(
					'Set Consent',
					credential,
					{
						resource: 'consent',
						operation: 'set',
						customerId: byId('={{ $json.id }}'),
						reason: 'Signed form at the agency',
						additionalFields: { collectedAt: '2026-11-20T10:00:00+01:00' },
					},
					{ typeVersion: 2, continueOnFail: true },
				),
			]),
		]);
	});

	afterAll(async () => {
		await admin(origin, 'DELETE', '/faults');
	});

	test('a consent the sandbox drops (accepted, then not shown) fails its item with what the read-back showed; kept, it is confirmed', async () => {
		await admin(origin, 'POST', '/faults', { client_id: demo.clientId, consent_dropped: true });
		const dropped = await executeWorkflow(instance, 'wfConsentCheck01');
		await admin(origin, 'DELETE', '/faults');
		expect(dropped.error).toBeUndefined();
		expect(dropped.output['Set Consent']).toEqual(
			contacts.map(() =>
				expect.objectContaining({
					error:
						'The API accepted the consent (HTTP 204), but reading the record back shows no consent: written but not confirmed',
					description: expect.stringContaining("The read-back's consent: null"),
				}),
			),
		);
		for (const id of contacts) {
			const { data } = await api<{ data: { consent: unknown } }>('GET', `/customers/${id}?include=consent`);
			expect(data.consent).toBeNull();
		}

		const kept = await executeWorkflow(instance, 'wfConsentCheck01');
		expect(kept.error).toBeUndefined();
		expect(kept.output['Set Consent']).toEqual(
			contacts.map((id) => ({
				customers_id: id,
				consent: expect.objectContaining({
					reason: 'Signed form at the agency',
					consentDate: '2026-11-20T09:00:00+00:00',
					revokedAt: null,
				}),
				confirmed: true,
				date_confirmed: true,
			})),
		);
	});
});

describe('Follow-Up → Get Many pages as production pages it', () => {
	const LISTINGS = [5031, 5032, 5033, 5034, 5035, 5036];
	let contact: number;

	beforeAll(async () => {
		contact = await newContact('Follower');
		for (const productId of LISTINGS) await api('POST', `/customers/${contact}/follow-ups/${productId}`, { rating: 3 });
		await importJson(instance, 'workflow', [
			linearWorkflow('wfFollowUpPages1', [
				crmNode(
					'Every Follow-Up',
					credential,
					{
						resource: 'followUp',
						operation: 'getAll',
						customerId: byId(contact),
						returnAll: true,
						options: { perPage: 2 },
					},
					{ typeVersion: 2 },
				),
			]),
		]);
	});

	test('Return All reads 3 pages by page number, up to meta.last_page: every follow-up once', async () => {
		await admin(origin, 'POST', '/reset');
		const run = await executeWorkflow(instance, 'wfFollowUpPages1');
		expect(run.error).toBeUndefined();
		expect(run.output['Every Follow-Up'].map((followUp) => followUp.product_id)).toEqual(LISTINGS);
		const pages = await requestsOn('GET /customers/{customerId}/follow-ups');
		expect(pages.map((request) => request.query)).toEqual([
			{ per_page: '2' },
			{ per_page: '2', page: '2' },
			{ per_page: '2', page: '3' },
		]);
	});
});
