import { useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

describe('follow-ups', () => {
	test('create, conflict, update, list and delete', async () => {
		const created = await h.api('POST', '/customers/10006/follow-ups/5010', { body: { rating: 3 } });
		expect(created.status).toBe(201);
		expect(created.body.data).toMatchObject({ customers_id: 10006, product_id: 5010, rating: 3, status: 'new' });
		const conflict = await h.api('POST', '/customers/10006/follow-ups/5010');
		expect(conflict.status).toBe(409);
		expect(conflict.body.error.code).toBe('FOLLOW_UP_EXISTS');
		const updated = await h.api('PATCH', '/customers/10006/follow-ups/5010', {
			body: { rating: 5, status: 'visited' },
		});
		expect(updated.body.data).toMatchObject({ rating: 5, status: 'visited' });
		const list = await h.api('GET', '/customers/10006/follow-ups');
		expect(list.body.data.map((followUp: { product_id: number }) => followUp.product_id)).toContain(5010);
		expect((await h.api('DELETE', '/customers/10006/follow-ups/5010')).status).toBe(204);
		expect((await h.api('DELETE', '/customers/10006/follow-ups/5010')).status).toBe(404);
		expect((await h.api('POST', '/customers/10006/follow-ups/90001')).status).toBe(404);
	});
});

describe('issue 35: the list pages as production pages it, by page and per_page up to meta.last_page', () => {
	test('pages by number, each with current_page, last_page, per_page and total; a cursor still pages by cursor', async () => {
		for (const productId of [5021, 5022, 5023, 5024, 5025]) {
			expect((await h.api('POST', `/customers/10007/follow-ups/${productId}`)).status).toBe(201);
		}
		const everyOne = await h.api('GET', '/customers/10007/follow-ups?per_page=200');
		const total = everyOne.body.data.length as number;
		expect(total).toBeGreaterThanOrEqual(5);
		const pages = Math.ceil(total / 2);
		const seen: number[] = [];
		for (let page = 1; page <= pages; page++) {
			const { body } = await h.api('GET', `/customers/10007/follow-ups?per_page=2${page > 1 ? `&page=${page}` : ''}`);
			expect(body.meta).toEqual({ current_page: page, last_page: pages, per_page: 2, total });
			expect(body.links.next === null).toBe(page === pages);
			seen.push(...body.data.map((followUp: { product_id: number }) => followUp.product_id));
		}
		expect(seen).toEqual(everyOne.body.data.map((followUp: { product_id: number }) => followUp.product_id));
		expect(new Set(seen).size).toBe(total);
		const past = await h.api('GET', `/customers/10007/follow-ups?per_page=2&page=${pages + 1}`);
		expect(past.body.data).toEqual([]);
		const first = await h.api('GET', '/customers/10007/follow-ups?per_page=2&cursor=');
		expect(first.body.meta).toEqual({ per_page: 2, next_cursor: expect.any(String), has_more: true });
		expect((await h.api('GET', '/customers/10007/follow-ups?page=0')).status).toBe(422);
	});
});

describe('issue 39: a numbered page is placed by its own size, as production places it', () => {
	test('page N of size S is the records after (N-1)·S, whatever size earlier pages asked; per_page over 200 is refused', async () => {
		for (const productId of [5031, 5032, 5033, 5034, 5035, 5036, 5037]) {
			expect((await h.api('POST', `/customers/10008/follow-ups/${productId}`)).status).toBe(201);
		}
		const listings = async (query: string) =>
			(await h.api('GET', `/customers/10008/follow-ups?${query}`)).body.data.map(
				(followUp: { product_id: number }) => followUp.product_id,
			);
		const everyOne: number[] = await listings('per_page=200');
		expect(everyOne.length).toBeGreaterThanOrEqual(7);
		expect(await listings('per_page=3&page=2')).toEqual(everyOne.slice(3, 6));
		// A last page asked smaller than the pages before it is not their continuation.
		expect(await listings('per_page=1&page=3')).toEqual(everyOne.slice(2, 3));
		expect((await h.api('GET', '/customers/10008/follow-ups?per_page=201')).status).toBe(422);
	});
});
