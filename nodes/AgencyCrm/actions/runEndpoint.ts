import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, ApiResponse } from '../../shared/transport';
import { apiRequest, collectPages, responseData } from '../../shared/transport';
import type { Endpoint, WireRequest } from '../catalogue/types';
import { multipartBody } from './multipart';

/** Whether sending the request twice changes nothing more than sending it once. */
function isIdempotent(endpoint: Endpoint): boolean {
	return endpoint.method !== 'POST' || endpoint.readOnly === true;
}

/** "the Customers pack", "the Properties or Websites pack", "the SITE_CALENDAR:WRITE permission". */
function accessNeeded(endpoint: Endpoint): string | undefined {
	const packs = endpoint.packs.filter((pack) => pack !== 'Any');
	if (!packs.length) return undefined;
	const names = packs.join(' or ');
	return packs.every((pack) => pack.startsWith('SITE_CALENDAR'))
		? `the ${names} permission`
		: `the ${names} pack (or Full)`;
}

export function toApiRequest(endpoint: Endpoint, wire: WireRequest, itemIndex: number): ApiRequest {
	const request: ApiRequest = {
		method: wire.method,
		path: wire.path,
		qs: Object.keys(wire.qs).length ? wire.qs : undefined,
		body: Object.keys(wire.body).length ? wire.body : undefined,
		responseType: endpoint.output === 'imageOrRecord' ? 'binary' : 'json',
		idempotent: isIdempotent(endpoint),
		noRetryStatuses: endpoint.noRetryStatuses,
		accessNeeded: accessNeeded(endpoint),
		itemIndex,
	};
	if (wire.files.length && endpoint.upload === 'base64Json') {
		const files = wire.files.map(({ part, file }) => [
			part,
			{ file_name: file.fileName, content_base64: file.data.toString('base64') },
		]);
		request.body = { ...wire.body, ...Object.fromEntries(files) };
	} else if (wire.files.length) {
		const { body, contentType } = multipartBody(wire.files, wire.body);
		request.body = body;
		request.headers = { 'Content-Type': contentType };
	}
	return request;
}

function simplified(record: IDataObject, keys: string[] | undefined): IDataObject {
	if (!keys) return record;
	return Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]]));
}

function recordsOf(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data as IDataObject[];
	return [(data ?? {}) as IDataObject];
}

async function imageItem(context: IExecuteFunctions, response: ApiResponse, endpoint: Endpoint, wire: WireRequest) {
	const contentType = String(response.headers['content-type'] ?? '');
	const data = response.body as Buffer;
	if (!contentType.startsWith('image/')) {
		return recordsOf(responseData({ ...response, body: JSON.parse(data.toString('utf8')) as unknown }));
	}
	const extension = contentType.includes('svg') ? 'svg' : (contentType.split('/')[1] ?? 'bin').split(';')[0];
	const fileName = `${endpoint.resource}-${Object.values(wire.pathParams).join('-')}.${extension}`;
	return {
		json: { ...wire.pathParams, mimeType: contentType, fileName },
		binary: { data: await context.helpers.prepareBinaryData(data, fileName, contentType.split(';')[0]) },
	};
}

/** Sends one catalogue operation for one item and shapes the answer into output items. */
export async function runEndpoint(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	wire: WireRequest,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = toApiRequest(endpoint, wire, itemIndex);
	const simplify = endpoint.simplify && (context.getNodeParameter('simplify', itemIndex, true) as boolean);
	const keep = simplify ? endpoint.simplify : undefined;

	if (endpoint.pagination) {
		const mode = wire.pagination ?? endpoint.pagination;
		const records = await collectPages(context, request, mode, wire.limit, wire.pageSize);
		return records.map((record) => ({ json: simplified(record, keep) }));
	}

	const response = await apiRequest(context, request);
	if (endpoint.output === 'deleted') return [{ json: { deleted: true } }];
	if (endpoint.output === 'imageOrRecord') {
		const result = await imageItem(context, response, endpoint, wire);
		return Array.isArray(result) ? result.map((record) => ({ json: record })) : [result];
	}
	if (response.statusCode === 204 || response.body === undefined || response.body === '') {
		return [{ json: { success: true } }];
	}
	return recordsOf(responseData(response)).map((record) => ({ json: simplified(record, keep) }));
}
