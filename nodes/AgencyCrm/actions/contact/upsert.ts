import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { policyOf } from '../../catalogue/resources/contact/matching';
import type { Endpoint, PreparedRequest } from '../../catalogue/types';
import type { ItemRun } from '../itemRun';
import { OUTCOME, OUTCOME_EVIDENCE, outputShaper } from '../output';
import { decideContact } from './decide';
import { follow } from './send';
import type { Decision, Failure } from './steps';

/**
 * Contact → Create or Update (reference use case 1): the contact decision (decide.ts) followed to its
 * end. Every item says what happened as data a workflow can branch on: `outcome` (created, updated,
 * unchanged; failed on the error item of Continue On Fail), `matched_by` (email or phone),
 * `outcome_evidence` (the search and the API's answers that decided it) and, when a field given is
 * not on the contact, `fields_not_taken` with why.
 */

const MATCHED_BY = 'matched_by';
const FIELDS_NOT_TAKEN = 'fields_not_taken';

function outputOf(
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
	decided: Decision,
): INodeExecutionData[] {
	const notTaken = Object.keys(decided.notTaken).length ? { [FIELDS_NOT_TAKEN]: decided.notTaken } : {};
	const json = {
		...outputShaper(endpoint, request, item)(decided.record),
		[OUTCOME]: decided.outcome,
		[MATCHED_BY]: decided.matchedBy ?? null,
		[OUTCOME_EVIDENCE]: decided.evidence,
		...notTaken,
	};
	return [{ json }];
}

/**
 * The error a failure throws: the API's own when the API refused (its message and details kept),
 * otherwise the decision's. Either way its error item (Continue On Fail) says `outcome: failed`.
 */
function errorOf(context: IExecuteFunctions, failure: Failure, item: ItemRun): Error {
	const cause = failure.cause;
	const error =
		cause instanceof NodeApiError || cause instanceof NodeOperationError
			? cause
			: new NodeOperationError(context.getNode(), failure.message, { itemIndex: item.index });
	error.description = [error.description, failure.description].filter(Boolean).join(' ');
	return withFailedOutcome(error, failure.evidence);
}

/** Any error of the item, marked so that its error item says `outcome: failed` and why. */
function withFailedOutcome(error: unknown, evidence: string): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.output = { [OUTCOME]: 'failed', [OUTCOME_EVIDENCE]: evidence };
	}
	return error as Error;
}

export async function upsertCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	let decided: Decision | Failure;
	try {
		decided = await follow(this, request, item, decideContact(request.body, policyOf(request.settings)));
	} catch (error) {
		throw withFailedOutcome(error, (error as Error).message);
	}
	item.notices.push(...decided.notices);
	if (decided.outcome === 'failed') throw errorOf(this, decided, item);
	return outputOf(endpoint, request, item, decided);
}
