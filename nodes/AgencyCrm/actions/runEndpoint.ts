import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, ApiResponse } from '../../shared/transport';
import { apiRequest, collectPages, responseData } from '../../shared/transport';
import { endpointOf } from '../catalogue';
import { idValue } from '../catalogue/convert';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, PreparedRequest, WrittenRecord } from '../catalogue/types';
import { multipartBody } from './multipart';
import { outputShaper } from './output';

/** The request of a prepared operation: the catalogue's request (catalogue/requests.ts), with its files encoded. */
export function toApiRequest(endpoint: Endpoint, prepared: PreparedRequest, itemIndex: number): ApiRequest {
	const request = requestFor(endpoint, prepared, itemIndex);
	if (prepared.files.length && (prepared.upload ?? endpoint.upload) === 'base64Json') {
		const files = prepared.files.map(({ part, file }) => [
			part,
			{ file_name: file.fileName, content_base64: file.data.toString('base64') },
		]);
		request.body = { ...prepared.body, ...Object.fromEntries(files) };
	} else if (prepared.files.length) {
		const { body, contentType } = multipartBody(prepared.files, prepared.body);
		request.body = body;
		request.headers = { 'Content-Type': contentType };
	}
	return request;
}

function recordsOf(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data as IDataObject[];
	return [(data ?? {}) as IDataObject];
}

/** One input item as it runs: its index, and what its execution hints say (gathered per run by the router). */
export interface ItemRun {
	index: number;
	notices: string[];
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

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

/** The record a write returns by default: that of a write whose records have `outputKeys`, read back by `resource:get`. */
function writtenRecordOf(endpoint: Endpoint): WrittenRecord | undefined {
	if (endpoint.record) return endpoint.record;
	if (!endpoint.outputKeys || endpoint.method === 'GET') return undefined;
	return { id: endpoint.outputKeys.id, readBack: `${endpoint.resource}:get` };
}

/**
 * What a write that succeeded without a record in its answer outputs: the record read back by its id
 * (from `Location`, or the write's own path), else what was sent plus the id, with a hint saying so.
 * The write succeeded: its item never fails for the missing body.
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
	const pathValues = Object.values(prepared.pathParams);
	const id = idInLocation(response.headers) ?? (endpoint.method === 'POST' ? undefined : pathValues.pop());
	const sent: IDataObject = { ...prepared.body, ...(id === undefined ? {} : { [written.id]: idValue(id) as string }) };
	const readBack = written.readBack && endpointOf(written.readBack);
	const placeholder = readBack && /\{(\w+)\}[^{]*$/.exec(readBack.path)?.[1];
	if (readBack && placeholder && id !== undefined) {
		const pathParams = { ...prepared.pathParams, [placeholder]: id };
		try {
			return recordsOf(responseData(await apiRequest(context, requestFor(readBack, { pathParams }, item.index))))[0];
		} catch (error) {
			item.notices.push(
				`The API stored the write but answered HTTP ${response.statusCode} without the record, and reading it back failed (${(error as Error).message}): the output is what was sent, with its ID`,
			);
			return sent;
		}
	}
	item.notices.push(
		`The API stored the write but answered HTTP ${response.statusCode} without the record${id === undefined ? ' or its ID' : ''}: the output is what was sent${id === undefined ? '' : ', with its ID'}`,
	);
	return sent;
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

async function imageItem(
	context: IExecuteFunctions,
	response: ApiResponse,
	endpoint: Endpoint,
	prepared: PreparedRequest,
): Promise<INodeExecutionData[]> {
	const contentType = String(response.headers['content-type'] ?? '');
	const data = response.body as Buffer;
	if (!contentType.startsWith('image/')) {
		const json = JSON.parse(data.toString('utf8')) as unknown;
		return recordsOf(responseData({ ...response, body: json })).map((record) => ({ json: record }));
	}
	const extension = contentType.includes('svg') ? 'svg' : (contentType.split('/')[1] ?? 'bin').split(';')[0];
	const fileName = `${endpoint.resource}-${Object.values(prepared.pathParams).join('-')}.${extension}`;
	return [
		{
			json: { ...prepared.pathParams, mimeType: contentType, fileName },
			binary: { data: await context.helpers.prepareBinaryData(data, fileName, contentType.split(';')[0]) },
		},
	];
}

/** Sends one catalogue operation for one item and shapes the answer into output items. */
export async function runEndpoint(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const request = toApiRequest(endpoint, prepared, item.index);
	const shape = outputShaper(context, endpoint, prepared, item);
	const items = (records: IDataObject[]) => records.map((record) => ({ json: shape(record) }));

	if (endpoint.pagination) {
		const mode = prepared.pagination ?? endpoint.pagination;
		return items(await collectPages(context, request, mode, prepared.limit, prepared.pageSize));
	}
	const response = await apiRequest(context, request);
	if (endpoint.output === 'deleted') return [{ json: { deleted: true } }];
	if (endpoint.output === 'imageOrRecord') return await imageItem(context, response, endpoint, prepared);
	return items(await writtenRecords(context, endpoint, prepared, response, item));
}
