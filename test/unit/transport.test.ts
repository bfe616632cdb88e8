import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { requestOf } from '../../nodes/AgencyCrm/catalogue/requests';
import { apiRequest, collectPages, plainDescription } from '../../nodes/shared/transport';
import type { ApiResponse } from '../../nodes/shared/transport';
import { backoffDelayMs, retryAfterMs } from '../../nodes/shared/transport/backoff';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';
import { failureOf } from '../support/failures';

/** The transport against scripted answers (test/support/fakeN8n.ts). */
function scripted(answers: Array<ApiResponse | Error>) {
	const { execute, calls } = fakeContext({ answers });
	return { context: execute, calls };
}

const page = (ids: number[], next: string | null) =>
	ok({ data: ids.map((id) => ({ id })), meta: { next_cursor: next, has_more: next !== null } });
const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

describe('apiRequest', () => {
	test('asks n8n for every answer, errors included, as JSON with the full response', async () => {
		const { context, calls } = scripted([ok({ data: { id: 1 } })]);
		await apiRequest(context, { method: 'GET', idempotent: false, path: '/discovery' });
		expect(calls[0]).toMatchObject({
			method: 'GET',
			url: '/discovery',
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			headers: { Accept: 'application/json' },
		});
	});

	test('retries a 429 after the Retry-After delay and returns the next answer', async () => {
		const { context, calls } = scripted([status(429, { 'retry-after': '0' }), ok({ data: 'done' })]);
		const response = await apiRequest(context, {
			method: 'POST',
			idempotent: false,
			path: '/customers',
			body: { lastname: 'A' },
		});
		expect(response.body).toEqual({ data: 'done' });
		expect(calls).toHaveLength(2);
	});

	test('gives up after 5 retries of a 503 and reports the API error', async () => {
		const answers = range(0, 6).map(() =>
			status(
				503,
				{ 'retry-after': '0', 'x-request-id': 'req-503' },
				{ error: { code: 'SERVICE_UNAVAILABLE', message: 'Try later' } },
			),
		);
		const { context, calls } = scripted(answers);
		await expect(apiRequest(context, { method: 'GET', idempotent: false, path: '/agencies' })).rejects.toThrow(
			'SERVICE_UNAVAILABLE: Try later (HTTP 503)',
		);
		expect(calls).toHaveLength(6);
	});

	test('a create is resent after 503 but never after a 502 or 504, which may come after the work was done', async () => {
		const unavailable = scripted([status(503, { 'retry-after': '0' }), ok({ data: { id: 1 } })]);
		await apiRequest(unavailable.context, { method: 'POST', idempotent: false, path: '/customers' });
		expect(unavailable.calls).toHaveLength(2);
		for (const gateway of [502, 504]) {
			const create = scripted([status(gateway, { 'retry-after': '0' }), ok({})]);
			await expect(
				apiRequest(create.context, { method: 'POST', idempotent: false, path: '/customers' }),
			).rejects.toThrow(`(HTTP ${gateway})`);
			expect(create.calls).toHaveLength(1);
			const read = scripted([status(gateway, { 'retry-after': '0' }), ok({})]);
			await apiRequest(read.context, { method: 'GET', path: '/customers/1', idempotent: true });
			expect(read.calls).toHaveLength(2);
		}
	});

	test('never retries a status the endpoint gives a business meaning (502 on consent)', async () => {
		const { context, calls } = scripted([
			status(502, { 'retry-after': '0' }, { error: { code: 'PROOF_STORAGE_FAILED', message: 'Proof not stored' } }),
		]);
		await expect(
			apiRequest(context, { method: 'POST', idempotent: false, path: '/customers/1/consent', noRetryStatuses: [502] }),
		).rejects.toThrow('PROOF_STORAGE_FAILED');
		expect(calls).toHaveLength(1);
	});

	test('maps a validation error to one line per detail, each field as the form labels it, what to do and the request id', async () => {
		const details = [
			{ field: 'starts_at', message: 'must end with Z' },
			{ field: 'users', message: 'exactly one organizer' },
			{ field: 'notary', message: 'is unknown <b>here</b>' },
		];
		const requestId = '4f0c2d8e-1b8a-4c59-9d59-3f7c5f1a2b3c';
		const { context } = scripted([
			errorAnswer(422, 'VALIDATION_ERROR', 'The request is invalid', { details, requestId }),
		]);
		const error = await failureOf<NodeApiError>(apiRequest(context, requestOf('calendar:createEvent')));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('VALIDATION_ERROR: The request is invalid (HTTP 422)');
		// n8n's editor reads descriptions as HTML: lines are escaped and broken with <br>.
		expect(error.description).toBe(
			[
				'"Starts At" (starts_at): must end with Z',
				'"Participants" (users): exactly one organizer',
				'notary: is unknown &lt;b&gt;here&lt;/b&gt;',
				"Fix these fields in the node's parameters and run again.",
				'Request ID: 4f0c2d8e-1b8a-4c59-9d59-3f7c5f1a2b3c (quote it to Agency CRM support)',
			].join('<br>'),
		);
		expect(plainDescription(error.description!).split('\n')[2]).toBe('notary: is unknown <b>here</b>');
		expect(error.httpCode).toBe('422');
	});

	// Issue 39, point 7: the fields are in the node's parameters, not "above"; and a message that only
	// restates a detail is not said twice.
	test('a message that restates a detail: the title counts the fields, each said once, with where to fix it', async () => {
		const details = [
			{ field: 'email', message: 'must be an email address' },
			{ field: 'mobile_phone', message: 'must be a phone number' },
		];
		const { context } = scripted([
			errorAnswer(422, 'VALIDATION_ERROR', 'email: must be an email address', { details, requestId: 'r-2' }),
		]);
		const error = await failureOf<NodeApiError>(apiRequest(context, requestOf('customer:create')));
		expect(error.message).toBe('VALIDATION_ERROR: 2 fields refused (HTTP 422)');
		expect(plainDescription(error.description!).split('\n')).toEqual([
			'"Email" (email): must be an email address',
			'"Mobile Phone" (mobile_phone): must be a phone number',
			"Fix these fields in the node's parameters and run again.",
			'Request ID: r-2 (quote it to Agency CRM support)',
		]);
		expect(error.context.apiError).toMatchObject({ message: 'email: must be an email address' });
	});

	test('takes the request id from X-Request-Id when the body has none', async () => {
		const { context } = scripted([errorAnswer(404, 'NOT_FOUND', 'No such customer', { headerId: 'hdr-id-1' })]);
		const error = await failureOf<NodeApiError>(
			apiRequest(context, { method: 'GET', idempotent: false, path: '/customers/9' }),
		);
		expect(error.message).toBe('NOT_FOUND: No such customer (HTTP 404)');
		expect(error.description).toContain('Request ID: hdr-id-1');
	});

	test('resends a read after a connection reset, but never a create', async () => {
		const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const read = scripted([reset(), ok({ data: [] })]);
		await apiRequest(read.context, { method: 'GET', path: '/agencies', idempotent: true });
		expect(read.calls).toHaveLength(2);

		const create = scripted([reset(), ok({})]);
		const error = await failureOf<NodeApiError>(
			apiRequest(create.context, { method: 'POST', idempotent: false, path: '/customers' }),
		);
		expect(error.message).toBe('Agency CRM could not be reached for POST /customers');
		expect(error.description).toContain('(ECONNRESET)');
		expect(create.calls).toHaveLength(1);
	});
});

