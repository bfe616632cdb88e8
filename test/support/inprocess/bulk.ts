import type { INodeExecutionData } from 'n8n-workflow';

import { route } from '../../../nodes/AgencyCrm/actions/router';
import { pacingOf } from '../../../nodes/shared/transport/pacing';
import { admin } from '../sandbox/admin';
import { inProcessContext } from './context';
import { byId } from '../../../tools/n8n/workflows';

/**
 * Bulk runs of the action node against a sandbox (in this process or another): customer creates,
 * one per item, each with its own email, through the router with the real credential.
 */

export async function duplicateContacts(origin: string): Promise<number> {
	const answer = await admin<{ data: { duplicate_contacts: number } }>(origin, 'GET', '/duplicate-contacts?site_id=1');
	return answer.data.duplicate_contacts;
}

/** The email of item `index` of a run tagged `tag`: unique across runs that use different tags. */
export const emailOf = (tag: string, index: number) => `bulk.${tag}.${index}@example.com`;

/** Customer Create items, each with its own email, at the given Concurrency (none: the default). */
export function customerCreates(tag: string, count: number, concurrency?: number): Array<Record<string, unknown>> {
	return Array.from({ length: count }, (_, index) => ({
		resource: 'customer',
		operation: 'create',
		agencyId: byId(101),
		lastname: `Bulk ${index}`,
		output: 'simple',
		additionalFields: {
			email: emailOf(tag, index),
			...(concurrency === undefined ? {} : { concurrency }),
		},
	}));
}

export interface BulkRun {
	output: INodeExecutionData[];
	wallMs: number;
	/** Pauses started by 429s in the run (one pause covers every 429 answered while it lasts). */
	pauses: number;
}

/** Runs the items through the node as demo-client, as one execution. */
export async function runNode(
	origin: string,
	items: Array<Record<string, unknown>>,
	continueOnFail = false,
): Promise<BulkRun> {
	const { context } = inProcessContext(
		{ authUrl: origin, clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'site', siteId: 1 },
		items,
		[],
		continueOnFail,
	);
	const started = performance.now();
	const [output] = await route.call(context);
	return { output, wallMs: performance.now() - started, pauses: pacingOf(context).pauses };
}
