import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiResponse } from '../../../shared/transport';
import { apiRequest, collectPages, responseData } from '../../../shared/transport';
import { endpointOf } from '../../catalogue';
import { emailOf, mostRecent } from '../../catalogue/contacts';
import { SEARCH_HITS_LOOKED_AT, SEARCH_PAGE_SIZE } from '../../catalogue/resources/contact/matching';
import { requestFor, requestOf } from '../../catalogue/requests';
import type { PreparedRequest } from '../../catalogue/types';
import type { ItemRun } from '../itemRun';
import { wholeRecordOf, writtenRecords } from '../writtenRecord';
import { createdByTheRequest } from './created';
import type { Answer, ContactId, ContactPlan, Step } from './steps';

/**
 * Sends what the contact decision asks (decide.ts) and tells it what the API answered: the only
 * I/O of Create or Update. A refusal or a failure is an answer like any other; the decision says
 * whether the item fails on it.
 */

const statusOf = (error: unknown) => (error as { httpCode?: string | null }).httpCode;

/** A thrown failure as an answer: its status when the API answered, and its message. */
function refused(error: unknown): Answer {
	const status = Number(statusOf(error));
	const message = (error as Error).message;
	return { kind: 'refused', status: Number.isInteger(status) ? status : undefined, message, cause: error };
}

/** The hits of one contact search, up to SEARCH_HITS_LOOKED_AT, newest first; each with what a contact read loads. */
async function search(context: IExecuteFunctions, filter: IDataObject, item: ItemRun): Promise<IDataObject[]> {
	const request = requestOf('customer:getAll', { body: filter }, item.index);
	return await collectPages(context, request, 'cursor', SEARCH_HITS_LOOKED_AT, SEARCH_PAGE_SIZE);
}

/**
 * A create, looked for by its email after a lost answer (a connection reset, a 502, a 504): found,
 * that contact is the create's answer; not found, the create was not processed and is sent again.
 */
async function create(context: IExecuteFunctions, request: PreparedRequest, item: ItemRun, body: IDataObject) {
	const endpoint = endpointOf('customer:create');
	const prepared: PreparedRequest = { ...request, body };
	let lookedUp = false;
	const lookUpOutcome = async (): Promise<ApiResponse | undefined> => {
		const hits = await search(context, { email: body.email }, item);
		const made = mostRecent(hits.filter((hit) => emailOf(hit.email) === emailOf(body.email)));
		lookedUp = made !== undefined;
		return made && { statusCode: 201, body: { data: made }, headers: {} };
	};
	const sentAt = Date.now();
	const response = await apiRequest(context, { ...requestFor(endpoint, prepared, item.index), lookUpOutcome });
	const [record] = await writtenRecords(context, endpoint, prepared, response, item);
	const judged = createdByTheRequest(response, record, sentAt, true);
	const existed = judged.outcome === 'existing' ? judged.evidence : undefined;
	return { kind: 'written', status: response.statusCode, record, existed, lookedUp } satisfies Answer;
}

/** An update; its answer's record only when it is the whole contact (production answers 204 with no body). */
async function update(context: IExecuteFunctions, item: ItemRun, id: ContactId, changes: IDataObject) {
	const endpoint = endpointOf('customer:update');
	const response = await apiRequest(
		context,
		requestFor(endpoint, { pathParams: { customerId: id }, body: changes }, item.index),
	);
	const record = wholeRecordOf(endpoint, response);
	return { kind: 'written', status: response.statusCode, record } satisfies Answer;
}

async function read(context: IExecuteFunctions, item: ItemRun, id: ContactId): Promise<Answer> {
	try {
		const response = await apiRequest(
			context,
			requestOf('customer:get', { pathParams: { customerId: id } }, item.index),
		);
		return { kind: 'read', record: responseData(response) as IDataObject };
	} catch (error) {
		return { kind: 'unread', message: (error as Error).message };
	}
}

/** Sends one step of the decision. */
async function perform(
	context: IExecuteFunctions,
	request: PreparedRequest,
	item: ItemRun,
	step: Step,
): Promise<Answer> {
	switch (step.kind) {
		case 'search':
			return await search(context, step.filter, item).then(
				(records): Answer => ({ kind: 'hits', records }),
				(error: unknown): Answer => ({ kind: 'unsearched', message: (error as Error).message, cause: error }),
			);
		case 'claim':
			return { kind: 'claimed', writtenMeanwhile: await item.turn.resolved(step.ids.map((id) => `contact:${id}`)) };
		case 'create':
			return await create(context, request, item, step.body).catch(refused);
		case 'update':
			return await update(context, item, step.id, step.changes).catch(refused);
		case 'read':
			return await read(context, item, step.id);
	}
}

/** Follows a plan of the decision to its end: every step sent, every answer given back. */
export async function follow<T>(
	context: IExecuteFunctions,
	request: PreparedRequest,
	item: ItemRun,
	plan: ContactPlan<T>,
): Promise<T> {
	let next = plan.next();
	while (!next.done) next = plan.next(await perform(context, request, item, next.value));
	return next.value;
}