describe('issue 17: 429s wait by time, failures by attempts; a resent DELETE answered 404 succeeds', () => {
	const throttled = (seconds: string) =>
		status(429, { 'retry-after': seconds }, { error: { code: 'RATE_LIMITED', message: 'Slow down' } });
	const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

	test('a request throttled more often than the attempt budget still goes through: a 429 is no failure', async () => {
		const { context, calls } = scripted([...range(0, 8).map(() => throttled('0')), ok({ data: 'done' })]);
		const response = await apiRequest(context, { method: 'POST', idempotent: false, path: '/customers' });
		expect(response.body).toEqual({ data: 'done' });
		expect(calls).toHaveLength(9);
	});

	test('429s leave the attempts to failures: after throttling, five 503s are still retried', async () => {
		const unavailable = () => status(503, { 'retry-after': '0' });
		const answers = [throttled('0'), throttled('0'), ...range(0, 5).map(unavailable), throttled('0'), ok({})];
		const sent = answers.length;
		const { context, calls } = scripted(answers);
		await apiRequest(context, { method: 'GET', idempotent: true, path: '/agencies' });
		expect(calls).toHaveLength(sent);
	});

	test('waiting for 429s is bounded by time: past 300 s in all, the item fails saying so', async () => {
		jest.useFakeTimers();
		try {
			const { context, calls } = scripted(range(0, 7).map(() => throttled('60')));
			const failure = failureOf<NodeApiError>(apiRequest(context, { method: 'GET', idempotent: true, path: '/users' }));
			for (let second = 0; second < 400 && calls.length < 6; second++) await jest.advanceTimersByTimeAsync(1000);
			const error = await failure;
			expect(calls).toHaveLength(6);
			expect(error.message).toBe('RATE_LIMITED: Slow down (HTTP 429)');
			expect(error.description).toContain(
				'after this request had waited 300 s for it in all, the most the node waits (300 s)',
			);
		} finally {
			jest.useRealTimers();
		}
	});

	test('a DELETE of a record seen before, resent after a reset and answered 404, succeeds: the first one removed the record', async () => {
		const gone = errorAnswer(404, 'NOT_FOUND', 'Follow-up not found');
		const path = '/customers/5/follow-ups/8';
		const seen = scripted([reset(), gone]);
		const response = await apiRequest(seen.context, {
			method: 'DELETE',
			idempotent: true,
			path,
			removal: { seen: true },
		});
		expect(response).toMatchObject({ statusCode: 204, removalAfterLostAnswer: { verified: true } });
		// Issue 35: not seen before, the 404 may be an ID that names nothing, yet a removal the API carried
		// out never fails its item: done, said to be unverified.
		const unseen = scripted([reset(), errorAnswer(404, 'NOT_FOUND', 'Follow-up not found')]);
		const unverified = await apiRequest(unseen.context, {
			method: 'DELETE',
			idempotent: true,
			path,
			removal: { seen: false },
		});
		expect(unverified).toMatchObject({ statusCode: 204, removalAfterLostAnswer: { verified: false } });
		// A first answer 404 is the API's: the ID names nothing.
		const first = scripted([errorAnswer(404, 'NOT_FOUND', 'Follow-up not found')]);
		await expect(
			apiRequest(first.context, { method: 'DELETE', idempotent: true, path, removal: { seen: true } }),
		).rejects.toThrow('NOT_FOUND: Follow-up not found (HTTP 404)');
		// A DELETE that removes no record of its path (a consent's revocation: 404 names a missing contact) fails.
		const revoke = scripted([reset(), errorAnswer(404, 'NOT_FOUND', 'No such customer')]);
		await expect(
			apiRequest(revoke.context, { method: 'DELETE', idempotent: true, path: '/customers/5/consent' }),
		).rejects.toThrow('NOT_FOUND: No such customer (HTTP 404)');
		const read = scripted([reset(), errorAnswer(404, 'NOT_FOUND', 'No such customer')]);
		await expect(apiRequest(read.context, { method: 'GET', idempotent: true, path: '/customers/5' })).rejects.toThrow(
			'(HTTP 404)',
		);
	});
});

