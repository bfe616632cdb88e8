import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiResponse } from '../../shared/transport';
import { apiRequest, responseData } from '../../shared/transport';
import { ENDPOINTS, endpointOf } from '../catalogue';
import { idValue } from '../catalogue/convert';
import { keyOf } from '../catalogue/fields';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, PreparedRequest, WrittenRecord } from '../catalogue/types';
import type { ItemRun } from './itemRun';
import { looksAsExpected } from './output';

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

/**
 * The identifier a `Location` header ends with (`…/customers/10121` → `10121`), when it names a
 * record of the collection the read-back reads (`/customers/{customerId}`): a lead's Location may
 * name the lead. The URL itself is never followed.
 */
function idInLocation(headers: IDataObject, readBack: Endpoint | undefined): string | undefined {
	const location = headers.location;
	if (typeof location !== 'string' || location === '') return undefined;
	const segments = new URL(location, 'http://location.invalid').pathname.split('/').filter(Boolean);
	const id = segments.pop();
	const collection = readBack?.path.replace(/\/\{\w+\}$/, '');
	if (id === undefined || (collection && !`/${segments.join('/')}`.endsWith(collection))) return undefined;
	return decodeURIComponent(id);
}

/** What was sent, without the fields no output may carry (a password: spec section 2, "write only"). */
function withoutWriteOnly(endpoint: Endpoint, body: IDataObject): IDataObject {
	const hidden = new Set(endpoint.fields.filter((field) => field.writeOnly).map(keyOf));
	return Object.fromEntries(Object.entries(body).filter(([key]) => !hidden.has(key)));
}

/**
 * A write the API accepted that reading it back does not confirm (`WrittenRecord.confirm`): the item
 * fails (Continue On Fail gives it as data) saying what the read-back showed, for the user to check.
 */
function notConfirmed(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	response: ApiResponse,
	item: ItemRun,
	shown: string,
	readBack?: unknown,
): NodeOperationError {
	const what = endpoint.record?.include ?? endpoint.resource;
	return new NodeOperationError(
		context.getNode(),
		`The API accepted the ${what} (HTTP ${response.statusCode}), but reading the record back ${shown}: written but not confirmed`,
		{
			itemIndex: item.index,
			description: `Check it in Agency CRM before relying on it, and run the item again to send it again.${readBack === undefined ? '' : ` The read-back's ${what}: ${JSON.stringify(readBack ?? null)}`}`,
		},
	);
}

