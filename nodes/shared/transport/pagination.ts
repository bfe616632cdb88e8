import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unreadableAnswer } from './errors';
import { apiRequest } from './request';
import type { ApiContext, ApiRequest, ApiResponse, PageKeys } from './types';

/**
 * The three ways the API pages (spec section 8):
 * - `cursor`: send `cursor`, read `meta.next_cursor` and `meta.has_more`; or, when a page carries no
 *   cursor but numbers its pages (`meta.current_page`, `meta.last_page`, as production pages the
 *   follow-ups), send the next `page`: whichever the answer carries;
 * - `offset`: product search's offset mode, `offset` counts records;
 * - `cursorOffset`: customer action history, an offset carried in the `cursor` parameter.
 */
export type PaginationMode = 'cursor' | 'offset' | 'cursorOffset';

/**
 * Records asked per page when the caller chose no size: the largest page the spec gives (section 8,
 * `GET /agencies`), which production's reference gives every list that takes `per_page`.
 */
export const MAX_PER_PAGE = 200;

const SPEC_PAGE_KEYS: PageKeys = { size: 'per_page', cursor: 'cursor', offset: 'offset', page: 'page' };

/** Where one page starts and how many records it asks for; the request's keys name them. */
export interface PagePosition {
	size: number;
	cursor?: unknown;
	offset?: number;
	/** The page number, from 1, of a list that numbers its pages (not sent for the first). */
	page?: number;
}

/** Empty pages in a row that a list may send while saying more follow, before the loop stops. */
const MAX_EMPTY_PAGES_IN_A_ROW = 10;

/**
 * What a page says of the pages after it. The spec names `next_cursor` and `has_more` (section 8);
 * `total`, `offset` and `per_page` are what offset-paged APIs commonly add; `current_page` and
 * `last_page` what production's follow-ups list carries. Read from `meta` and from the top level alike.
 */
export interface PageMeta {
	next_cursor?: unknown;
	has_more?: unknown;
	total?: unknown;
	current_page?: unknown;
	last_page?: unknown;
}

const PAGING_KEYS = ['next_cursor', 'has_more', 'total', 'current_page', 'last_page'] as const;

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

function metaOf(body: IDataObject): PageMeta {
	const meta: PageMeta = {};
	for (const source of [body, isObject(body.meta) ? body.meta : {}]) {
		for (const key of PAGING_KEYS) if (key in source) meta[key] = source[key];
	}
	return meta;
}

/**
 * The records and paging meta of a list answer: a `data` array (the spec's envelope) or a bare
 * array. Anything else fails the item naming what came back: a list under another key would
 * otherwise read as no record at all.
 */
function pageOf(context: ApiContext, request: ApiRequest, response: ApiResponse) {
	const body = response.body;
	if (Array.isArray(body)) return { records: body as IDataObject[], meta: {} as PageMeta };
	if (isObject(body) && Array.isArray(body.data)) return { records: body.data as IDataObject[], meta: metaOf(body) };
	throw unreadableAnswer(context.getNode(), request, response, 'it holds no list of records (no "data" array)');
}

/** GET lists take paging parameters in the query; POST searches take them in the body. */
function withPageParams(request: ApiRequest, params: IDataObject): ApiRequest {
	if (request.method === 'GET') return { ...request, qs: { ...request.qs, ...params } };
	return { ...request, body: { ...(request.body as IDataObject | undefined), ...params } };
}

/** The position as the list's parameters, under the keys the request names. */
function pageParams(request: ApiRequest, position: PagePosition): IDataObject {
	const keys = { ...SPEC_PAGE_KEYS, ...request.pageKeys };
	const params: IDataObject = { [keys.size]: position.size };
	if (position.offset !== undefined) params[keys.offset] = position.offset;
	if (position.cursor !== undefined) params[keys.cursor] = position.cursor as IDataObject[string];
	if (position.page !== undefined) params[keys.page] = position.page;
	return params;
}

/** One page: the request with its paging parameters, and the records and meta of the answer. */
export async function fetchPage(context: ApiContext, request: ApiRequest, position: PagePosition) {
	const paged = withPageParams(request, pageParams(request, position));
	return pageOf(context, paged, await apiRequest(context, paged));
}

