import * as fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { maxPageSizeOf, pageSizeKeyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import { requestFor } from '../../nodes/AgencyCrm/catalogue/requests';
import { collectPages } from '../../nodes/shared/transport';
import { fakeContext } from '../support/fakeN8n';
import { failureOf } from '../support/failures';
import { followUps, numberedList } from '../support/numberedList';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 39, point 1: a list production pages by number (its follow-ups) is read with the same
 * `per_page` on every page, the last page trimmed here, so that page N is always the records after
 * the N-1 pages before it; a page that gives records already read stops the read, never doubling
 * them. Against a model of production's numbered list (test/support/numberedList.ts).
 */
const getMany = (paging: IDataObject) => ({
	resource: 'followUp',
	operation: 'getAll',
	customerId: byId(42),
	output: 'raw',
	...paging,
});

async function read(list: ReturnType<typeof numberedList>, paging: IDataObject, continueOnFail = false) {
	const fake = fakeContext({
		parameters: getMany(paging),
		httpRequestWithAuthentication: list.httpRequestWithAuthentication,
		continueOnFail,
	});
	const [items] = await route.call(fake.execute);
	return items.map((item) => item.json);
}

const listings = (records: IDataObject[]) => records.map((record) => record.product_id);
const firstListings = (count: number) => Array.from({ length: count }, (_, index) => 5001 + index);

test('500 follow-ups, Limit 450: three pages of 200, the third trimmed: follow-ups 1 to 450, each once', async () => {
	const list = numberedList(followUps(500));
	const output = await read(list, { returnAll: false, limit: 450 });
	expect(list.asked).toEqual([
		{ page: 1, perPage: 200 },
		{ page: 2, perPage: 200 },
		{ page: 3, perPage: 200 },
	]);
	expect(listings(output)).toEqual(firstListings(450));
});

test('500 follow-ups, Return All: every follow-up once, in three pages of 200', async () => {
	const list = numberedList(followUps(500));
	const output = await read(list, { returnAll: true });
	expect(list.asked.map((asked) => asked.perPage)).toEqual([200, 200, 200]);
	expect(listings(output)).toEqual(firstListings(500));
});

test('any list, Limit, Return All and Page Size: the first records, each once, one page size throughout', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 0, max: 650 }),
			fc.option(fc.integer({ min: 1, max: 700 }), { nil: undefined }),
			fc.integer({ min: 1, max: 200 }),
			async (count, limit, perPage) => {
				const list = numberedList(followUps(count));
				const paging = limit === undefined ? { returnAll: true } : { returnAll: false, limit };
				const output = await read(list, { ...paging, options: { perPage } });
				const wanted = Math.min(count, limit ?? count);
				expect(listings(output)).toEqual(firstListings(wanted));
				expect(new Set(list.asked.map((asked) => asked.perPage)).size).toBe(1);
				expect(list.asked.map((asked) => asked.page)).toEqual(list.asked.map((_, index) => index + 1));
				// No page more than the records wanted need, nor one past the list's last.
				const size = list.asked[0].perPage;
				expect(list.asked.length).toBe(Math.max(1, Math.ceil(wanted / size)));
			},
		),
		{ numRuns: 150 },
	);
});

describe('a page that gives records already read stops the read, naming why', () => {
	// A follow-up added at the head of the list after the first page: the second starts one record early.
	const addedAtTheHead = () =>
		numberedList(followUps(300), {
			beforePage: (page, records) => {
				if (page === 2) records.unshift({ customers_id: 42, product_id: 9999, rating: 0, status: 'new' });
			},
		});
	const stopped =
		'The API gave again, on page 2, a record an earlier page gave (ID 5200) for GET /customers/42/follow-ups; stopped to avoid repeating or losing records';

	test('the item fails, output nothing twice', async () => {
		const error = await failureOf(read(addedAtTheHead(), { returnAll: true }));
		expect((error as Error).message).toBe(stopped);
	});

	test('with Continue On Fail, the item is that error, as data', async () => {
		const output = await read(addedAtTheHead(), { returnAll: true }, true);
		expect(output).toEqual([{ error: stopped }]);
	});
});

describe('every list the node pages by cursor follows page numbers the same way, should its answers carry them', () => {
	const lists = ENDPOINTS.filter((endpoint) => (endpoint.paginationModes?.[0] ?? endpoint.pagination) === 'cursor');
	const named = lists.map((endpoint) => ({ name: `${endpoint.resource} ${endpoint.operation.value}`, endpoint }));

	test('the lists are found', () => {
		expect(named.map(({ name }) => name)).toEqual(expect.arrayContaining(['followUp getAll', 'customer getAll']));
	});

	test.each(named)('$name: Limit 450 of 500, and Return All', async ({ endpoint }) => {
		const pathParams = Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, 7]));
		const { size } = maxPageSizeOf(endpoint);
		const records = Array.from({ length: 500 }, (_, index) => ({ id: index + 1 }));
		for (const limit of [450, undefined]) {
			const list = numberedList(records, { sizeKey: pageSizeKeyOf(endpoint) });
			const fake = fakeContext({ httpRequestWithAuthentication: list.httpRequestWithAuthentication });
			const read = await collectPages(fake.execute, requestFor(endpoint, { pathParams }), 'cursor', limit, size);
			expect(read).toEqual(records.slice(0, limit ?? 500));
			expect(new Set(list.asked.map((asked) => asked.perPage))).toEqual(new Set([size]));
		}
	});
});
