import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiResponse } from '../../shared/transport';
import { apiRequest, responseData } from '../../shared/transport';
import { endpointOf } from '../catalogue';
import { idValue } from '../catalogue/convert';
import { keyOf } from '../catalogue/fields';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, PreparedRequest, WrittenRecord } from '../catalogue/types';
import type { ItemRun } from './itemRun';

/**
 * The record a write's answer gives, whether or not the answer carries it (issue 17): a write the
 * API accepted never fails its item because its body is empty.
 */

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

/** `{data: …}`, an array of records, or one record, as the output's records. */
export function recordsOf(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data as IDataObject[];
	return [(data ?? {}) as IDataObject];
}

/**
 * Whether a successful answer carries no record: a 204, an empty body, or a bare acknowledgement
 * (`{success: true}`, `{data: {}}`). The spec shows the body of few writes, so none is ruled out.
 */
export function carriesNoRecord(response: ApiResponse): boolean {
	const body = response.body;
	if (response.statusCode === 204 || body === undefined || body === null || body === '') return true;
	if (!isObject(body)) return false;
	const data = 'data' in body ? body.data : body;
	return data === null || (isObject(data) && Object.keys(data).every((key) => key === 'success'));
}

/** The identifier a `Location` header ends with (`…/customers/10121` → `10121`); the URL itself is never followed. */
function idInLocation(headers: IDataObject): string | undefined {
	const location = headers.location;
	if (typeof location !== 'string' || location === '') return undefined;
	const segment = new URL(location, 'http://location.invalid').pathname.split('/').filter(Boolean).pop();
	return segment === undefined ? undefined : decodeURIComponent(segment);
}

/** What was sent, without the fields no output may carry (a password: spec section 2, "write only"). */
function withoutWriteOnly(endpoint: Endpoint, body: IDataObject): IDataObject {
	const hidden = new Set(endpoint.fields.filter((field) => field.writeOnly).map(keyOf));
	return Object.fromEntries(Object.entries(body).filter(([key]) => !hidden.has(key)));
}

/** The name of a path's last placeholder: the record's own id (`/customers/{customerId}` → `customerId`). */
const lastPlaceholder = (path: string) => /\{(\w+)\}[^{]*$/.exec(path)?.[1];

/** The record a write returns by default: that of a write whose records have `outputKeys`, read back by `resource:get`. */
function writtenRecordOf(endpoint: Endpoint): WrittenRecord | undefined {
	if (endpoint.record) return endpoint.record;
	if (!endpoint.outputKeys || endpoint.method === 'GET') return undefined;
	return { id: endpoint.outputKeys.id, readBack: `${endpoint.resource}:get` };
}

/**
 * What a write that succeeded without a record in its answer outputs: the record read back by its id
 * (the end of `Location` for a create, the write's own path otherwise), else what was sent plus the
 * id, with a hint saying so. Writes that return no record output `{success: true}`.
 */
async function recordAfterEmptyAnswer(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	response: ApiResponse,
	item: ItemRun,
): Promise<IDataObject> {
	const written = writtenRecordOf(endpoint);
	if (!written) return { success: true };
	const idPlaceholder = written.idFromPath ?? (endpoint.method === 'POST' ? undefined : lastPlaceholder(endpoint.path));
	const ownId = idPlaceholder === undefined ? undefined : prepared.pathParams[idPlaceholder];
	const id = idInLocation(response.headers) ?? (ownId === undefined ? undefined : String(ownId));
	const sent = (why: string) => {
		item.notices.push(
			`The API stored the write but answered HTTP ${response.statusCode} without the record${why}: the output is what was sent${id === undefined ? '' : ', with its ID'}`,
		);
		return {
			...withoutWriteOnly(endpoint, prepared.body),
			...(id === undefined ? {} : { [written.id]: idValue(id) as string }),
		};
	};
	const readBack = written.readBack ? endpointOf(written.readBack) : undefined;
	const placeholder = readBack && lastPlaceholder(readBack.path);
	if (id === undefined) return sent(' or its ID');
	if (!readBack || !placeholder) return sent('');
	const pathParams = { ...prepared.pathParams, [placeholder]: id };
	const qs = written.include ? { include: written.include } : undefined;
	try {
		const [record] = recordsOf(
			responseData(await apiRequest(context, requestFor(readBack, { pathParams, qs }, item.index))),
		);
		return written.include
			? { [written.id]: idValue(id) as string, [written.include]: record[written.include] ?? null }
			: record;
	} catch (error) {
		return sent(`, and reading it back failed (${(error as Error).message})`);
	}
}

/** The records a write's answer gives: those in its body, or the one read back when the body has none. */
export async function writtenRecords(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	response: ApiResponse,
	item: ItemRun,
): Promise<IDataObject[]> {
	if (carriesNoRecord(response)) return [await recordAfterEmptyAnswer(context, endpoint, prepared, response, item)];
	return recordsOf(responseData(response));
}
