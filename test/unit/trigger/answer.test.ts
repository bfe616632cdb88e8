import { AgencyCrmAnswer } from '../../../nodes/AgencyCrmAnswer/AgencyCrmAnswer.node';
import { fakeContext } from '../../support/fakeN8n';
import { NODE_NAME } from '../../support/triggerWorld';

/** The Agency CRM Answer node: answers the delivery that started the workflow, when its trigger leaves it the answer. */
describe('Agency CRM Answer', () => {
	const triggerAnswering = (answer: string) => [
		{ name: NODE_NAME, type: 'n8n-nodes-agency-crm.agencyCrmTrigger', typeVersion: 2, parameters: { answer } },
	];
	const run = (parameters: Record<string, unknown>, parentNodes = triggerAnswering('workflow')) => {
		const fake = fakeContext({ nodeName: 'Agency CRM Answer', parameters, parentNodes, items: [{ json: { a: 1 } }] });
		return { fake, output: new AgencyCrmAnswer().execute.call(fake.execute) };
	};

	test('refuses the record with a 422 and the reason (Agency CRM marks it as errored), and passes its items on', async () => {
		const { fake, output } = run({ answer: 'refuse', reason: ' No e-mail address ' });
		expect(await output).toEqual([[{ json: { a: 1 } }]]);
		expect(fake.sentResponses).toEqual([{ body: { reason: 'No e-mail address' }, headers: {}, statusCode: 422 }]);
	});

	test('accepts with a 200', async () => {
		const { fake, output } = run({ answer: 'accept' });
		await output;
		expect(fake.sentResponses).toEqual([{ body: { received: true }, headers: {}, statusCode: 200 }]);
	});

	test('refuses without a reason, before answering anything', async () => {
		const { fake, output } = run({ answer: 'refuse', reason: '  ' });
		await expect(output).rejects.toThrow('Invalid input: "Reason" is required to refuse a record');
		expect(fake.sentResponses).toEqual([]);
	});

	test('after a trigger that answers at once (or none), it says how to set the trigger, and answers nothing', async () => {
		for (const parents of [triggerAnswering('immediately'), []]) {
			const { fake, output } = run({ answer: 'accept' }, parents);
			await expect(output).rejects.toThrow('No Agency CRM Trigger before this node leaves the answer to it');
			expect(fake.sentResponses).toEqual([]);
		}
	});
});