describe('backoff', () => {
	test('doubles from 0.5 s and stops growing at 30 s', () => {
		expect([0, 1, 2, 3, 4, 6, 10].map(backoffDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 30000, 30000]);
	});

	test('reads Retry-After as seconds or as an HTTP date', () => {
		expect(retryAfterMs('3')).toBe(3000);
		expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', Date.parse('Sat, 21 Nov 2026 10:00:00 GMT'))).toBe(5000);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
	});
});

describe('pagination', () => {
	const productSearch = { method: 'POST', idempotent: true, path: '/products/search' } as const;
	test('cursor: follows next_cursor, asks only for what Limit still needs, and stops at Limit', async () => {
		const { context, calls } = scripted([
			page(range(1, 200), 'c2'),
			page(range(201, 200), 'c3'),
			page(range(401, 50), 'c4'),
		]);
		const records = await collectPages(context, { method: 'GET', idempotent: false, path: '/users' }, 'cursor', 450);
		expect(records).toHaveLength(450);
		expect(records[449]).toEqual({ id: 450 });
		expect(calls.map((call) => call.qs)).toEqual([
			{ per_page: 200 },
			{ per_page: 200, cursor: 'c2' },
			{ per_page: 50, cursor: 'c3' },
		]);
	});

	test('cursor: Return All walks until has_more is false; POST searches page in the body', async () => {
		const { context, calls } = scripted([page([1, 2], 'next'), page([3], null)]);
		const records = await collectPages(
			context,
			{ method: 'POST', idempotent: false, path: '/customers/search', body: { email: 'a@b.co' } },
			'cursor',
			undefined,
			2,
		);
		expect(records).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(calls.map((call) => call.body)).toEqual([
			{ email: 'a@b.co', per_page: 2 },
			{ email: 'a@b.co', per_page: 2, cursor: 'next' },
		]);
	});

	test('cursor: a cursor returned twice stops with a clear error instead of repeating records', async () => {
		const { context } = scripted([page([1], 'same'), page([2], 'same')]);
		const error = await failureOf(
			collectPages(context, { method: 'GET', idempotent: false, path: '/mandates' }, 'cursor'),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'The API returned the cursor "same" a second time for GET /mandates; stopped to avoid repeating or losing records',
		);
	});

	test('cursor: has_more without a next_cursor is an error, not a silent end', async () => {
		const { context } = scripted([ok({ data: [{ id: 1 }], meta: { has_more: true, next_cursor: null } })]);
		await expect(collectPages(context, { method: 'GET', idempotent: false, path: '/users' }, 'cursor')).rejects.toThrow(
			'The API said more records follow (or sent a full page) but gave no next_cursor for GET /users; stopped to avoid repeating or losing records',
		);
	});

	test('issue 35: a list that numbers its pages (production’s follow-ups) is followed by page up to meta.last_page', async () => {
		const numbered = (ids: number[], current: number) =>
			ok({ data: ids.map((id) => ({ id })), meta: { current_page: current, last_page: 3, per_page: 2, total: 5 } });
		const { context, calls } = scripted([numbered([1, 2], 1), numbered([3, 4], 2), numbered([5], 3)]);
		const followUps = { method: 'GET', idempotent: true, path: '/customers/5/follow-ups' } as const;
		expect(await collectPages(context, followUps, 'cursor', undefined, 2)).toEqual(range(1, 5).map((id) => ({ id })));
		expect(calls.map((call) => call.qs)).toEqual([{ per_page: 2 }, { per_page: 2, page: 2 }, { per_page: 2, page: 3 }]);
		// An API that ignores the page number would give page 1 forever: stopped at once.
		const ignored = scripted([numbered([1, 2], 1), numbered([1, 2], 1)]);
		await expect(collectPages(ignored.context, followUps, 'cursor', undefined, 2)).rejects.toThrow(
			'The API answered page 1 when page 2 was asked for GET /customers/5/follow-ups',
		);
	});

	test('offset: an API that ignores the offset is stopped at the second identical page', async () => {
		const same = () => ok({ data: [{ id: 1 }, { id: 2 }], meta: { has_more: true } });
		const { context, calls } = scripted([same(), same(), same()]);
		await expect(
			collectPages(context, { method: 'POST', idempotent: false, path: '/products/search' }, 'offset', undefined, 2),
		).rejects.toThrow('The API returned the same page twice for POST /products/search');
		expect(calls).toHaveLength(2);
	});

	test('offset: product search counts records in `offset`', async () => {
		const pageOf = (ids: number[], more: boolean) => ok({ data: ids.map((id) => ({ id })), meta: { has_more: more } });
		const { context, calls } = scripted([pageOf([1, 2], true), pageOf([3], false)]);
		const records = await collectPages(
			context,
			{ method: 'POST', idempotent: false, path: '/products/search' },
			'offset',
			undefined,
			2,
		);
		expect(records).toHaveLength(3);
		expect(calls.map((call) => call.body)).toEqual([
			{ per_page: 2, offset: 0 },
			{ per_page: 2, offset: 2 },
		]);
	});

	test('issue 26: a list that names its page size otherwise is paged with that name (count, perPage)', async () => {
		const pageOf = (ids: number[], more: boolean) => ok({ data: ids.map((id) => ({ id })), meta: { has_more: more } });
		const { context, calls } = scripted([pageOf([1, 2], true), pageOf([3], false), pageOf([4], false)]);
		const search = { method: 'POST' as const, idempotent: true, path: '/products/search', pageKeys: { size: 'count' } };
		expect(await collectPages(context, search, 'offset', undefined, 2)).toHaveLength(3);
		const events = {
			method: 'GET' as const,
			idempotent: true,
			path: '/calendar/events',
			pageKeys: { size: 'perPage' },
		};
		expect(await collectPages(context, events, 'offset', undefined, 50)).toHaveLength(1);
		expect(calls.map((call) => call.body ?? call.qs)).toEqual([
			{ count: 2, offset: 0 },
			{ count: 2, offset: 2 },
			{ perPage: 50, offset: 0 },
		]);
	});

	test('issue 17: offset meta without has_more continues on total; a short page is not the end', async () => {
		const offsetPage = (ids: number[], offset: number) =>
			ok({ data: ids.map((id) => ({ id })), meta: { offset, per_page: 3, total: 7 } });
		const { context, calls } = scripted([offsetPage([1, 2], 0), offsetPage([3, 4, 5], 2), offsetPage([6, 7], 5)]);
		const records = await collectPages(context, productSearch, 'offset', undefined, 3);
		expect(records.map((record) => record.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(calls.map((call) => call.body)).toEqual([
			{ per_page: 3, offset: 0 },
			{ per_page: 3, offset: 2 },
			{ per_page: 3, offset: 5 },
		]);
	});

	test('issue 17: with no signal at all, pages go on until an empty page', async () => {
		const bare = (ids: number[]) => ok({ data: ids.map((id) => ({ id })) });
		const { context, calls } = scripted([bare([1, 2]), bare([3]), bare([])]);
		const records = await collectPages(
			context,
			{ method: 'GET', idempotent: true, path: '/customers/5/actions' },
			'cursorOffset',
			undefined,
			2,
		);
		expect(records.map((record) => record.id)).toEqual([1, 2, 3]);
		expect(calls.map((call) => call.qs?.cursor)).toEqual([0, 2, 3]);
	});

	test('issue 17: an empty page in the middle that says more follow does not end the list', async () => {
		const { context } = scripted([
			page([1, 2], 'c2'),
			ok({ data: [], meta: { next_cursor: 'c3', has_more: true } }),
			page([3], null),
		]);
		const records = await collectPages(context, { method: 'GET', idempotent: true, path: '/users' }, 'cursor');
		expect(records.map((record) => record.id)).toEqual([1, 2, 3]);
	});

	test('issue 17: an answer with no recognisable list fails, naming the keys it found and the request id', async () => {
		const { context } = scripted([
			{ statusCode: 200, body: { items: [{ id: 1 }], meta: {} }, headers: { 'x-request-id': 'req-9' } },
		]);
		const error = await failureOf<NodeApiError>(
			collectPages(context, { method: 'GET', idempotent: true, path: '/users' }, 'cursor'),
		);
		expect(error.message).toBe(
			'The API\'s answer to GET /users could not be read: it holds no list of records (no "data" array)',
		);
		expect(error.description).toBe(
			'The API answered HTTP 200 with the keys items, meta.<br>Request ID: req-9 (quote it to Agency CRM support)',
		);
	});

	test("issue 17: the transport sends the page size it is given (a Page Size above the largest page is capped before, by the item's plan)", async () => {
		const { context, calls } = scripted([page([1], null)]);
		await collectPages(context, { method: 'GET', idempotent: true, path: '/users' }, 'cursor', undefined, 500);
		expect(calls[0].qs).toEqual({ per_page: 500 });
	});

	test('cursorOffset: customer action history carries the offset in `cursor`', async () => {
		const pageOf = (ids: number[], more: boolean) => ok({ data: ids.map((id) => ({ id })), meta: { has_more: more } });
		const { context, calls } = scripted([pageOf([1, 2, 3], true), pageOf([4, 5, 6], true), pageOf([7], false)]);
		const records = await collectPages(
			context,
			{ method: 'GET', idempotent: false, path: '/customers/5/actions' },
			'cursorOffset',
			undefined,
			3,
		);
		expect(records.map((record) => record.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(calls.map((call) => call.qs)).toEqual([
			{ per_page: 3, cursor: 0 },
			{ per_page: 3, cursor: 3 },
			{ per_page: 3, cursor: 6 },
		]);
	});
});
