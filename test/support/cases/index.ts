import { actionCases } from './action';
import { agencyCases } from './agency';
import { calendarCases } from './calendar';
import { configCases } from './config';
import { consentCases } from './consent';
import { criterionCases } from './criterion';
import { customerCases } from './customer';
import { followUpCases } from './followUp';
import { leadCases } from './lead';
import { mandateCases } from './mandate';
import { productCases } from './product';
import { searchRequestCases } from './searchRequest';
import { transactionCases } from './transaction';
import type { EndpointCase, SharedIds } from './types';
import { userCases } from './user';
import { webhookCases } from './webhook';

/**
 * Every in-process case, by resource, in the order they run: a case that uses an id kept by another
 * (update a search request, delete a user or a webhook) comes after it in the same table.
 */
export const CASE_TABLES: ReadonlyArray<{ resource: string; cases: EndpointCase[] }> = [
	{ resource: 'agency', cases: agencyCases },
	{ resource: 'product', cases: productCases },
	{ resource: 'criterion', cases: criterionCases },
	{ resource: 'customer', cases: customerCases },
	{ resource: 'consent', cases: consentCases },
	{ resource: 'searchRequest', cases: searchRequestCases },
	{ resource: 'followUp', cases: followUpCases },
	{ resource: 'action', cases: actionCases },
	{ resource: 'lead', cases: leadCases },
	{ resource: 'transaction', cases: transactionCases },
	{ resource: 'user', cases: userCases },
	{ resource: 'mandate', cases: mandateCases },
	{ resource: 'webhook', cases: webhookCases },
	{ resource: 'config', cases: configCases },
	{ resource: 'calendar', cases: calendarCases },
];

export const ENDPOINT_CASES: readonly EndpointCase[] = CASE_TABLES.flatMap((table) => table.cases);

/** Ids for reading the cases without running them first (nothing is sent with these). */
export const PLACEHOLDER_IDS: SharedIds = { searchRequestId: 1, userId: 1005, hookId: 1 };

export type { EndpointCase, ExpectedRequest, Later, SharedIds } from './types';
export { resolve } from './types';
