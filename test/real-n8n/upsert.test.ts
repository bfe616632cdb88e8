import { sandboxApi, testContext } from '../support/real-n8n/context';
import { admin } from '../support/sandbox/admin';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import { byId, crmNode, itemsNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 17, point 1, inside real n8n: Create or Update at the default Concurrency (10) with the same
 * email several times in one batch, against the sandbox as it answers by default and with a search
 * that ignores its filter (answer profile `loose-search`). What the sandbox stored is read back
 * through the API as another client of the CRM would, and counted: contacts stored per email, changes
 * lost (a contact that does not hold the last item of its email), contacts duplicated, and contacts
 * outside the batch changed.
 */
const { origin, client, instance } = testContext();
// Site 2's client: the answer profile is set for it alone, and no other suite writes its contacts.
const solo = client('solo-client');
const credential = sandboxCredential('credUpsertSolo01', origin, solo);
const crmApi = sandboxApi(origin, solo);

const NEW_EMAILS = 5;
const KNOWN_EMAILS = 3;
const ROUNDS = 4;

interface Contact {
	customers_id: number;
	lastname: string | null;
	email: string | null;
	updated_at: string;
}

/**
 * The batch of a run tagged `tag`: ROUNDS items for each email, emails interleaved so that items of
 * one email are in flight together at Concurrency 10. The last item of each email is its round
 * ROUNDS - 1: the contact must end up with that one's last name.
 */
function batch(tag: string) {
	const emails = [
		...Array.from({ length: KNOWN_EMAILS }, (_, index) => `known.${tag}.${index}@example.com`),
		...Array.from({ length: NEW_EMAILS }, (_, index) => `new.${tag}.${index}@example.com`),
	];
	const items = Array.from({ length: ROUNDS }, (_, round) =>
		emails.map((email, index) => ({ email, lastname: `${tag} ${index} round ${round}` })),
	).flat();
	return { emails, items, lastOf: (email: string) => items.filter((item) => item.email === email).pop()!.lastname };
}

const workflowId = (tag: string) => `wfUpsertBatch${tag.padEnd(3, '0').slice(0, 3)}`;

function upsertWorkflow(tag: string) {
	return linearWorkflow(workflowId(tag), [
		itemsNode('Leads', batch(tag).items),
		crmNode('Create or Update', credential, {
			resource: 'customer',
			operation: 'upsert',
			agencyId: byId(201),
			lastname: '={{ $json.lastname }}',
			output: 'raw',
			additionalFields: { email: '={{ $json.email }}' },
		}),
	]);
}

const contactsWith = async (email: string) =>
	(await crmApi<{ data: Contact[] }>('POST', '/customers/search', { email, per_page: 50 })).data;
const siteContacts = async () =>
	(
		await admin<{ data: { customers: number; duplicate_contacts: number } }>(
			origin,
			'GET',
			'/duplicate-contacts?site_id=2',
		)
	).data;

/** What the sandbox stored for a batch: contacts per email, changes lost, contacts duplicated. */
async function storedFor(tag: string) {
	const { emails, lastOf } = batch(tag);
	const perEmail = await Promise.all(emails.map(async (email) => ({ email, contacts: await contactsWith(email) })));
	return {
		stored: perEmail.reduce((sum, { contacts }) => sum + contacts.length, 0),
		duplicated: perEmail.reduce((sum, { contacts }) => sum + Math.max(0, contacts.length - 1), 0),
		lost: perEmail.filter(({ email, contacts }) => contacts.length !== 1 || contacts[0].lastname !== lastOf(email))
			.length,
	};
}

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [upsertWorkflow('def'), upsertWorkflow('loose')]);
});

afterAll(async () => {
	await admin(origin, 'DELETE', '/answer-profile');
});

describe.each([
	{ tag: 'def', profile: 'default' },
	{ tag: 'loose', profile: 'loose-search' },
])('Create or Update at Concurrency 10, the same email in one batch, answer profile $profile', ({ tag, profile }) => {
	test('one contact per email, holding the last item of its email; nothing lost, nothing duplicated, nobody else touched', async () => {
		const { emails, items } = batch(tag);
		for (const email of emails.slice(0, KNOWN_EMAILS)) {
			await crmApi('POST', '/customers', { agency_id: 201, lastname: 'Known before', email });
		}
		// The newest contact of the site: the one a search that ignores its filter answers first.
		const bystander = (
			await crmApi<{ data: Contact }>('POST', '/customers', {
				agency_id: 201,
				lastname: 'Bystander',
				email: `bystander.${tag}@example.com`,
			})
		).data;
		const before = await siteContacts();
		await admin(origin, 'POST', '/answer-profile', { client_id: solo.clientId, profile });
		let result;
		try {
			result = await executeWorkflow(instance, workflowId(tag));
		} finally {
			await admin(origin, 'DELETE', '/answer-profile');
		}
		expect(result.error).toBeUndefined();
		const output = result.output['Create or Update'];
		expect(output).toHaveLength(items.length);
		// The first item of a new email creates it; every other item updates.
		const firstOfNew = new Set(
			emails.slice(KNOWN_EMAILS).map((email) => items.findIndex((item) => item.email === email)),
		);
		expect(output.map((item) => item.outcome)).toEqual(
			items.map((_, index) => (firstOfNew.has(index) ? 'created' : 'updated')),
		);

		const after = await siteContacts();
		const counted = await storedFor(tag);
		process.stdout.write(
			`n8n ${instance.n8n.version}, ${profile}: ${items.length} items over ${emails.length} emails; ` +
				`${counted.stored} contacts stored for them, ${counted.lost} lost changes, ${counted.duplicated} duplicated; ` +
				`${after.customers - before.customers} contacts created\n`,
		);
		expect(counted).toEqual({ stored: emails.length, lost: 0, duplicated: 0 });
		expect(after.customers - before.customers).toBe(NEW_EMAILS);
		expect(after.duplicate_contacts).toBe(before.duplicate_contacts);
		const [stillBystander] = await contactsWith(bystander.email!);
		expect(stillBystander).toMatchObject({ lastname: 'Bystander', updated_at: bystander.updated_at });
	});
});
