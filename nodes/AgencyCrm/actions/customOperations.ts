import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { CustomOperationKey, Endpoint, PreparedRequest } from '../catalogue/types';
import { createCustomer } from './contact/create';
import { upsertCustomer } from './contact/upsert';
import type { ItemRun } from './itemRun';

/** Runs an operation that is more than one request, from its prepared request. */
export type CustomOperation = (
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
) => Promise<INodeExecutionData[]>;

/** The operations a catalogue entry names by key (`custom`), so that the catalogue imports no action code. */
export const CUSTOM_OPERATIONS: Record<CustomOperationKey, CustomOperation> = { createCustomer, upsertCustomer };
