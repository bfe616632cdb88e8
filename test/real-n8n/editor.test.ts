import { randomUUID } from 'node:crypto';

import { sandboxApi, testContext } from '../support/real-n8n/context';
import type { Editor } from '../../tools/n8n/editor';
import {
	choose,
	contactFormsWorkflow,
	dropdownChoices,
	executeButtonText,
	executeNodeError,
	newCredential,
	openEditor,
	openNode,
	openPanelNode,
	parameterOrder,
	propertyFormsWorkflow,
	searchNodesPanel,
	showWorkflow,
} from '../../tools/n8n/editor';
import { readExamples } from '../../tools/n8n/examples';
import type { N8nProcess } from '../../tools/n8n/launcher';
import { NODE_TYPES, importJson, restClient, startServer } from '../../tools/n8n/launcher';
import { chainedWorkflow, sandboxCredential, triggerNode } from '../../tools/n8n/workflows';

/**
 * What a user does in the editor, through the editor's own REST calls: press the credential's
 * Test button, open dropdowns (loadOptions) and search the "From list" resource locators. Then, on
 * n8n 2.x, the editor itself in headless Chromium (issue 18).
 */
const { origin, client, instance } = testContext();
const demo = client('demo-client');
const credential = sandboxCredential('credEditor000001', origin, demo);
const onTheEditorOf2x = instance.n8n.major >= 2 ? describe : describe.skip;
const FORMS = contactFormsWorkflow('wfContactForms01', credential);
const PROPERTIES = propertyFormsWorkflow('wfPropertyForms1', credential);
const CONTACT_SYNC = readExamples().get('contact-sync-to-mailing-tool.json')!;

/** Two triggers of version 2, one for contacts and one for properties, each comparing records (issue 29). */
function triggerFormsWorkflow(id: string) {
	const trigger = (name: string, events: string[]) => ({
		...triggerNode(credential, randomUUID(), { events, skipUnchangedRecords: true }),
		name,
		typeVersion: 2,
	});
	const contacts = chainedWorkflow(id, [trigger('Contact Trigger', ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'])]);
	const [properties] = chainedWorkflow(id, [trigger('Property Trigger', ['PRODUCT_UPDATE'])]).nodes;
	return { ...contacts, name: 'Trigger forms', nodes: [...contacts.nodes, { ...properties, position: [0, 240] }] };
}
const TRIGGER_FORMS = triggerFormsWorkflow('wfTriggerForms01');
/** The credential the examples name. */
const examplesCredential = { ...sandboxCredential('agencyCrmSandbox', origin, demo), name: 'Agency CRM Sandbox' };

let server: N8nProcess;
let rest: Awaited<ReturnType<typeof restClient>>;

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential, examplesCredential]);
	await importJson(
		instance,
		'workflow',
		instance.n8n.major >= 2 ? [FORMS, PROPERTIES, CONTACT_SYNC, TRIGGER_FORMS] : [PROPERTIES],
	);
	server = await startServer(instance);
	rest = await restClient(server);
});

afterAll(async () => {
	await server?.stop();
});

async function testCredential(data: Record<string, unknown>) {
	const { data: result } = await rest<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: {
			id: credential.id,
			name: credential.name,
			type: 'agencyCrmApi',
			data: { ...credential.data, ...data },
		},
	});
	return result;
}

const nodeRequest = (methodName: string, currentNodeParameters: Record<string, unknown>) => ({
	path: 'parameters',
	nodeTypeAndVersion: { name: NODE_TYPES.action, version: 1 },
	methodName,
	currentNodeParameters,
	credentials: { agencyCrmApi: { id: credential.id, name: credential.name } },
});

test('the credential Test button succeeds against the sandbox', async () => {
	expect(await testCredential({})).toEqual({ status: 'OK', message: 'Connection successful!' });
});

test('the credential Test button names the cause of a refusal', async () => {
	expect((await testCredential({ clientSecret: 'wrong-secret' })).message).toMatch(
		/^Agency CRM refused the client ID or client secret \(HTTP 401\); check both values in the credential/,
	);
	expect((await testCredential({ siteId: 2 })).message).toMatch(
		/^The site 2 is outside this API client's scope \(HTTP 403\)/,
	);
	expect((await testCredential({ scope: 'agency', agencyId: 999 })).message).toMatch(
		/^The agency 999 does not exist \(HTTP 404\)/,
	);
});

