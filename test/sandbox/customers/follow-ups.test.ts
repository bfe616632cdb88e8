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
