import type { IDataObject } from 'n8n-workflow';

import { AgencyCrmAnswer } from '../../../nodes/AgencyCrmAnswer/AgencyCrmAnswer.node';
import { fakeContext } from '../../support/fakeN8n';
import { NODE_NAME } from '../../support/triggerWorld';

/** The Agency CRM Answer node: answers the delivery that started the workflow, when its trigger leaves it the answer. */
describe('Agency CRM Answer', () => {
	const triggerAnswering = (answer: string) => [
		{ name: NODE_NAME, type: 'n8n-nodes-agency-crm.agencyCrmTrigger', typeVersion: 2, parameters: { answer } },
	];
	const run = (
		parameters: Record<string, unknown>,
		parentNodes = triggerAnswering('workflow'),
		triggerItem: IDataObject = { answer_by: new Date(Date.now() + 5000).toISOString() },
	) => {
		const fake = fakeContext({
			nodeName: 'Agency CRM Answer',
			parameters,
			parentNodes,
			items: [{ json: { a: 1 } }],
			firstItems: { [NODE_NAME]: triggerItem },
		});
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

	test('past the budget, the trigger has answered 200 in its place: it answers nothing, and its items say it came too late', async () => {
		const answeredBy = new Date(Date.now() - 1000).toISOString();
		const { fake, output } = run({ answer: 'refuse', reason: 'No e-mail' }, triggerAnswering('workflow'), {
			answer_by: answeredBy,
		});
		expect(await output).toEqual([
			[
				{
					json: {
						a: 1,
						agency_crm_answer: {
							sent: false,
							reason: `Too late: the trigger answered 200 in the workflow's place at ${answeredBy} (Agency CRM waits 10 seconds). Move this node before any long step.`,
						},
					},
				},
			],
		]);
		expect(fake.sentResponses).toEqual([]);
	});

	test('in a replay of a missed change nobody waits: it answers nothing, and its items say why', async () => {
		const { fake, output } = run({ answer: 'accept' }, triggerAnswering('workflow'), { caught_up: true });
		expect((await output)[0][0].json.agency_crm_answer).toEqual({
			sent: false,
			reason: 'A replay of a missed change: Agency CRM is not waiting for an answer.',
		});
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
