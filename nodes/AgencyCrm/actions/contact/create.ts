import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { answerOrRefusal } from '../../../shared/transport';
import { endpointOf } from '../../catalogue';
import { requestFor } from '../../catalogue/requests';
import { policyOf } from '../../catalogue/resources/contact/matching';
import type { Endpoint, PreparedRequest } from '../../catalogue/types';
import type { ItemRun } from '../itemRun';
import { OUTCOME, OUTCOME_EVIDENCE, outputShaper } from '../output';
import { writtenRecords } from '../writtenRecord';
import { createdByTheRequest } from './created';
import { existingContact } from './find';
import { follow } from './send';

const CHECK_DUPLICATE = 'check_duplicate';

/**
 * Contact → Create: the contact the API answers with, and whether it is new (`created`) or one the API
 * already had (`existing`, returned unchanged: the item's fields were not applied, and the execution
 * gets a hint saying so), on the evidence of the answer. With Check Duplicate on, the API's 409 is
 * that evidence: the contact it names is found (by its email, else by a phone whose contact nothing
 * contradicts) and output as `existing`; none the node can be sure of: the 409 stands, saying which
 * contacts were left alone and why.
 */
export async function createCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const create = endpointOf('customer:create');
	const sentAt = Date.now();
	let decided: { record: IDataObject; outcome: string; evidence: string };
	const answer = await answerOrRefusal(this, requestFor(create, request, item.index), 409);
	if ('refused' in answer) {
		// Without Check Duplicate the API uses the contact it has (spec section 4): a 409 is not that answer.
		if (request.body[CHECK_DUPLICATE] !== true) throw answer.refused;
		const found = await follow(this, request, item, existingContact(request.body, policyOf()));
		if (!found.record) {
			answer.refused.description = [
				answer.refused.description,
				'The node then searched for that contact by its email and phones, and found none it could be sure of.',
				...found.leftAlone,
			]
				.filter(Boolean)
				.join('<br>');
			throw answer.refused;
		}
		decided = {
			record: found.record,
			outcome: 'existing',
			evidence: `HTTP 409 to Check Duplicate; found by ${found.by}`,
		};
	} else {
		const [record] = await writtenRecords(this, create, request, answer, item);
		const checked = request.body[CHECK_DUPLICATE] === true;
		decided = { record, ...createdByTheRequest(answer, record, sentAt, checked) };
	}
	if (decided.outcome === 'existing') {
		item.notices.push(
			'The API answered the create with a contact it already had (same email or phone), unchanged: this item\'s fields were not applied. "Create or Update" applies them',
		);
	}
	const shaped = outputShaper(endpoint, request, item)(decided.record);
	return [{ json: { ...shaped, [OUTCOME]: decided.outcome, [OUTCOME_EVIDENCE]: decided.evidence } }];
}
