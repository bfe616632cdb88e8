import { SHORT_PAGE_SIZE } from '../../sandbox/answerProfiles';
import { startSandbox } from '../../sandbox';
import { detailFields, useSandbox } from '../support/sandbox/harness';

/**
 * The sandbox's answer profiles (docs/sandbox.md "Answer profiles"): each changes the one detail it
 * names, for the client it is set for (or every client), and `default` answers as before.
 */
const h = useSandbox();

const setProfile = (profile: string, clientId?: string) =>
	h.admin('POST', '/answer-profile', { profile, ...(clientId ? { client_id: clientId } : {}) });

afterEach(async () => {
	await h.admin('DELETE', '/answer-profile');
});

test('chosen per client: another client keeps the default answers; an unknown profile or client is refused', async () => {
	expect((await setProfile('offset-meta', 'demo-client')).body.data).toEqual({
		scope: 'demo-client',
		profile: 'offset-meta',
	});
	const demo = await h.api('GET', '/users', { query: { per_page: 2 } });
	const solo = await h.api('GET', '/users', { client: 'solo-client', query: { per_page: 2 } });
	expect(demo.body.meta).not.toHaveProperty('has_more');
	expect(solo.body.meta).toHaveProperty('has_more', true);
	expect(detailFields(await setProfile('sloppy'))).toEqual(['profile']);
	expect(detailFields(await setProfile('default', 'nobody'))).toEqual(['client_id']);
	expect((await h.admin('GET', '/answer-profile')).body.data).toMatchObject({
		global: 'default',
		clients: { 'demo-client': 'offset-meta' },
	});
});

test('offset-meta: offset pages keep offset, per_page and total but no has_more; cursor pages keep next_cursor', async () => {
	await setProfile('offset-meta');
	const offset = await h.api('POST', '/products/search', { body: { offset: 0, count: 5 } });
	expect(offset.body.meta).toEqual({ offset: 0, count: 5, total: 60 });
	const cursor = await h.api('POST', '/customers/search', { body: { per_page: 5 } });
	expect(cursor.body.meta).toEqual({ per_page: 5, next_cursor: expect.any(String) });
});

test(`short-pages: at most ${SHORT_PAGE_SIZE} records a page, in the query or the body, and the meta says more follow`, async () => {
	await setProfile('short-pages');
	const search = await h.api('POST', '/customers/search', { body: { per_page: 50 } });
	expect(search.body.data).toHaveLength(SHORT_PAGE_SIZE);
	expect(search.body.meta).toMatchObject({ per_page: SHORT_PAGE_SIZE, has_more: true });
	const list = await h.api('GET', '/users', { query: { per_page: 50 } });
	expect(list.body.data).toHaveLength(SHORT_PAGE_SIZE);
	expect((await h.api('GET', '/users', { query: { per_page: 3 } })).body.data).toHaveLength(3);
});

test('empty-writes: a create answers 201 with no body and a Location, a PATCH 204, a PUT {success: true}, the webhook PUT its record', async () => {
	await setProfile('empty-writes');
	const created = await h.api('POST', '/customers', { body: { lastname: 'Empty', email: 'empty.writes@example.com' } });
	expect(created.status).toBe(201);
	expect(created.bytes).toHaveLength(0);
	const id = created.headers.get('location')!.split('/').pop();
	expect((await h.admin('GET', `/records/customer/${id}`)).body.data).toMatchObject({ lastname: 'Empty' });
	const patched = await h.api('PATCH', `/customers/${id}`, { body: { firstname: 'Eve' } });
	expect([patched.status, patched.bytes.length]).toEqual([204, 0]);
	const billing = await h.api('PUT', '/agreement/7001', { body: { invoice_number: 'F-1' } });
	expect(billing.body).toEqual({ success: true });
	const hook = await h.api('POST', '/hooks', { body: { url: 'https://example.com/h', origines: ['CUSTOMER_CREATE'] } });
	const hookId = hook.headers.get('location')!.split('/').pop();
	const updated = await h.api('PUT', `/hooks/${hookId}`, { body: { format: 'x' } });
	expect(updated.body.data).toMatchObject({ id: Number(hookId), format: 'x' });
	await h.api('DELETE', `/hooks/${hookId}`);
});

test('reused-contact: a create that finds a duplicate answers 201 with the existing contact, no flag', async () => {
	const existing = (await h.admin('GET', '/records/customer/10001')).body.data;
	await setProfile('reused-contact');
	const reused = await h.api('POST', '/customers', { body: { lastname: 'Other', email: existing.email } });
	expect(reused.status).toBe(201);
	expect(reused.body).toEqual({ data: expect.objectContaining({ customers_id: 10001, lastname: existing.lastname }) });
});

test('header-request-id: an error body has no request_id; the header carries it', async () => {
	await setProfile('header-request-id');
	const missing = await h.api('GET', '/customers/99999999');
	expect(missing.status).toBe(404);
	expect(missing.body).not.toHaveProperty('request_id');
	expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test('loose-search: the customer search ignores email and phone, and answers with the newest contacts', async () => {
	const everyone = await h.api('POST', '/customers/search', { body: { per_page: 3 } });
	await setProfile('loose-search');
	const loose = await h.api('POST', '/customers/search', { body: { email: 'nobody@example.com', per_page: 3 } });
	expect(loose.body.data).toEqual(everyone.body.data);
});

test('a sandbox started with a profile (what `--answer-profile` sets) answers every client so from the start', async () => {
	const started = await startSandbox({ port: 0, answerProfile: 'offset-meta' });
	try {
		const profiles = await fetch(`${started.origin}/_admin/answer-profile`).then((response) => response.json());
		expect(profiles.data).toMatchObject({ global: 'offset-meta', clients: {} });
	} finally {
		await started.close();
	}
});
