import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, ApiResponse } from '../../shared/transport';
import { apiRequest, collectPages, responseData } from '../../shared/transport';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';
import { multipartBody } from './multipart';
import { outputShaper } from './output';
import { recordsOf, writtenRecords } from './writtenRecord';

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
	const shape = outputShaper(endpoint, prepared, item);
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
