import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, ApiResponse } from '../../shared/transport';
import {
	answerOrRefusal,
	apiRequest,
	collectPages,
	idText,
	listRecords,
	paginate,
	responseData,
} from '../../shared/transport';
import { listOf, readOf } from '../catalogue';
import { keyOf } from '../catalogue/fields';
import { requestFor } from '../catalogue/requests';
import type { Endpoint, FileValue, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';
import { OUTCOME, OUTCOME_EVIDENCE, outputShaper } from './output';
import { withRelatedReadEach } from './readEach';
import { recordsOf, writtenRecords } from './writtenRecord';

/** A part name or file name safe inside a quoted header parameter. */
const quoted = (text: string) => text.replace(/["\r\n]/g, '_');

/**
 * A multipart/form-data body built in memory: the uploads are at most 20 MB, and a Buffer body
 * (unlike a stream) can be sent again after a token exchange or a retry. `fields` become text
 * parts (objects as JSON), e.g. a picture's `title`; a null has no text form in a form, so that
 * field is left out rather than sent as the text "null".
 */
function multipartBody(
	parts: Array<{ part: string; file: FileValue }>,
	fields: IDataObject = {},
): { body: Buffer; contentType: string } {
	const boundary = `----AgencyCrm${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		if (value === null || value === undefined) continue;
		const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
		chunks.push(
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`),
		);
	}
	for (const { part, file } of parts) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part)}"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
			),
			file.data,
			Buffer.from('\r\n'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The request of a prepared operation: the catalogue's request (catalogue/requests.ts), as a form where it carries files. */
export function toApiRequest(endpoint: Endpoint, prepared: PreparedRequest, itemIndex: number): ApiRequest {
	const request = requestFor(endpoint, prepared, itemIndex);
	if (prepared.files.length || endpoint.upload === 'multipart') {
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

/**
 * What a list's filters asked, as a notice quotes them: each key and value sent besides the related
 * data to load and the settings (a time zone, the phones' form).
 */
function filtersOf(endpoint: Endpoint, prepared: PreparedRequest): string[] {
	const related = endpoint.outputKeys?.relationsParameter;
	const settings = new Set(endpoint.fields.filter((field) => field.setting).map(keyOf));
	return Object.entries({ ...prepared.qs, ...prepared.body })
		.filter(([key]) => key !== related && !settings.has(key))
		.map(([key, value]) => `${key} ${JSON.stringify(value)}`);
}

/** The pair a write's path names, under the keys of its fields (`customers_id`, `product_id`). */
function pathRecord(endpoint: Endpoint, prepared: PreparedRequest): IDataObject {
	const fields = endpoint.fields.filter((field) => field.in === 'path');
	return Object.fromEntries(fields.map((field) => [keyOf(field), prepared.pathParams[field.property.name]]));
}

/**
 * Whether the record a deletion removes is found by what lists it, when it has no read of its own (a
 * follow-up among its contact's follow-ups, a webhook among the hooks): a record whose id, or key of
 * the path's last value, is that value.
 */
async function foundInList(context: IExecuteFunctions, endpoint: Endpoint, prepared: PreparedRequest, item: ItemRun) {
	const list = listOf(endpoint);
	const own = endpoint.fields.find(
		(field) => field.in === 'path' && endpoint.path.endsWith(`{${field.property.name}}`),
	);
	if (!list || !own) return false;
	const wanted = String(prepared.pathParams[own.property.name]);
	const isIt = (record: IDataObject) => [record[keyOf(own)], record.id].some((id) => idText(id) === wanted);
	const request = requestFor(list, { pathParams: prepared.pathParams }, item.index);
	if (!list.pagination) return (await listRecords(context, request)).some(isIt);
	for await (const page of paginate(context, request, list.pagination)) if (page.some(isIt)) return true;
	return false;
}

/**
 * Whether the record a deletion removes is seen just before it is sent, by its own read
 * (`DELETE /users/{userId}` → `GET /users/{userId}`) or in its list. A 404 of its read says the ID
 * names nothing: the item fails and nothing is sent. A read refused (this access may delete what it
 * may not read) or failing otherwise never blocks the deletion, which the API then judges alone: the
 * record is unseen, and a 404 after a lost answer is done without being verified (transport).
 */
async function seenBeforeDelete(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	prepared: PreparedRequest,
	item: ItemRun,
): Promise<boolean> {
	const read = readOf(endpoint);
	if (!read) return await foundInList(context, endpoint, prepared, item).catch(() => false);
	const request = requestFor(read, { pathParams: prepared.pathParams }, item.index);
	const answer = await answerOrRefusal(context, request, 404).catch(() => undefined);
	if (answer && 'refused' in answer) throw answer.refused;
	return answer !== undefined;
}

/** What a deletion outputs; one taken as done after a lost answer without the record seen before says so. */
function deletionOutput(response: ApiResponse, item: ItemRun): INodeExecutionData[] {
	if (response.removalAfterLostAnswer?.verified === false) {
		item.notices.push(
			'An attempt of this deletion lost its answer, and sending it again was answered 404: taken as removed by that attempt, though the record could not be seen before (it could not be read, or its list did not show it), so this is not verified: the ID may name no record',
		);
	}
	return [{ json: { deleted: true } }];
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
		const repeated: string[] = [];
		request.repeatedRecord = (id) => repeated.push(id);
		const filter = endpoint.keepRecords?.(prepared);
		let dropped = 0;
		if (filter) {
			request.keepRecord = (record) => {
				const kept = filter.keep(record);
				if (!kept) dropped++;
				return kept;
			};
		}
		const listed = await collectPages(context, request, mode, prepared.limit, prepared.pageSize);
		const records = await withRelatedReadEach(context, endpoint, prepared, listed, item);
		if (filter && dropped) item.notices.push(filter.dropped(dropped));
		if (repeated.length) {
			item.notices.push(
				`The list moved while it was read page by page (records added or removed meanwhile): ${repeated.length} record${repeated.length > 1 ? 's' : ''} given again (ID ${repeated.join(', ')}) ${repeated.length > 1 ? 'were' : 'was'} output once. The cursor mode pages without that risk`,
			);
		}
		const filters = filtersOf(endpoint, prepared);
		if (!records.length && filters.length) {
			item.notices.push(`No record matched the filters given (${filters.join(', ')}): check their values`);
		}
		return items(records);
	}
	if (request.removal) request.removal = { seen: await seenBeforeDelete(context, endpoint, prepared, item) };
	const response = endpoint.conflictMeansExisting
		? await answerOrRefusal(context, request, 409)
		: await apiRequest(context, request);
	if ('refused' in response) {
		const evidence = `HTTP 409: ${response.refused.message}`;
		return [{ json: { ...pathRecord(endpoint, prepared), [OUTCOME]: 'existing', [OUTCOME_EVIDENCE]: evidence } }];
	}
	if (endpoint.output === 'deleted') return deletionOutput(response, item);
	if (endpoint.output === 'imageOrRecord') return await imageItem(context, response, endpoint, prepared);
	const records = items(await writtenRecords(context, endpoint, prepared, response, item));
	if (!endpoint.conflictMeansExisting) return records;
	const evidence = `HTTP ${response.statusCode}: the API made it`;
	return records.map(({ json }) => ({ json: { ...json, [OUTCOME]: 'created', [OUTCOME_EVIDENCE]: evidence } }));
}