/** A page number the answer gives (a number, or digits), else undefined. */
function pageNumber(value: unknown): number | undefined {
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
	return Number.isInteger(number) && number > 0 ? number : undefined;
}

/**
 * Whether the records after this page exist, by the first signal the page gives: `has_more`, a
 * `next_cursor`, the page's number against `last_page`, `total` against the records seen, an
 * explicit null `next_cursor`. A page that gives none goes on when it holds records (a full page,
 * or an API that serves fewer than asked) and ends when it is empty.
 */
function moreFollow(meta: PageMeta, records: IDataObject[], seen: number, page: number): boolean {
	if (typeof meta.has_more === 'boolean') return meta.has_more;
	if (!isBlank(meta.next_cursor)) return true;
	const lastPage = pageNumber(meta.last_page);
	if (lastPage !== undefined) return (pageNumber(meta.current_page) ?? page) < lastPage;
	if (typeof meta.total === 'number') return seen + records.length < meta.total;
	if ('next_cursor' in meta) return false;
	return records.length > 0;
}

/** Whether the page gave any signal about what follows, beyond its records. */
const signalled = (meta: PageMeta) =>
	typeof meta.has_more === 'boolean' ||
	typeof meta.total === 'number' ||
	'next_cursor' in meta ||
	pageNumber(meta.last_page) !== undefined;

/** An identifier as text; undefined when absent. */
export const idText = (value: unknown) => (value === undefined || value === null ? undefined : String(value));

/** What tells the request's records apart: its `recordIdentity`, else their `id`. */
const identityOf = (request: ApiRequest) => request.recordIdentity ?? ((record: IDataObject) => idText(record.id));

/** Whether a page numbers itself (`last_page`, no cursor), as production's follow-ups do. */
const numbered = (meta: PageMeta) => isBlank(meta.next_cursor) && pageNumber(meta.last_page) !== undefined;

/**
 * For a list that numbers its pages, a test that a page is the one asked (an API that ignores `page`
 * would give the first forever) and gives no record an earlier page gave (a record added at the head
 * between two pages shifts the next page by one). Either stops the read, naming the page and the
 * record: dropping the repeat would hide that the shift may also have lost a record at the other end.
 * A record without an id is told apart by its whole content.
 */
function numberedRepeats(
	request: ApiRequest,
	stop: Stop,
): (records: IDataObject[], meta: PageMeta, asked: number) => void {
	const ids = new Set<string>();
	const identity = identityOf(request);
	return (records, meta, asked) => {
		const page = pageNumber(meta.current_page) ?? asked;
		if (page < asked) throw stop(`The API answered page ${page} when page ${asked} was asked`);
		for (const record of records) {
			const id = identity(record);
			const key = id ?? JSON.stringify(record);
			if (ids.has(key)) {
				const which = id === undefined ? '' : ` (ID ${id})`;
				throw stop(`The API gave again, on page ${page}, a record an earlier page gave${which}`);
			}
			ids.add(key);
		}
	};
}

/**
 * For offset paging, a test that a record was not on an earlier page: a listing added at the head
 * between two pages shifts the next page by one, which would give a record twice. A record without
 * an id is kept. Each repeat dropped is told to the request's `repeatedRecord`.
 */
function offsetRepeats(request: ApiRequest, mode: PaginationMode): (record: IDataObject) => boolean {
	if (mode === 'cursor') return () => true;
	const ids = new Set<string>();
	const identity = identityOf(request);
	return (record) => {
		const id = identity(record);
		if (id === undefined) return true;
		if (!ids.has(id)) return Boolean(ids.add(id));
		request.repeatedRecord?.(id);
		return false;
	};
}

/**
 * Yields the records of every page, a page at a time, until the API says there are no more, or
 * until `limit` records are in hand. Each page asks only for what is still missing, but for a list
 * that numbers its pages, whose every page asks the first one's size. It never ends
 * early in silence: an answer it cannot follow (more said to follow without a way to reach them, a
 * cursor or a page repeated) stops with an error saying so.
 */
