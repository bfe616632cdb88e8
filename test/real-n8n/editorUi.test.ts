import { testContext } from '../support/real-n8n/context';
import type { Editor } from '../../tools/n8n/editor';
import {
	contactFormsWorkflow,
	executeButtonText,
	executeNodeError,
	newCredential,
	openEditor,
	openNode,
	openPanelNode,
	openWorkflow,
	parameterOrder,
	searchNodesPanel,
} from '../../tools/n8n/editor';
import { readExamples } from '../../tools/n8n/examples';
import type { N8nProcess } from '../../tools/n8n/launcher';
import { importJson, startServer } from '../../tools/n8n/launcher';
import { sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 18, what a user sees in the real editor, in headless Chromium: the nodes panel, the Create or
 * Update form, an error, a new credential, the contact sync's run button. On n8n 2.x, the version the
 * issue names (test/unit/nodeDescription.test.ts checks the same facts on the descriptions, on
 * every version); n8n 1.x's editor is another interface, not driven here.
 */
const { origin, client, instance } = testContext();
const credential = {
	...sandboxCredential('agencyCrmSandbox', origin, client('demo-client')),
	name: 'Agency CRM Sandbox',
};
const FORMS = contactFormsWorkflow('wfContactForms01', credential);
const CONTACT_SYNC = readExamples().get('contact-sync-to-mailing-tool.json')!;

const onTheEditorOf2x = instance.n8n.major >= 2 ? describe : describe.skip;

onTheEditorOf2x('the editor of n8n 2.x', () => {
	let server: N8nProcess;
	let editor: Editor;

	beforeAll(async () => {
		await importJson(instance, 'credentials', [credential]);
		await importJson(instance, 'workflow', [FORMS, CONTACT_SYNC]);
		server = await startServer(instance);
		editor = await openEditor(server);
	});

	afterAll(async () => {
		await editor?.close();
		await server?.stop();
	});

	test('searching "contact" in the nodes panel finds Agency CRM, its actions under Contact Actions, none under "Action Actions"', async () => {
		await openWorkflow(editor, FORMS.id);
		expect(await searchNodesPanel(editor, 'contact')).toContain('Agency CRM');
		const { headers, actions } = await openPanelNode(editor, 'Agency CRM');
		// n8n renders the first groups of the list (Activity … Criterion); those further down come on scrolling.
		expect(headers).toEqual(expect.arrayContaining(['Activity Actions', 'Contact Actions']));
		expect(headers.map((header) => header.toLowerCase())).not.toContain('action actions');
		expect(actions).toEqual(expect.arrayContaining(['Create or update a contact', 'Log an activity on a contact']));
	});

	test('the Create or Update form shows Email, then Phone and Mobile Phone, before any other data field', async () => {
		await openWorkflow(editor, FORMS.id);
		await openNode(editor, 'Create or Update Contact');
		const data = (await parameterOrder(editor)).filter((name) => !['resource', 'operation'].includes(name));
		expect(data.slice(0, 3)).toEqual(['email', 'phone', 'mobilePhone']);
		expect(data).toEqual(expect.arrayContaining(['agencyId', 'lastname']));
	});

	test("a Create with an invalid email and phone shows one line per problem, with the field's label, then what to do", async () => {
		await openWorkflow(editor, FORMS.id);
		await openNode(editor, 'Create Contact');
		const { message, lines } = await executeNodeError(editor);
		expect(message).toMatch(/^VALIDATION_ERROR: .* \(HTTP 422\)$/);
		expect(lines).toEqual([
			'"Email" (email): must be an email address',
			'"Mobile Phone" (mobile_phone): must be a phone number',
			'Fix the fields above and run again.',
			expect.stringMatching(/^Request ID: [0-9a-f-]{36} \(quote it to Agency CRM support\)$/),
		]);
	});

	test('a new credential has an empty Site ID', async () => {
		const values = await newCredential(editor, 'Agency CRM API');
		expect(values).toMatchObject({ authUrl: '', clientId: '', siteId: '' });
	});

	test("the contact sync's Execute workflow button starts from Every Hour, as its sticky says", async () => {
		await openWorkflow(editor, CONTACT_SYNC.id);
		expect(await executeButtonText(editor)).toContain('from Every Hour');
	});
});
