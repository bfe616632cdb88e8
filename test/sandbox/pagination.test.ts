import { detailFields, useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

async function walkCustomers(perPage: number): Promise<{ ids: number[]; pages: number }> {
	const ids: number[] = [];
	let cursor: string | null = null;
	let pages = 0;
	do {
		const result = await h.api('POST', '/customers/search', {
			body: { per_page: perPage, ...(cursor ? { cursor } : {}) },
		});
		expect(result.status).toBe(200);
		expect(result.body.data.length).toBeLessThanOrEqual(perPage);
		expect(result.body.meta.has_more).toBe(result.body.meta.next_cursor !== null);
		ids.push(...result.body.data.map((customer: { customers_id: number }) => customer.customers_id));
		cursor = result.body.meta.next_cursor;
		pages++;
	} while (cursor);
	return { ids, pages };
}

describe('cursor pagination', () => {
	test('walks every customer once, ordered by customers_id descending', async () => {
		const { ids, pages } = await walkCustomers(50);
		expect(pages).toBe(3);
		expect(ids).toHaveLength(120);
		expect(new Set(ids).size).toBe(120);
		expect(ids).toEqual([...ids].sort((a, b) => b - a));
		expect(ids[0]).toBe(10120);
		expect(ids[119]).toBe(10001);
	});

	test('per_page defaults to 50, accepts 200 and refuses more or less', async () => {
		expect((await h.api('POST', '/customers/search', { body: {} })).body.data).toHaveLength(50);
		expect((await h.api('POST', '/customers/search', { body: { per_page: 200 } })).body.data).toHaveLength(120);
		for (const result of [
			await h.api('POST', '/customers/search', { body: { per_page: 201 } }),
			await h.api('POST', '/customers/search', { body: { per_page: 0 } }),
			await h.api('GET', '/agencies', { query: { per_page: 'many' } }),
			await h.api('GET', '/users', { query: { per_page: 500 } }),
		]) {
			expect(result.status).toBe(422);
			expect(result.body.error.code).toBe('VALIDATION_ERROR');
			expect(detailFields(result)).toEqual(['per_page']);
		}
	});

	test('GET lists give links.next carrying the cursor', async () => {
		const first = await h.api('GET', '/agencies', { query: { per_page: 2 } });
		expect(first.body.data.map((agency: { agency_id: number }) => agency.agency_id)).toEqual([101, 102]);
		expect(first.body.meta).toEqual({ per_page: 2, next_cursor: expect.any(String), has_more: true });
		const next = new URL(first.body.links.next);
		const second = await h.api('GET', next.pathname.replace('/api/v2/site', '') + next.search);
		expect(second.body.data.map((agency: { agency_id: number }) => agency.agency_id)).toEqual([103]);
		expect(second.body.links.next).toBeNull();
	});

	test('a cursor that was not issued is a 422 on cursor', async () => {
		const result = await h.api('POST', '/customers/search', { body: { cursor: 'garbage' } });
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['cursor']);
	});

	test('mandates are ordered by mandat_id descending', async () => {
		const result = await h.api('GET', '/mandates', { query: { per_page: 200 } });
		const ids = result.body.data.map((mandate: { mandat_id: number }) => mandate.mandat_id);
		expect(ids.length).toBeGreaterThan(5);
		expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
		expect(result.body.data[0]).toEqual(
			expect.objectContaining({
				agency: expect.any(Number),
				first_name: expect.any(String),
				last_name: expect.any(String),
				is_amendment: expect.any(Boolean),
			}),
		);
	});

	test('filters combine with pagination', async () => {
		const result = await h.api('POST', '/customers/search', { body: { agency_id: 102, type: 'buyer', per_page: 200 } });
		expect(result.body.data.length).toBeGreaterThan(0);
		for (const customer of result.body.data) expect(customer).toMatchObject({ agency_id: 102, type: 'buyer' });
	});
});

describe('product search offset mode', () => {
	test('offset and count give a slice with the total', async () => {
		const all = await h.api('POST', '/products/search', { body: { count: 100 } });
		const slice = await h.api('POST', '/products/search', { body: { offset: 10, count: 5 } });
		expect(slice.status).toBe(200);
		expect(slice.body.meta).toEqual({ offset: 10, count: 5, total: 60, has_more: true });
		expect(slice.body.data.map((product: { id: number }) => product.id)).toEqual(
			all.body.data.slice(10, 15).map((product: { id: number }) => product.id),
		);
		const last = await h.api('POST', '/products/search', { body: { offset: 55, count: 10 } });
		expect(last.body.meta.has_more).toBe(false);
		expect(last.body.data).toHaveLength(5);
	});

	test('offset cannot be combined with a cursor', async () => {
		const first = await h.api('POST', '/products/search', { body: { count: 5 } });
		const result = await h.api('POST', '/products/search', {
			body: { offset: 5, cursor: first.body.meta.next_cursor },
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['offset']);
	});
});

describe('customer action history (offset through cursor)', () => {
	test('pages by offset and shows only action types with show_in_history', async () => {
		const created = await h.api('POST', '/customers', {
			body: { lastname: 'Historique', email: 'historique@example.org' },
		});
		const customerId = created.body.data.customers_id;
		const logged = [];
		for (const actionTypeId of [1, 6, 2, 3]) {
			const result = await h.api('POST', `/customers/${customerId}/actions`, {
				body: { action_id: actionTypeId, result: `type ${actionTypeId}` },
			});
			expect(result.status).toBe(201);
			logged.push(result.body.data);
		}
		const first = await h.api('GET', `/customers/${customerId}/actions`, { query: { per_page: 2 } });
		expect(first.body.data.map((action: { action_id: number }) => action.action_id)).toEqual([1, 2]);
		expect(first.body.meta).toEqual({ offset: 0, per_page: 2, has_more: true });
		const second = await h.api('GET', `/customers/${customerId}/actions`, { query: { per_page: 2, cursor: 2 } });
		expect(second.body.data.map((action: { action_id: number }) => action.action_id)).toEqual([3]);
		expect(second.body.meta.has_more).toBe(false);
		// The hidden one is still written to the journal.
		const journal = await h.admin('GET', `/records/action/${logged[1].id}`);
		expect(journal.body.data).toMatchObject({ action_type_id: 6, customers_id: customerId });
	});
});
