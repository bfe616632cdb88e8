import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { answerOrRefusal, idText, responseData } from '../../shared/transport';
import { endpointOf } from '../catalogue';
import { listEntries } from '../../shared/values';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';

/** The id of a list's record under any of its names (`customers_id`, production's `id`). */
function idOf(endpoint: Endpoint, record: IDataObject): string | undefined {
	const keys = endpoint.outputKeys;
	const names = keys ? [keys.id, ...(keys.alternatives?.[keys.id] ?? [])] : ['id'];
	return names.map((name) => idText(record[name])).find((id) => id !== undefined);
}

/**
 * The records of a list with the related data they come without although asked (`Endpoint.readEach`:
 * production's contact search gives no consent), each read again by its own read, one after another
 * as every request of an item. A record gone meanwhile (404) shows none; the run says how many reads
 * it made, and why.
 */
export async function withRelatedReadEach(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	records: IDataObject[],
	item: ItemRun,
): Promise<IDataObject[]> {
	const asked = listEntries(prepared.qs.include).filter((include) => endpoint.readEach?.includes.includes(include));
	if (!endpoint.readEach || !asked.length || !records.length) return records;
	const read = endpointOf(endpoint.readEach.read);
	const placeholder = /\{(\w+)\}$/.exec(read.path)?.[1] as string;
	const completed: IDataObject[] = [];
	for (const record of records) {
		const id = idOf(endpoint, record);
		if (id === undefined) {
			completed.push(record);
			continue;
		}
		const request = requestFor(
			read,
			{ pathParams: { [placeholder]: id }, qs: { include: asked.join(',') } },
			item.index,
		);
		const answer = await answerOrRefusal(context, request, 404);
		const whole = 'refused' in answer ? {} : ((responseData(answer) ?? {}) as IDataObject);
		completed.push({ ...record, ...Object.fromEntries(asked.map((include) => [include, whole[include] ?? null])) });
	}
	item.notices.push(
		`Include "${asked.join('", "')}" is not in the search's answer (production's gives none): read from each record instead (${completed.length} read${completed.length > 1 ? 's' : ''})`,
	);
	return completed;
}