export async function* paginate(
	context: ApiContext,
	request: ApiRequest,
	mode: PaginationMode,
	limit?: number,
	pageSize: number = MAX_PER_PAGE,
): AsyncGenerator<IDataObject[]> {
	let yielded = 0;
	let seen = 0;
	let emptyPages = 0;
	const follow: Follow = { page: 1, seenCursors: new Set() };
	const firstSeen = offsetRepeats(request, mode);
	const stop = (reason: string) =>
		new NodeOperationError(
			context.getNode(),
			`${reason} for ${request.method} ${request.path}; stopped to avoid repeating or losing records`,
			{ itemIndex: request.itemIndex },
		);
	const notRepeated = numberedRepeats(request, stop);
	while (limit === undefined || yielded < limit) {
		// A list that numbers its pages keeps its first page's size: page N is then the records after
		// the N-1 pages before it. The last page is trimmed here, not asked smaller.
		const perPage = follow.perPage ?? (limit === undefined ? pageSize : Math.min(pageSize, limit - yielded));
		// The customer action history carries its offset in `cursor` (spec section 8).
		const position: PagePosition =
			mode === 'offset'
				? { size: perPage, offset: seen }
				: {
						size: perPage,
						cursor: mode === 'cursorOffset' ? seen : follow.cursor,
						page: follow.page > 1 ? follow.page : undefined,
					};

		const { records, meta } = await fetchPage(context, request, position);
		if (mode === 'cursor' && numbered(meta)) notRepeated(records, meta, follow.page);
		const fresh = records.filter(firstSeen).filter(request.keepRecord ?? (() => true));
		const wanted = limit === undefined ? fresh : fresh.slice(0, limit - yielded);
		yielded += wanted.length;
		yield wanted;
		if (wanted.length < fresh.length || !moreFollow(meta, records, seen, follow.page)) return;
		seen += records.length;
		emptyPages = records.length ? 0 : emptyPages + 1;
		if (emptyPages >= MAX_EMPTY_PAGES_IN_A_ROW) throw stop(`The API sent ${emptyPages} empty pages in a row`);
		if (mode !== 'cursor') followOffset(follow, records, seen, stop);
		else if (followCursor(follow, meta, records, perPage, stop)) return;
	}
}

/** Where the next page of a cursor or an offset starts, learnt from the pages so far. */
interface Follow {
	cursor?: unknown;
	/** The number of the page asked, for a list that numbers its pages. */
	page: number;
	/** The size every page of a list that numbers its pages asks: its first page's. */
	perPage?: number;
	seenCursors: Set<string>;
	previousFirst?: string;
}

/** The error that stops paging, saying why. */
type Stop = (reason: string) => Error;

/**
 * The next page of a list paged by cursor (or by number, when its answers say which page they are):
 * true when the page was the whole list (a short page with no signal at all: a list the API does not
 * page). An answer it cannot follow stops paging.
 */
function followCursor(follow: Follow, meta: PageMeta, records: IDataObject[], perPage: number, stop: Stop): boolean {
	if (numbered(meta)) {
		// Pages by number: the next after the one the answer says it is (never an earlier one: checked).
		follow.page = (pageNumber(meta.current_page) ?? follow.page) + 1;
		follow.perPage = perPage;
		return false;
	}
	if (isBlank(meta.next_cursor)) {
		if (!signalled(meta) && records.length < perPage) return true;
		throw stop('The API said more records follow (or sent a full page) but gave no next_cursor');
	}
	const next = String(meta.next_cursor);
	if (follow.seenCursors.has(next)) throw stop(`The API returned the cursor "${next}" a second time`);
	follow.seenCursors.add(next);
	follow.cursor = meta.next_cursor;
	return false;
}

/** The next page of a list paged by offset (in `offset` or in `cursor`): an API that ignored it would serve one page forever. */
function followOffset(follow: Follow, records: IDataObject[], seen: number, stop: Stop) {
	if (!records.length) throw stop(`The API said more records follow but sent an empty page at offset ${seen}`);
	const first = JSON.stringify(records[0]);
	if (first === follow.previousFirst) throw stop('The API returned the same page twice');
	follow.previousFirst = first;
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
