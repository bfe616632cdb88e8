import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext, ApiRequest, ApiResponse } from './request';
import { apiRequest } from './request';

/**
 * The three ways the API pages (spec section 8):
 * - `cursor`: send `cursor`, read `meta.next_cursor` and `meta.has_more`;
 * - `offset`: product search's offset mode, `offset` counts records;
 * - `cursorOffset`: customer action history, an offset carried in the `cursor` parameter.
 */
export type PaginationMode = 'cursor' | 'offset' | 'cursorOffset';

/** Largest page the API serves (spec section 8; assumed for every list, see docs/assumptions.md). */
export const MAX_PER_PAGE = 200;

interface PageMeta {
	next_cursor?: string | number | null;
	has_more?: boolean;
}

function pageOf(response: ApiResponse): { records: IDataObject[]; meta: PageMeta } {
	const body = (response.body ?? {}) as { data?: unknown; meta?: PageMeta } & PageMeta;
	const records = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	// Meta is documented as a "cursor pagination meta" object; top-level fields are read too.
	const meta = { ...body, ...(body.meta ?? {}) };
	return { records, meta: { next_cursor: meta.next_cursor, has_more: meta.has_more } };
}

/** GET lists take paging parameters in the query; POST searches take them in the body. */
function withPageParams(request: ApiRequest, params: IDataObject): ApiRequest {
	if (request.method === 'GET') return { ...request, qs: { ...request.qs, ...params } };
	return { ...request, body: { ...(request.body as IDataObject | undefined), ...params } };
}

/** One page: the request with its paging parameters, and the records and meta of the answer. */
export async function fetchPage(context: ApiContext, request: ApiRequest, params: IDataObject) {
	return pageOf(await apiRequest(context, withPageParams(request, params)));
}

/**
 * Yields the records of every page, a page at a time, until the API says there are no more, or
 * until `limit` records are in hand. Each page asks only for what is still missing (at most 200).
 */
export async function* paginate(
	context: ApiContext,
	request: ApiRequest,
	mode: PaginationMode,
	limit?: number,
	pageSize: number = MAX_PER_PAGE,
): AsyncGenerator<IDataObject[]> {
	let yielded = 0;
	let cursor: string | number | undefined;
	let offset = 0;
	const seenCursors = new Set<string>();
	let previousFirst: string | undefined;
	const stop = (reason: string) =>
		new NodeOperationError(
			context.getNode(),
			`${reason} for ${request.method} ${request.path}; stopped to avoid repeating or losing records`,
			{ itemIndex: request.itemIndex },
		);
	while (limit === undefined || yielded < limit) {
		const perPage = Math.min(pageSize, MAX_PER_PAGE, limit === undefined ? MAX_PER_PAGE : limit - yielded);
		const params: IDataObject = { per_page: perPage };
		if (mode === 'offset') params.offset = offset;
		else if (mode === 'cursorOffset') params.cursor = offset;
		else if (cursor !== undefined) params.cursor = cursor;

		const { records, meta } = await fetchPage(context, request, params);
		const wanted = limit === undefined ? records : records.slice(0, limit - yielded);
		yielded += wanted.length;
		yield wanted;
		if (wanted.length < records.length) return;
		offset += records.length;
		if (records.length === 0 || meta.has_more === false) return;
		if (mode === 'cursor') {
			if (meta.next_cursor === undefined || meta.next_cursor === null || meta.next_cursor === '') {
				if (meta.has_more === true) throw stop('The API said more records follow but gave no next_cursor');
				return;
			}
			const next = String(meta.next_cursor);
			if (seenCursors.has(next)) throw stop(`The API returned the cursor "${next}" a second time`);
			seenCursors.add(next);
			cursor = meta.next_cursor;
		} else {
			// An API that ignored the offset would serve the same page forever.
			const first = JSON.stringify(records[0]);
			if (first === previousFirst) throw stop('The API returned the same page twice');
			previousFirst = first;
			if (meta.has_more === undefined && records.length < perPage) return;
		}
	}
}

/** Collects `paginate` into an array. */
export async function collectPages(
	context: ApiContext,
	request: ApiRequest,
	mode: PaginationMode,
	limit?: number,
	pageSize?: number,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for await (const page of paginate(context, request, mode, limit, pageSize)) {
		for (const record of page) records.push(record);
	}
	return records;
}
