import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { linesDescription, plainDescription } from '../../shared/transport';
import type { SiteCriteria } from '../catalogue/criteria/site';
import { DEFAULT_CONCURRENCY, concurrencyOption } from '../catalogue/nodeOptions';
import { InputError } from '../catalogue/rules';
import type { Endpoint, PreparedRequest, Problem } from '../catalogue/types';
import { problemsOf } from '../catalogue/validate';
import { mapBounded } from './concurrency';
import { endpointOfItem, parameterReader } from './parameters';
import { CUSTOM_OPERATIONS } from './customOperations';
import { prepareRequest } from './prepareRequest';
import type { ItemRun } from './itemRun';
import { runEndpoint } from './runEndpoint';
import { siteCriteriaOf } from './siteCriteria';
import { WriteOrder } from './writeOrder';

/** Several problems one per line (one alone is the message), then what to do. */
function inputErrorDescription(problems: Problem[]): string | undefined {
	const lines = problems.length > 1 ? problems.map((problem) => `${problem.field} ${problem.message}`) : [];
	const fields = [...new Set(problems.map((problem) => problem.field))].join(', ');
	return linesDescription([...lines, `Nothing was sent to Agency CRM. Fix ${fields} and run again.`]);
}

/** Any failure of one item as the n8n error users see, with the item it belongs to. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		return new NodeOperationError(context.getNode(), `Invalid input: ${error.message}`, {
			itemIndex,
			description: inputErrorDescription(error.problems),
		});
	}
	return new NodeApiError(context.getNode(), error as JsonObject, { itemIndex });
}

/** The item's error as output data, for "Continue On Fail". */
function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const httpCode = error instanceof NodeApiError ? error.httpCode : undefined;
	const apiError = error.context.apiError as IDataObject | undefined;
	// What the operation said of the failure as data (a contact's `outcome: failed`), beside the error.
	const output = error.context.output as IDataObject | undefined;
	return {
		json: {
			...output,
			error: error.message,
			description: error.description ? plainDescription(error.description) : undefined,
			httpCode: httpCode ?? undefined,
			...(apiError ? { apiError } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

/**
 * Input that contradicts a guess (docs/assumptions.md) is sent as given: the user sees one hint per
 * distinct problem, with the items it concerns, rather than one per item.
 */
function addHints(context: IExecuteFunctions, hints: Array<{ problem: Problem; itemIndex: number }>) {
	const byMessage = new Map<string, number[]>();
	for (const { problem, itemIndex } of hints) {
		const text = `${problem.field} ${problem.message}`;
		byMessage.set(text, [...(byMessage.get(text) ?? []), itemIndex]);
	}
	context.addExecutionHints(
		...[...byMessage].map(([text, items]) => ({
			message: `${text}. Sent as given, since the API's rule is not documented (item${items.length > 1 ? 's' : ''} ${items.join(', ')}).`,
			type: 'warning' as const,
			location: 'outputPane' as const,
		})),
	);
}

/**
 * What the run tells beyond its data: one hint per distinct notice (a contact reused, a record read
 * back, a search that returned other contacts), with the items it concerns.
 */
function addNotices(context: IExecuteFunctions, notices: Array<{ message: string; itemIndex: number }>) {
	const byMessage = new Map<string, number[]>();
	for (const { message, itemIndex } of notices) byMessage.set(message, [...(byMessage.get(message) ?? []), itemIndex]);
	context.addExecutionHints(
		...[...byMessage].map(([message, items]) => ({
			message: `${message} (item${items.length > 1 ? 's' : ''} ${items.join(', ')}).`,
			type: 'info' as const,
			location: 'outputPane' as const,
		})),
	);
}

/** What one item gives: its output items (or its error item), the hints of its input, and its notices. */
interface ItemResult {
	output: INodeExecutionData[];
	hints: Problem[];
	notices: string[];
}

/** What an item writes (`Endpoint.writes`): by default, the path of a PUT, PATCH or DELETE. */
function writesOf(endpoint: Endpoint, request: PreparedRequest): string[] {
	if (endpoint.writes) return endpoint.writes(request);
	return ['PUT', 'PATCH', 'DELETE'].includes(endpoint.method) ? [`path:${request.path}`] : [];
}

/**
 * One item: its plan prepared in one phase (every input read, converted, its criteria resolved against
 * the site's the run read, all judged once, the request and the output asked; its hints kept in
 * `hints`, even when the request then fails), its turn waited for when earlier items write the same
 * record (writeOrder.ts), then sent, and its answer as output items paired with it.
 */
async function runItem(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	item: ItemRun,
	site: SiteCriteria,
	hints: Problem[],
) {
	const itemIndex = item.index;
	const request = await prepareRequest(context, endpoint, itemIndex, site);
	hints.push(...request.hints);
	item.notices.push(...request.notices);
	await item.turn.ready(writesOf(endpoint, request));
	const results = endpoint.custom
		? await CUSTOM_OPERATIONS[endpoint.custom].call(context, endpoint, request, item)
		: await runEndpoint(context, endpoint, request, item);
	return results.map((result) => ({ ...result, pairedItem: { item: itemIndex } }));
}

/**
 * The Concurrency option, read once for the run from the first item and validated as any option
 * (catalogue/validate.ts). Not a whole number of at least 1: the run stops before any request,
 * naming the option. An unknown operation fails item by item instead.
 */
function concurrencyOf(context: IExecuteFunctions): number {
	let endpoint: Endpoint;
	try {
		endpoint = endpointOfItem(context, 0);
	} catch {
		return DEFAULT_CONCURRENCY;
	}
	const value = parameterReader(context, endpoint, 0)(concurrencyOption) ?? DEFAULT_CONCURRENCY;
	const problems = problemsOf(endpoint, undefined, new Map([[concurrencyOption, { value }]]));
	if (problems.length) throw asNodeError(context, new InputError(problems), 0);
	return Number(value);
}

/**
 * Runs the chosen operation for every input item, up to Concurrency items at once (each item sends
 * its requests one after another, so that is also the bound on requests in flight). Output keeps
 * the input order, and items that write the same record send in input order (writeOrder.ts). One
 * item's failure stops the run: no further item starts, those under way finish, and the failure of
 * the lowest item index is thrown. With "Continue On Fail", a failed item becomes its error item,
 * paired with its input, and the others go on. The site's criteria the items name are read before
 * the first item (siteCriteria.ts), once for the run.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (!items.length) return [[]];
	const continueOnFail = this.continueOnFail();
	const order = new WriteOrder();
	const concurrency = concurrencyOf(this);
	const site = await siteCriteriaOf(this, items.length);
	const results = await mapBounded(items.length, concurrency, async (itemIndex): Promise<ItemResult> => {
		const turn = order.reserve(itemIndex);
		const item: ItemRun = { index: itemIndex, turn, notices: [] };
		const hints: Problem[] = [];
		try {
			const endpoint = endpointOfItem(this, itemIndex);
			return { output: await runItem(this, endpoint, item, site, hints), hints, notices: item.notices };
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			return { output: [errorItem(nodeError, itemIndex)], hints, notices: item.notices };
		} finally {
			turn.done();
		}
	});
	const hints = results.flatMap((result, itemIndex) => result.hints.map((problem) => ({ problem, itemIndex })));
	if (hints.length) addHints(this, hints);
	const notices = results.flatMap((result, itemIndex) => result.notices.map((message) => ({ message, itemIndex })));
	if (notices.length) addNotices(this, notices);
	return [results.flatMap((result) => result.output)];
}