/** The name of a path's last placeholder: the record's own id (`/customers/{customerId}` → `customerId`). */
const lastPlaceholder = (path: string) => /\{(\w+)\}[^{]*$/.exec(path)?.[1];

/**
 * The read of the record a write makes or changes, when the catalogue has one: a create's collection
 * path and an id (`POST /calendar/events` → `GET /calendar/events/{eventId}`), or a change's own path.
 */
function readAfter(endpoint: Endpoint): Endpoint | undefined {
	const own = endpoint.method === 'POST' ? new RegExp(`^${escapeRegExp(endpoint.path)}/\\{\\w+\\}$`) : undefined;
	return ENDPOINTS.find(
		(candidate) => candidate.method === 'GET' && (own ? own.test(candidate.path) : candidate.path === endpoint.path),
	);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The record a write returns: the catalogue's (`Endpoint.record`), else the one its read reads
 * (readAfter), else, for records with `outputKeys`, one known by its id only.
 */
function writtenRecordOf(endpoint: Endpoint): { id: string; readBack?: Endpoint; written: WrittenRecord } | undefined {
	if (endpoint.method === 'GET') return undefined;
	const written = endpoint.record;
	const readBack = written?.readBack ? endpointOf(written.readBack) : written ? undefined : readAfter(endpoint);
	const id = written?.id ?? endpoint.outputKeys?.id ?? readBack?.outputKeys?.id ?? (readBack ? 'id' : undefined);
	if (id === undefined) return undefined;
	return { id, readBack, written: written ?? { id } };
}

/**
 * Whether an update's answer is part of the record (the changed fields only): it lacks the record's id
 * under every name it may have, or most of the keys its Simplified output keeps.
 */
function isPart(endpoint: Endpoint, record: IDataObject, id: string): boolean {
	const names = [id, ...(endpoint.outputKeys?.alternatives?.[id] ?? [])];
	const lacksId = names.every((name) => record[name] === undefined || record[name] === null);
	return lacksId || (endpoint.outputKeys !== undefined && !looksAsExpected(record, endpoint.outputKeys));
}

/** An update's answer as the whole record; undefined when it carries none, or part of one (the fields changed). */
export function wholeRecordOf(endpoint: Endpoint, response: ApiResponse): IDataObject | undefined {
	if (carriesNoRecord(response)) return undefined;
	const [record] = recordsOf(responseData(response));
	const target = writtenRecordOf(endpoint);
	return target && isPart(endpoint, record, target.id) ? undefined : record;
}

/**
 * The record a write accepted, when its answer does not carry it whole (a 204, a 201 with a
 * `Location`, `{success: true}`, or only the fields changed): read back by its id (the end of
 * `Location` for a create, the write's own path otherwise). Without a read, or when it fails: what
 * the answer had, over what was sent (never a write-only field), with the id, and a hint saying so.
 * Writes that name no record output `{success: true}`, or what their answer had.
 */
async function recordAfterWrite(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	response: ApiResponse,
	item: ItemRun,
	answered: IDataObject | undefined,
): Promise<IDataObject> {
	const target = writtenRecordOf(endpoint);
	if (!target) return answered ?? { success: true };
	const { readBack, written } = target;
	const idPlaceholder = written.idFromPath ?? (endpoint.method === 'POST' ? undefined : lastPlaceholder(endpoint.path));
	const ownId = idPlaceholder === undefined ? undefined : prepared.pathParams[idPlaceholder];
	const id = idInLocation(response.headers, readBack) ?? (ownId === undefined ? undefined : String(ownId));
	const what = answered ? 'with part of the record' : 'without the record';
	const known = (why: string) => {
		item.notices.push(
			`The API stored the write but answered HTTP ${response.statusCode} ${what}${why}: the output is ${answered ? 'what it answered, over ' : ''}what was sent${id === undefined ? '' : ', with its ID'}`,
		);
		return {
			...withoutWriteOnly(endpoint, prepared.body),
			...answered,
			...(id === undefined ? {} : { [target.id]: idValue(id) as string }),
		};
	};
	const placeholder = readBack && lastPlaceholder(readBack.path);
	if (id === undefined) return known(' or its ID');
	if (!readBack || !placeholder) return known('');
	const pathParams = { ...prepared.pathParams, [placeholder]: id };
	const qs = written.include ? { include: written.include } : undefined;
	let record: IDataObject;
	try {
		[record] = recordsOf(responseData(await apiRequest(context, requestFor(readBack, { pathParams, qs }, item.index))));
	} catch (error) {
		const failed = `failed (${(error as Error).message})`;
		if (written.confirm) throw notConfirmed(context, endpoint, response, item, failed);
		return known(`, and reading it back ${failed}`);
	}
	// What the read-back loaded (`include=consent`) is the output, under the record's id.
	const output = written.include
		? { [target.id]: idValue(id) as string, [written.include]: record[written.include] ?? null }
		: record;
	if (!written.confirm) return output;
	const shown = written.confirm(record, prepared);
	if ('unconfirmed' in shown) {
		const readBack = written.include ? output[written.include] : record;
		throw notConfirmed(context, endpoint, response, item, shown.unconfirmed, readBack);
	}
	return { ...output, confirmed: true, ...shown.said };
}

/** The records a write's answer gives: those in its body, or the one read back when the body has none or part of one. */
export async function writtenRecords(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	response: ApiResponse,
	item: ItemRun,
): Promise<IDataObject[]> {
	if (carriesNoRecord(response) || endpoint.record?.always) {
		return [await recordAfterWrite(context, endpoint, prepared, response, item, undefined)];
	}
	const records = recordsOf(responseData(response));
	// An update answered with the changed fields only: the whole record is read back.
	const isUpdate = endpoint.method === 'PATCH' || endpoint.method === 'PUT';
	const target = isUpdate && records.length === 1 && writtenRecordOf(endpoint);
	if (target && target.readBack && isPart(endpoint, records[0], target.id)) {
		return [await recordAfterWrite(context, endpoint, prepared, response, item, records[0])];
	}
	return records;
}
