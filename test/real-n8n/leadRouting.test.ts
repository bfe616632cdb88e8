import type { StoredContact } from '../support/real-n8n/contacts';
import { contactsHolding } from '../support/real-n8n/contacts';
import { sandboxApi, testContext } from '../support/real-n8n/context';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import type { NodeSpec } from '../../tools/n8n/workflows';
import { byId, crmNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 26: reference use case 1 end to end inside real n8n, on the wire production takes: leads
 * arriving as `+33…`, with an existing email, with the switchboard phone of another contact, and the
 * same person twice (once by email, once by phone only) in one batch, at the default Concurrency.
 * Each lead goes through Create or Update, a follow-up on the listing asked about, the consent with a
 * proof file (n8n 2.41 keeps binary data on the file system, 1.123 in memory), and an activity. What
 * the sandbox stored is read back as another client of the CRM would, and counted: contacts per
 * person, changes lost, leads attached to the wrong contact.
 */
const { origin, client, instance } = testContext();
// Site 2's client: no other suite writes its contacts' follow-ups, consents or activities.
const solo = client('solo-client');
const credential = sandboxCredential('credLeadRouting1', origin, solo);
const crmApi = sandboxApi(origin, solo);
const AGENCY = 201;
const LISTING = 90001;
const WORKFLOW = 'wfLeadRoutingUc1';
const tag = `${instance.n8n.version.split('.')[0]}x${Date.now().toString(36)}`;
const email = (name: string) => `${name}.${tag}@example.com`;

/** Numbers distinct per run, so that a second run on the same sandbox meets none of the first's contacts. */
const digits = (base: number) => String(base + (Date.now() % 1000)).padStart(4, '0');
const ANA_PHONE = `061122${digits(3000)}`;
const BERNARD_MOBILE = `071234${digits(5000)}`;
const SWITCHBOARD = `055600${digits(7000)}`;
const international = (national: string) =>
	`+33 ${national.slice(1, 2)} ${national.slice(2).replace(/(\d\d)(?=\d)/g, '$1 ')}`;

/**
 * The batch, in input order; each lead's `type` is its change. Ana comes three times (by email and
 * phone, by her phone only in national form, by email again): her contact must hold the last.
 * Bernard, known to the CRM as "Old Bernard", comes by his email in capitals (which names him
 * Brigitte), then by his mobile in `+33` form: found by phone, he is judged as the first lead left him.
 * Paul gives the agency's switchboard number, which the CRM holds for the reception contact: he must
 * get a contact of his own, and reception must stay untouched.
 */
const LEADS = [
	{
		person: 'ana',
		type: 'buyer',
		firstname: 'Ana',
		lastname: 'Martin',
		email: email('ana'),
		phone: international(ANA_PHONE),
	},
	{
		person: 'paul',
		type: 'buyer',
		firstname: 'Paul',
		lastname: 'Roux',
		email: email('paul'),
		phone: international(SWITCHBOARD),
	},
	{
		person: 'bernard',
		type: 'buyer',
		firstname: 'Brigitte',
		lastname: 'Bernard',
		email: email('bernard').toUpperCase(),
	},
	{
		person: 'ana',
		type: 'tenant',
		firstname: 'Ana',
		lastname: 'Martin',
		phone: ANA_PHONE.replace(/(\d\d)(?=\d)/g, '$1 '),
	},
	{
		person: 'bernard',
		type: 'landlord',
		firstname: 'Brigitte',
		lastname: 'Bernard',
		mobile_phone: international(BERNARD_MOBILE),
	},
	{ person: 'ana', type: 'seller', firstname: 'Ana', lastname: 'Martin', email: email('ana') },
];
const LAST_TYPE = { ana: 'seller', bernard: 'landlord', paul: 'buyer' };

const code = (name: string, jsCode: string): NodeSpec => ({
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode },
});
const crm = (name: string, parameters: Record<string, unknown>) =>
	crmNode(name, credential, parameters, { typeVersion: 2 });
const contactOfItem = '={{ $("Create or Update").item.json.id }}';

function leadRoutingWorkflow() {
	const proof = Buffer.from('%PDF-1.4 signed consent form').toString('base64');
	return linearWorkflow(WORKFLOW, [
		code('Leads', `return ${JSON.stringify(LEADS)}.map((json) => ({ json }));`),
		crm('Create or Update', {
			resource: 'customer',
			operation: 'upsert',
			agencyId: byId(AGENCY),
			email: '={{ $json.email ?? "" }}',
			phone: '={{ $json.phone ?? "" }}',
			mobilePhone: '={{ $json.mobile_phone ?? "" }}',
			lastname: '={{ $json.lastname }}',
			firstname: '={{ $json.firstname }}',
			output: 'raw',
			additionalFields: { type: '={{ $json.type }}' },
		}),
		crm('Follow-Up', {
			resource: 'followUp',
			operation: 'create',
			customerId: byId(contactOfItem),
			productId: byId(LISTING),
			additionalFields: {},
		}),
		code('Proof', `return $input.all().map((item, index) => ({ json: { base64: '${proof}' }, pairedItem: index }));`),
		{
			name: 'Proof File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'base64',
				options: { fileName: 'consent.pdf', mimeType: 'application/pdf' },
			},
		},
		crm('Consent', {
			resource: 'consent',
			operation: 'set',
			customerId: byId(contactOfItem),
			reason: 'Portal lead form, box ticked',
			additionalFields: { proofBinaryPropertyName: 'data', acceptOutsideHours: false },
		}),
		crm('Activity', {
			resource: 'action',
			operation: 'createForCustomer',
			customerId: byId(contactOfItem),
			actionTypeId: 1,
			additionalFields: { comment: '=Lead {{ $("Leads").item.json.person }} routed' },
		}),
	]);
}

