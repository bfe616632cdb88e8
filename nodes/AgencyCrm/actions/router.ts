import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { findEndpoint } from '../catalogue';
import { InputError } from '../catalogue/rules';
import type { Problem } from '../catalogue/types';
import { CUSTOM_OPERATIONS } from './customOperations';
import { prepareRequest } from './prepareRequest';
import { runEndpoint } from './runEndpoint';

/** Any failure of one item as the n8n error users see, with the item it belongs to. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		return new NodeOperationError(context.getNode(), `Invalid input: ${error.message}`, {
			itemIndex,
			description: `Nothing was sent to Agency CRM. Fix ${error.problems.map((problem) => problem.field).join(', ')} and run again.`,
		});
	}
	return new NodeApiError(context.getNode(), error as JsonObject, { itemIndex });
}

/** The item's error as output data, for "Continue On Fail". */
function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const httpCode = error instanceof NodeApiError ? error.httpCode : undefined;
	const apiError = error.context.apiError as IDataObject | undefined;
	return {
		json: {
			error: error.message,
			description: error.description ?? undefined,
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
 * Runs the chosen operation for every input item, in input order. One item's failure stops the
 * run, or with "Continue On Fail" becomes that item's output while the others go on.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	const hints: Array<{ problem: Problem; itemIndex: number }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const endpoint = findEndpoint(resource, operation);
			if (!endpoint) {
				throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" for resource "${resource}"`, {
					itemIndex,
				});
			}
			const request = await prepareRequest(this, endpoint, itemIndex);
			hints.push(...request.hints.map((problem) => ({ problem, itemIndex })));
			const results = endpoint.custom
				? await CUSTOM_OPERATIONS[endpoint.custom].call(this, endpoint, request, itemIndex)
				: await runEndpoint(this, endpoint, request, itemIndex);
			output.push(...results.map((result) => ({ ...result, pairedItem: { item: itemIndex } })));
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push(errorItem(nodeError, itemIndex));
		}
	}
	if (hints.length) addHints(this, hints);
	return [output];
}
