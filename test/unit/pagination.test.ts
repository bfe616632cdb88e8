import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiRequest, ApiResponse } from '../../nodes/shared/transport';
import { collectPages } from '../../nodes/shared/transport';
import { fakeContext, ok } from '../support/fakeN8n';
import { failureOf } from '../support/failures';

/**
 * nodes/shared/transport/pagination.ts against answers that each page's signals make hard to follow:
 * "a list never ends early in silence", and never gives a record twice. Found by mutation testing
 * (docs/testing.md): each case is a mistake in the paging code that no other test noticed.
 */
const users: ApiRequest = { method: 'GET', idempotent: false, path: '/users' };
const followUps: ApiRequest = { method: 'GET', idempotent: true, path: '/customers/5/follow-ups' };

function scripted(answers: ApiResponse[]) {
	const { execute, calls } = fakeContext({ answers });
	return { context: execute, asked: () => calls.map((call) => call.qs) };
}

const records = (...ids: number[]) => ids.map((id) => ({ id }));
const listOf = (data: IDataObject[], meta: IDataObject) => ok({ data, meta });

const STOPPED = 'stopped to avoid repeating or losing records';

describe('what follows a page, by the signal it gives', () => {
	test('a bare list shorter than a page is the whole list', async () => {
		const { context, asked } = scripted([ok([{ id: 1 }])]);
		expect(await collectPages(context, users, 'cursor', undefined, 2)).toEqual(records(1));
		expect(asked()).toEqual([{ per_page: 2 }]);
	});

	test('a bare list of a full page, with no way to the next, stops with an error', async () => {
		const { context } = scripted([ok(records(1, 2))]);
		const error = await failureOf(collectPages(context, users, 'cursor', undefined, 2));
		expect(error.message).toBe(
			`The API said more records follow (or sent a full page) but gave no next_cursor for GET /users; ${STOPPED}`,
		);
	});

	test('an empty next_cursor, on a short page, is no cursor: the list ends there', async () => {
		const { context, asked } = scripted([listOf(records(1), { next_cursor: '' })]);
		expect(await collectPages(context, users, 'cursor', undefined, 2)).toEqual(records(1));
		expect(asked()).toHaveLength(1);
	});

	test.each([
		['has_more true', { has_more: true }],
		['a total not reached', { total: 10 }],
	])('%s without a next_cursor, on a short page: an error, never a quiet end', async (_signal, meta) => {
		const { context } = scripted([listOf(records(1), meta)]);
		const error = await failureOf(collectPages(context, users, 'cursor', undefined, 2));
		expect(error.message).toBe(
			`The API said more records follow (or sent a full page) but gave no next_cursor for GET /users; ${STOPPED}`,
		);
	});

	test('10 empty pages in a row, each with a new cursor, stop the read', async () => {
		const empty = Array.from({ length: 10 }, (_, index) =>
			listOf([], { has_more: true, next_cursor: `c${index + 1}` }),
		);
		const { context, asked } = scripted(empty);
		const error = await failureOf(collectPages(context, users, 'cursor'));
		expect(error.message).toBe(`The API sent 10 empty pages in a row for GET /users; ${STOPPED}`);
		expect(asked()).toHaveLength(10);
	});

	test('the error that stops a read names the item it was for', async () => {
		const { context } = scripted([ok(records(1, 2))]);
		const error = await failureOf<NodeOperationError>(
			collectPages(context, { ...users, itemIndex: 3 }, 'cursor', undefined, 2),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(3);
	});
});

describe('numbered pages', () => {
	const numbered = (ids: number[], current: number | string, last: number | string) =>
		listOf(records(...ids), { current_page: current, last_page: last });

	test('page numbers written as digits are followed as numbers, up to the last page', async () => {
		const { context, asked } = scripted([numbered([1, 2], '1', '2'), numbered([3, 4], '2', '2')]);
		expect(await collectPages(context, followUps, 'cursor', undefined, 2)).toEqual(records(1, 2, 3, 4));
		expect(asked()).toEqual([{ per_page: 2 }, { per_page: 2, page: 2 }]);
	});

	test('a last page of two digits is read as one number', async () => {
		const pages = Array.from({ length: 12 }, (_, index) => numbered([index + 1], String(index + 1), '12'));
		const { context, asked } = scripted(pages);
		const ids = Array.from({ length: 12 }, (_, index) => index + 1);
		expect(await collectPages(context, followUps, 'cursor', undefined, 1)).toEqual(records(...ids));
		expect(asked()).toHaveLength(12);
	});

	test('the last page ends the read, with no total to say so', async () => {
		const { context, asked } = scripted([numbered([1, 2], 1, 2), numbered([3], 2, 2)]);
		expect(await collectPages(context, followUps, 'cursor', undefined, 2)).toEqual(records(1, 2, 3));
		expect(asked()).toHaveLength(2);
	});

	test('a page that says it is a later one than asked is followed from the page it says', async () => {
		const { context, asked } = scripted([numbered([1, 2], 2, 3), numbered([3], 3, 3)]);
		expect(await collectPages(context, followUps, 'cursor', undefined, 2)).toEqual(records(1, 2, 3));
		expect(asked()).toEqual([{ per_page: 2 }, { per_page: 2, page: 3 }]);
		// Said to be the last page: nothing more is asked.
		const last = scripted([numbered([1, 2], 2, 2)]);
		expect(await collectPages(last.context, followUps, 'cursor', undefined, 2)).toEqual(records(1, 2));
		expect(last.asked()).toHaveLength(1);
	});

	test('a record an earlier page gave stops the read, naming the page and the record', async () => {
		const { context } = scripted([numbered([1, 2], 1, 3), numbered([2, 3], 2, 3)]);
		const error = await failureOf(collectPages(context, followUps, 'cursor', undefined, 2));
		expect(error.message).toBe(
			`The API gave again, on page 2, a record an earlier page gave (ID 2) for GET /customers/5/follow-ups; ${STOPPED}`,
		);
	});

	test('a record without an id given again is told by its content', async () => {
		const note = { note: 'Call back' };
		const pages = [
			listOf([note], { current_page: 1, last_page: 2 }),
			listOf([note], { current_page: 2, last_page: 2 }),
		];
		const { context } = scripted(pages);
		const error = await failureOf(collectPages(context, followUps, 'cursor', undefined, 1));
		expect(error.message).toBe(
			`The API gave again, on page 2, a record an earlier page gave for GET /customers/5/follow-ups; ${STOPPED}`,
		);
	});
});

describe('offset pages', () => {
	const products: ApiRequest = { method: 'GET', idempotent: true, path: '/products' };

	test('a record given again after a shift is dropped; records without an id are all kept', async () => {
		const { context } = scripted([
			listOf([{ id: 1 }, { id: 2 }, { note: 'a' }], { has_more: true }),
			listOf([{ id: 2 }, { id: 3 }, { note: 'b' }], { has_more: false }),
		]);
		expect(await collectPages(context, products, 'offset', undefined, 3)).toEqual([
			{ id: 1 },
			{ id: 2 },
			{ note: 'a' },
			{ id: 3 },
			{ note: 'b' },
		]);
	});

	test('an empty page while more are said to follow stops the read, naming the offset', async () => {
		const { context } = scripted([listOf(records(1, 2), { has_more: true }), listOf([], { has_more: true })]);
		const error = await failureOf(collectPages(context, products, 'offset', undefined, 2));
		expect(error.message).toBe(
			`The API said more records follow but sent an empty page at offset 2 for GET /products; ${STOPPED}`,
		);
	});
});