test('dropdowns are loaded from the API', async () => {
	const options = async (methodName: string) =>
		(
			await rest<Array<{ name: string; value: string | number }>>(
				'POST',
				'/dynamic-node-parameters/options',
				nodeRequest(methodName, { resource: 'customer', operation: 'create' }),
			)
		).data;
	const eventTypes = await options('getEventTypes');
	expect(eventTypes.map((option) => option.value).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
	// A user's availability names the types it ignores by key.
	const eventTypeKeys = await options('getEventTypeKeys');
	expect(eventTypeKeys.find((option) => option.value === 'VISIT')).toEqual({ name: 'Visite', value: 'VISIT' });
	expect(eventTypeKeys).toHaveLength(6);
	const genders = await options('getGenders');
	expect(genders.map((option) => option.value).sort()).toEqual(['M', 'MME', 'M_MME', 'SCI', 'SOC']);
	const groups = await options('getCustomerGroups');
	expect(groups.length).toBeGreaterThan(0);
	expect(groups.every((option) => typeof option.name === 'string' && option.value !== undefined)).toBe(true);
});

/**
 * Issue 27: a criterion row's Value From List depends on the Criterion of the same row. The editor asks
 * for it with the row's path (`loadOptionsDependsOn: ['&id']`), and n8n gives the method the sibling
 * (`getCurrentNodeParameter('&id')`), on n8n 1.x as on 2.x.
 */
test('a criterion row offers the criteria by label, and its Value From List the values of the Criterion chosen in that row', async () => {
	const options = async (methodName: string, path: string, rows: Array<Record<string, unknown>>) =>
		(
			await rest<Array<{ name: string; value: string | number; description?: string }>>(
				'POST',
				'/dynamic-node-parameters/options',
				{
					...nodeRequest(methodName, {
						resource: 'product',
						operation: 'create',
						additionalFields: { criteria: { criterion: rows } },
					}),
					path,
					nodeTypeAndVersion: { name: NODE_TYPES.action, version: 2 },
				},
			)
		).data;
	const criteria = await options('getProductCriteria', 'parameters.additionalFields.criteria.criterion[0].id', [{}]);
	expect(criteria).toContainEqual({
		name: 'Type de bien (unique)',
		value: 'TypeBien',
		description: 'XML key TypeBien, ID 5',
	});
	expect(criteria).toContainEqual(
		expect.objectContaining({ name: 'Exposition (multiple, inactive)', value: 'Exposition' }),
	);
	const valuesOfRow = (id: string) =>
		options('getCriterionValues', 'parameters.additionalFields.criteria.criterion[1].listValue', [
			{ id: 'Prix', value: '250000' },
			{ id },
		]);
	expect(await valuesOfRow('TypeBien')).toContainEqual({
		name: 'Local commercial',
		value: 'LocalCommercial',
		description: 'Code LocalCommercial',
	});
	expect((await valuesOfRow('Statut')).map((option) => option.value)).toEqual(
		expect.arrayContaining(['EnCours', 'Vendu']),
	);
	// A row whose criterion is no list chooses none, the first choice of every row.
	expect(await valuesOfRow('Prix')).toEqual([expect.objectContaining({ value: '' })]);
	expect((await valuesOfRow('TypeBien'))[0]).toMatchObject({ value: '' });
});

test('"From list" searches customers on the server, page by page', async () => {
	const search = async (filter?: string, paginationToken?: string) =>
		(
			await rest<{ results: Array<{ name: string; value: string }>; paginationToken?: string }>(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{ ...nodeRequest('searchCustomers', { resource: 'customer', operation: 'get' }), filter, paginationToken },
			)
		).data;
	const first = await search();
	expect(first.results).toHaveLength(50);
	expect(first.paginationToken).toBeTruthy();
	const second = await search(undefined, first.paginationToken);
	expect(second.results).toHaveLength(50);
	expect(new Set([...first.results, ...second.results].map((result) => result.value)).size).toBe(100);

	// A last name of this run's own: the shared sandbox holds other suites' contacts, whose names may
	// be shared by 50 of them or more ("… round 3"), so a name picked from the list may not narrow it.
	const lastName = `Locator${randomUUID().slice(0, 8)}`;
	const made = await sandboxApi(origin, demo)<{ data: { id: number } }>('POST', '/customers', {
		lastname: lastName,
		email: `${lastName.toLowerCase()}@example.com`,
	});
	const filtered = await search(lastName);
	expect(filtered.results.map((result) => result.value)).toEqual([String(made.data.id)]);
	expect(filtered.results[0].name).toContain(lastName);
});

/**
 * Issue 18, what a user sees in the real editor: the nodes panel, the Create or Update form, an error,
 * a new credential, the contact sync's run button. On n8n 2.x, the version the issue names
 * (test/unit/nodeDescription.test.ts checks the same facts on the descriptions, on every version);
 * n8n 1.x's editor is another interface, not driven here.
 */
onTheEditorOf2x('the editor of n8n 2.x', () => {
	let editor: Editor;

	beforeAll(async () => {
		editor = await openEditor(server);
	});

	afterAll(async () => {
		await editor?.close();
	});

	test('searching "contact" in the nodes panel finds Agency CRM, its actions under Contact Actions, none under "Action Actions"', async () => {
		await showWorkflow(editor, FORMS.id);
		expect(await searchNodesPanel(editor, 'contact')).toContain('Agency CRM');
		const { headers, actions } = await openPanelNode(editor, 'Agency CRM');
		// n8n renders the first groups of the list (Activity … Criterion); those further down come on scrolling.
		expect(headers).toEqual(expect.arrayContaining(['Activity Actions', 'Contact Actions']));
		expect(headers.map((header) => header.toLowerCase())).not.toContain('action actions');
		expect(actions).toEqual(expect.arrayContaining(['Create or update a contact', 'Log an activity on a contact']));
	});

	test('the Create or Update form shows Email, then Phone and Mobile Phone, before any other data field', async () => {
		await showWorkflow(editor, FORMS.id);
		await openNode(editor, 'Create or Update Contact');
		const data = (await parameterOrder(editor)).filter((name) => !['resource', 'operation'].includes(name));
		expect(data.slice(0, 3)).toEqual(['email', 'phone', 'mobilePhone']);
		expect(data).toEqual(expect.arrayContaining(['agencyId', 'lastname']));
	});

	test('the Create or Update form states its matching policy in a notice, and offers it under Options (issue 32)', async () => {
		await showWorkflow(editor, FORMS.id);
		await openNode(editor, 'Create or Update Contact');
		const shown = await parameterOrder(editor);
		expect(shown).toEqual(expect.arrayContaining(['matchBy', 'whenPhoneMatchDiffers', 'withoutEmail']));
		const notice = await editor.page.locator('[data-test-id="node-parameters"] .notice').first().innerText();
		expect(notice).toContain('The contact is the one with this email (by its phones only when the item has none)');
		const values = await editor.page
			.locator('[data-test-id="node-parameters"] [data-test-id^="parameter-input-"] input')
			.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
		expect(values).toEqual(
			expect.arrayContaining(['Email, Else Phones', 'Create a New Contact', 'Create With a Placeholder Email']),
		);
	});

	test("a Create with an invalid email and phone shows one line per problem, with the field's label, then what to do", async () => {
		await showWorkflow(editor, FORMS.id);
		await openNode(editor, 'Create Contact');
		const { message, lines } = await executeNodeError(editor);
		expect(message).toBe('VALIDATION_ERROR: 2 fields refused (HTTP 422)');
		expect(lines).toEqual([
			'"Email" (email): must be an email address',
			'"Mobile Phone" (mobile_phone): must be a phone number',
			"Fix these fields in the node's parameters and run again.",
			expect.stringMatching(/^Request ID: [0-9a-f-]{36} \(quote it to Agency CRM support\)$/),
		]);
	});

	test('a new credential has an empty Site ID', async () => {
		const values = await newCredential(editor, 'Agency CRM API');
		expect(values).toMatchObject({ authUrl: '', clientId: '', siteId: '' });
	});

	test('the trigger shows each option only for the events it concerns: contact data for contact events, property data for property events', async () => {
		const shown = async (name: string) => {
			await showWorkflow(editor, TRIGGER_FORMS.id);
			await openNode(editor, name);
			return await parameterOrder(editor);
		};
		const contact = await shown('Contact Trigger');
		expect(contact).toEqual(
			expect.arrayContaining(['customerInclude', 'contactCompared', 'dropRepeatedDeliveries', 'whenRecordGone']),
		);
		expect(contact).not.toEqual(expect.arrayContaining(['productFetch']));
		expect(contact).not.toEqual(expect.arrayContaining(['productCompared']));
		const property = await shown('Property Trigger');
		expect(property).toEqual(
			expect.arrayContaining(['productFetch', 'productCompared', 'catchUp', 'whenRecordGone', 'answer']),
		);
		expect(property).not.toEqual(expect.arrayContaining(['customerInclude']));
		expect(property).not.toEqual(expect.arrayContaining(['contactCompared']));
	});

	test("the contact sync's Execute workflow button starts from Every Hour, as its sticky says", async () => {
		await showWorkflow(editor, CONTACT_SYNC.id);
		expect(await executeButtonText(editor)).toContain('from Every Hour');
	});
});

/**
 * Issue 27: a criterion row's Value From List follows the Criterion chosen in that row, in the editor
 * of n8n 1.x as of 2.x (each resolves the row's `&id` for the dropdown and the method).
 */
describe(`the criteria rows in the editor of n8n ${instance.n8n.runtime}`, () => {
	let editor: Editor;

	beforeAll(async () => {
		editor = await openEditor(server);
	});

	afterAll(async () => {
		await editor?.close();
	});

	test("a property's criteria rows offer the criteria by label; a row's Value From List follows the Criterion chosen in that row", async () => {
		await showWorkflow(editor, PROPERTIES.id);
		await openNode(editor, 'Create Property');
		expect(await dropdownChoices(editor, 'id', 0)).toEqual(
			expect.arrayContaining(['Type de bien (unique)', 'Prix (number)', 'Statut (unique)']),
		);
		expect(await dropdownChoices(editor, 'listValue', 0)).toEqual(
			expect.arrayContaining(['Maison', 'Local commercial', 'Parking / box']),
		);
		await choose(editor, 'id', 0, 'Statut (unique)');
		const statuses = await dropdownChoices(editor, 'listValue', 0);
		expect(statuses).toEqual(expect.arrayContaining(['En cours', 'Vendu']));
		expect(statuses).not.toContain('Maison');
	});
});