const contactsWith = contactsHolding(crmApi);

const contact = async (id: number) =>
	(await crmApi<{ data: StoredContact }>('GET', `/customers/${id}?include=consent`)).data;
const followUpsOf = async (id: number) =>
	(await crmApi<{ data: Array<{ product_id: number }> }>('GET', `/customers/${id}/follow-ups`)).data;
const activitiesOf = async (id: number) =>
	(await crmApi<{ data: Array<{ result: string }> }>('GET', `/customers/${id}/actions`)).data;

let bernard: StoredContact;
let reception: StoredContact;

beforeAll(async () => {
	bernard = (
		await crmApi<{ data: StoredContact }>('POST', '/customers', {
			agency_id: AGENCY,
			firstname: 'Old',
			lastname: 'Bernard',
			email: email('bernard'),
			mobile_phone: BERNARD_MOBILE,
		})
	).data;
	reception = (
		await crmApi<{ data: StoredContact }>('POST', '/customers', {
			agency_id: AGENCY,
			lastname: 'Accueil',
			email: email('reception'),
			phone: SWITCHBOARD,
		})
	).data;
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [leadRoutingWorkflow()]);
});

test('use case 1: one contact per person, every change kept, no lead on the wrong contact; follow-up, consent and activity on each', async () => {
	const result = await executeWorkflow(instance, WORKFLOW);
	expect(result.error).toBeUndefined();
	// The proofs went through n8n's binary data mode of each version: kept on the file system by 2.x
	// (a reference to the file), in memory by 1.x (the data inline).
	const proofs = result.output['Proof File'].map(
		(item) => (item.$binary as { data: { id?: string; data: string } }).data,
	);
	expect(proofs).toHaveLength(6);
	for (const proof of proofs) {
		if (instance.n8n.major >= 2) expect(proof.id).toMatch(/^filesystem/);
		else expect([proof.id, /^[A-Za-z0-9+/]+=*$/.test(proof.data)]).toEqual([undefined, true]);
	}
	const upserted = result.output['Create or Update'];
	expect(upserted.map((item) => item.outcome)).toEqual([
		'created',
		'created',
		'updated',
		'updated',
		'updated',
		'updated',
	]);

	const ana = await contactsWith({ email: email('ana') });
	const paul = await contactsWith({ email: email('paul') });
	const bernards = await contactsWith({ email: email('bernard') });
	const anaByPhone = await contactsWith({ phone: ANA_PHONE });
	const onSwitchboard = await contactsWith({ phone: SWITCHBOARD });
	const people = { ana, paul, bernard: bernards };
	const stored = Object.values(people).reduce((sum, found) => sum + found.length, 0);
	const lost = Object.entries(people).filter(
		([person, found]) => found.length !== 1 || found[0].type !== LAST_TYPE[person as keyof typeof LAST_TYPE],
	).length;
	const receptionNow = await contact(reception.id);
	const misattached =
		(await followUpsOf(reception.id)).length +
		(await activitiesOf(reception.id)).length +
		(receptionNow.consent ? 1 : 0);
	process.stdout.write(
		`n8n ${instance.n8n.version}, use case 1: ${LEADS.length} leads for 3 people; ${stored} contacts stored for them, ` +
			`${lost} changes lost, ${misattached} writes on the switchboard's contact\n`,
	);
	expect({ stored, lost, misattached }).toEqual({ stored: 3, lost: 0, misattached: 0 });
	expect(bernards[0]).toMatchObject({ id: bernard.id, firstname: 'Brigitte' });
	expect(anaByPhone.map((found) => found.id)).toEqual([ana[0].id]);
	// Paul has the switchboard number too, on a contact of his own; reception is as it was.
	expect(onSwitchboard.map((found) => found.id).sort()).toEqual([reception.id, paul[0].id].sort());
	expect(receptionNow).toMatchObject({
		lastname: 'Accueil',
		email: email('reception'),
		updated_at: reception.updated_at,
	});

	// Each person's contact: the listing followed once (the second follow-up of a pair is "existing"),
	// the consent with its proof, an activity per lead.
	const followUps = result.output['Follow-Up'].map((item) => item.outcome);
	expect(followUps).toEqual(['created', 'created', 'created', 'existing', 'existing', 'existing']);
	for (const [person, [found]] of Object.entries(people)) {
		const leads = LEADS.filter((lead) => lead.person === person).length;
		expect(await followUpsOf(found.id)).toEqual([expect.objectContaining({ product_id: LISTING })]);
		expect((await contact(found.id)).consent).toMatchObject({
			reason: 'Portal lead form, box ticked',
			proofs: expect.arrayContaining([{ name: 'consent.pdf' }]),
		});
		expect(
			(await activitiesOf(found.id)).filter((activity) => activity.result === `Lead ${person} routed`),
		).toHaveLength(leads);
	}
	expect(result.output.Consent.map((item) => item.consent)).toEqual(
		LEADS.map(() => expect.objectContaining({ reason: 'Portal lead form, box ticked' })),
	);
});
