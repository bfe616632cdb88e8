import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { findEndpoint } from '../catalogue';
import { RuleViolation } from '../catalogue/rules';
import { buildWireRequest } from './buildRequest';
import { runEndpoint } from './runEndpoint';

/** Any failure of one item as the n8n error users see, with the item it belongs to. */
function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof RuleViolation) {
		return new NodeOperationError(context.getNode(), `Invalid input: ${error.message}`, {
			itemIndex,
			description: `Nothing was sent to Agency CRM. Fix ${error.violations.map((violation) => violation.field).join(', ')} and run again.`,
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
 * Runs the chosen operation for every input item, in input order. One item's failure stops the
 * run, or with "Continue On Fail" becomes that item's output while the others go on.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
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
			const wire = await buildWireRequest(this, endpoint, itemIndex);
			const results = endpoint.custom
				? await endpoint.custom.call(this, wire, itemIndex)
				: await runEndpoint(this, endpoint, wire, itemIndex);
			output.push(...results.map((result) => ({ ...result, pairedItem: { item: itemIndex } })));
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push(errorItem(nodeError, itemIndex));
		}
	}
	return [output];
}
