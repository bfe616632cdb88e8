import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

describe('search requests', () => {
	test('PATCH replaces the criteria entirely', async () => {
		const created = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				title: 'T3 Lyon',
				criteria: [
					{ id: 2, value: 300000 },
					{ id: 'zone', value: [2, 3] },
				],
				areas: [2, 3],
			},
		});
		expect(created.status).toBe(201);
		expect(created.body.data.criteria).toEqual([
			{ id: 2, value: 300000 },
			{ id: 30, value: [2, 3] },
		]);
		const path = `/customers/10007/search-requests/${created.body.data.search_request_id}`;
		const patched = await h.api('PATCH', path, { body: { criteria: [{ id: 4, value: 3 }] } });
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({ title: 'T3 Lyon', criteria: [{ id: 4, value: 3 }], areas: [2, 3] });
		expect(
			(await h.api('PATCH', `/customers/10008/search-requests/${created.body.data.search_request_id}`, { body: {} }))
				.status,
		).toBe(404);
	});

	test('criteria are checked against the search-request referential', async () => {
		const result = await h.api('POST', '/customers/10007/search-requests', {
			body: {
				criteria: [
					{ id: 999, value: 1 },
					{ id: 2, value: 'cheap' },
				],
			},
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['criteria[0].id', 'criteria[1].value']);
	});
});
