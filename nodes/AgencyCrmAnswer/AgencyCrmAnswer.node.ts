import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { ANSWER } from '../shared/answer';

/** The item the trigger started the workflow with (what it says of the delivery). */
function triggerItemOf(context: IExecuteFunctions, triggerName: string): IDataObject {
	try {
		return (context.getWorkflowDataProxy(0).$(triggerName).first()?.json ?? {}) as IDataObject;
	} catch {
		return {};
	}
}

/**
 * Why the delivery can no longer be answered, if it cannot: the trigger answered 200 in the
 * workflow's place once its budget was spent, or the execution is a replay the trigger sent itself
 * (n8n answered it; Agency CRM is not waiting).
 */
function unanswerableBecause(triggerItem: IDataObject): IDataObject | undefined {
	if (triggerItem.caught_up === true) {
		return { sent: false, reason: 'A replay of a missed change: Agency CRM is not waiting for an answer.' };
	}
	const answerBy = typeof triggerItem.answer_by === 'string' ? Date.parse(triggerItem.answer_by) : NaN;
	if (Number.isNaN(answerBy) || Date.now() < answerBy) return undefined;
	return {
		sent: false,
		reason: `Too late: the trigger answered 200 in the workflow's place at ${String(triggerItem.answer_by)} (Agency CRM waits 10 seconds). Move this node before any long step.`,
	};
}

/** The trigger's type name ends so, under a community install (`n8n-nodes-agency-crm.`) or a custom folder (`CUSTOM.`). */
const TRIGGER_TYPE = '.agencyCrmTrigger';

/**
 * Answers the Agency CRM delivery that started the workflow, as n8n's Respond to Webhook does for its
 * Webhook node (which refuses any other trigger): a 200, or a 422 with a reason, which Agency CRM
 * takes as the receiver refusing the record and marks it as errored, with the reason from the body
 * (docs/assumptions.md, "Production evidence"). The spec names the 422 for contact events only; the
 * reason goes under `reason`, the evidence's word for it (the sandbox also reads a plain-text body).
 * It passes its items on.
 */
export class AgencyCrmAnswer implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM Answer',
		name: 'agencyCrmAnswer',
		icon: { light: 'file:../../icons/agencyCrm.svg', dark: 'file:../../icons/agencyCrm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["answer"] === "refuse" ? "Refuse the record" : "Accept" }}',
		description:
			'Answer the Agency CRM delivery that started the workflow: accept it, or refuse the record with a reason',
		defaults: { name: 'Agency CRM Answer' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		properties: [
			{
				displayName:
					'Answers the delivery that started this workflow, when its Agency CRM Trigger has "Answer" set to "From the Workflow"; otherwise the trigger has answered already and this node has no effect. Agency CRM waits 10 seconds: past 8, the trigger answers 200 in the workflow\'s place, and this node\'s items say it came too late. Put it before any long step.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Answer',
				name: 'answer',
				type: 'options',
				options: [
					{
						name: 'Accept',
						value: 'accept',
						description: 'HTTP 200: Agency CRM counts the delivery as taken',
					},
					{
						name: 'Refuse the Record',
						value: 'refuse',
						description:
							'HTTP 422 with the reason: Agency CRM marks the record as errored with it and does not send the delivery again. Documented for contacts; for a property, what production is seen doing.',
					},
				],
				default: 'accept',
			},
			{
				displayName:
					'Agency CRM marks the record as errored, with the reason (sent as {"reason": "…"}), and does not send it again. The API documents this answer for contact events; for a property it is what production is seen doing.',
				name: 'refusalNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { answer: ['refuse'] } },
			},
			{
				displayName: 'Reason',
				name: 'reason',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. No e-mail address: the mailing list needs one',
				displayOptions: { show: { answer: ['refuse'] } },
				description:
					'Why the record is refused, sent as {"reason": "…"}: Agency CRM shows it on the record as its error',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const parents = this.getParentNodes(this.getNode().name, { includeNodeParameters: true });
		const trigger = parents.find(
			(parent) => parent.type.endsWith(TRIGGER_TYPE) && parent.parameters?.answer === ANSWER.fromWorkflow,
		);
		if (!trigger) {
			throw new NodeOperationError(this.getNode(), 'No Agency CRM Trigger before this node leaves the answer to it', {
				description:
					'Set "Answer" to "From the Workflow" on the Agency CRM Trigger that starts this workflow. Otherwise the trigger has already answered Agency CRM, and this node would change nothing.',
			});
		}
		const refuse = this.getNodeParameter('answer', 0) === 'refuse';
		const reason = refuse ? String(this.getNodeParameter('reason', 0)).trim() : '';
		if (refuse && reason === '') {
			throw new NodeOperationError(this.getNode(), 'Invalid input: "Reason" is required to refuse a record', {
				description: 'Nothing was answered yet. Say why the record is refused: Agency CRM shows it on the record.',
			});
		}
		const unanswerable = unanswerableBecause(triggerItemOf(this, trigger.name));
		if (unanswerable)
			return [items.map((item) => ({ ...item, json: { ...item.json, agency_crm_answer: unanswerable } }))];
		await this.sendResponse({
			body: refuse ? { reason } : { received: true },
			headers: {},
			statusCode: refuse ? 422 : 200,
		});
		return [items];
	}
}
