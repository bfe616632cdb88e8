/**
 * Cursor pagination (keyset on the record id, so pages stay stable while records are added), the
 * offset helpers used by product search and the customer action history, and pages by number, as
 * production pages the follow-ups.
 */
import { FieldReader } from './validation';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

export interface PageRequest {
	/** Id of the last record of the previous page. */
	afterId: number | undefined;
	perPage: number;
}

export interface CursorMeta {
	per_page: number;
	next_cursor: string | null;
	has_more: boolean;
}

export interface Page<T> {
	data: T[];
	meta: CursorMeta;
}

export type Order = 'asc' | 'desc';

export function readPerPage(reader: FieldReader): number {
	return reader.optionalInteger('per_page', { min: 1, max: MAX_PER_PAGE }) ?? DEFAULT_PER_PAGE;
}

/** Reads `cursor` and `per_page`; problems are reported into the reader. */
export function readPageRequest(reader: FieldReader): PageRequest {
	const perPage = readPerPage(reader);
	const cursor = reader.optionalString('cursor', { nullable: true });
	if (cursor === null || cursor === undefined || cursor === '') return { afterId: undefined, perPage };
	const afterId = decodeCursor(cursor);
	if (afterId === undefined) reader.fail('cursor', 'is not a cursor returned by this endpoint');
	return { afterId, perPage };
}

function encodeCursor(afterId: number): string {
	return Buffer.from(JSON.stringify({ after: afterId })).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
	try {
		const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
		const after = (decoded as { after?: unknown }).after;
		return Number.isInteger(after) ? (after as number) : undefined;
	} catch {
		return undefined;
	}
}

/** A field of the records that holds a number: the id their cursor pages by. */
type IdField<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T];

/**
 * One page of `ascending` (sorted by its `idField`, ascending) read in `order`, keeping the records
 * that pass `keep`. Only the records of the page are visited once the start is found.
 */
export function cursorPage<T>(
	ascending: readonly T[],
	idField: IdField<T>,
	order: Order,
	request: PageRequest,
	keep: (item: T) => boolean = () => true,
): Page<T> {
	const idOf = (item: T) => item[idField] as number;
	const step = order === 'asc' ? 1 : -1;
	let index = startIndex(ascending, idOf, order, request.afterId);
	const data: T[] = [];
	let hasMore = false;
	for (; index >= 0 && index < ascending.length; index += step) {
		const item = ascending[index];
		if (!keep(item)) continue;
		if (data.length === request.perPage) {
			hasMore = true;
			break;
		}
		data.push(item);
	}
	const last = data[data.length - 1];
	return {
		data,
		meta: { per_page: request.perPage, next_cursor: hasMore ? encodeCursor(idOf(last)) : null, has_more: hasMore },
	};
}

/** Index of the first record after `afterId` in the reading order (binary search). */
function startIndex<T>(
	ascending: readonly T[],
	idOf: (item: T) => number,
	order: Order,
	afterId: number | undefined,
): number {
	if (afterId === undefined) return order === 'asc' ? 0 : ascending.length - 1;
	let low = 0;
	let high = ascending.length;
	// First index whose id is greater than afterId.
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (idOf(ascending[middle]) <= afterId) low = middle + 1;
		else high = middle;
	}
	if (order === 'asc') return low;
	// Last index whose id is lower than afterId.
	return low > 0 && idOf(ascending[low - 1]) === afterId ? low - 2 : low - 1;
}

/** What a sorted list's cursor resumes after: the last record's sort value, then its id. */
export type SortKey = [string | number, number];

function compareKeys(a: SortKey, b: SortKey): number {
	if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
	return a[1] - b[1];
}

/** Reads a `cursor` issued by `sortedPage`; problems are reported into the reader. */
export function readSortCursor(reader: FieldReader): SortKey | undefined {
	const cursor = reader.optionalString('cursor', { nullable: true });
	if (cursor === null || cursor === undefined || cursor === '') return undefined;
	try {
		const after = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown }).after;
		if (Array.isArray(after) && after.length === 2 && Number.isInteger(after[1])) return after as SortKey;
	} catch {
		// Not base64url JSON: refused below.
	}
	reader.fail('cursor', 'is not a cursor returned by this endpoint');
	return undefined;
}

/**
 * One page of the records that pass `keep`, in the order of their sort key (a value, then the id),
 * after the cursor's key: pages stay stable while records are added, whatever the sort.
 */
export function sortedPage<T>(
	records: readonly T[],
	keyOf: (item: T) => SortKey,
	order: Order,
	request: { after: SortKey | undefined; perPage: number },
	keep: (item: T) => boolean,
): Page<T> {
	const sign = order === 'asc' ? 1 : -1;
	const { after, perPage } = request;
	const sorted = records
		.filter((item) => keep(item) && (!after || sign * compareKeys(keyOf(item), after) > 0))
		.sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)));
	const data = sorted.slice(0, perPage);
	const hasMore = sorted.length > perPage;
	const next = hasMore
		? Buffer.from(JSON.stringify({ after: keyOf(data[data.length - 1]) })).toString('base64url')
		: null;
	return { data, meta: { per_page: perPage, next_cursor: next, has_more: hasMore } };
}

/** One page of an offset-paginated list. */
export function offsetSlice<T>(items: readonly T[], offset: number, perPage: number): { data: T[]; hasMore: boolean } {
	return { data: items.slice(offset, offset + perPage), hasMore: offset + perPage < items.length };
}

/** What a list paged by number says of its pages (production's follow-ups: `meta.last_page`). */
export interface NumberedMeta {
	current_page: number;
	last_page: number;
	per_page: number;
	total: number;
}

/** Reads `page` (from 1) and `per_page`; problems are reported into the reader. */
export function readNumberedPage(reader: FieldReader): { page: number; perPage: number } {
	return { page: reader.optionalInteger('page', { min: 1 }) ?? 1, perPage: readPerPage(reader) };
}

/** Page `page` of `items`, `perPage` a page; a page past the last is empty. */
export function numberedPage<T>(
	items: readonly T[],
	{ page, perPage }: { page: number; perPage: number },
): { data: T[]; meta: NumberedMeta } {
	const data = items.slice((page - 1) * perPage, page * perPage);
	const lastPage = Math.max(1, Math.ceil(items.length / perPage));
	return { data, meta: { current_page: page, last_page: lastPage, per_page: perPage, total: items.length } };
}
