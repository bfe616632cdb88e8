import { useSandbox } from '../../support/sandbox/harness';

/**
 * Issue 35, points 2, 3 and 10: a contact's related data as production answers it (its lead router's
 * reads): `searchRequests`, `agency` and `user` as `{id}`, `rgpd` as `rgpd_consent`; `conformity`
 * written but never returned; and a search whose results carry no consent, asked or not.
 */
const h = useSandbox();

test('include=searchRequests,agency,user,rgpd: each under its key, with production’s ids', async () => {
	await h.api('POST', '/customers/10021/search-requests', {
		body: { wording: 'House near Annecy', criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '500000' }] },
	});
	const { body } = await h.api('GET', '/customers/10021?include=searchRequests,agency,user,rgpd');
	const contact = body.data;
	expect(contact.searchRequests).toEqual(
		expect.arrayContaining([expect.objectContaining({ wording: 'House near Annecy' })]),
	);
	expect(contact.agency).toEqual({ id: contact.agency_id, agency_id: contact.agency_id, name: expect.any(String) });
	if (contact.user_id !== null) expect(contact.user).toMatchObject({ id: contact.user_id, user_id: contact.user_id });
	expect(typeof contact.rgpd_consent).toBe('boolean');
	// Without include=rgpd, no rgpd_consent; the sandbox's first guess, search_requests, still answers under its key.
	const plain = (await h.api('GET', '/customers/10021?include=search_requests')).body.data;
	expect(plain.rgpd_consent).toBeUndefined();
	expect(plain.search_requests.length).toBe(contact.searchRequests.length);
});

test('rgpd_consent and conformity are written; conformity is never returned, and only 1 or 2', async () => {
	const patched = await h.api('PATCH', '/customers/10022', { body: { rgpd_consent: true, conformity: 2 } });
	// Production answers a contact's PATCH 204, with no body (issue 32).
	expect(patched.status).toBe(204);
	const { body } = await h.api('GET', '/customers/10022?include=rgpd');
	expect(body.data.rgpd_consent).toBe(true);
	expect(body.data.conformity).toBeUndefined();
	expect((await h.admin('GET', '/records/customer/10022')).body.data.conformity).toBe(2);
	const refused = await h.api('PATCH', '/customers/10022', { body: { conformity: 3 } });
	expect(refused.status).toBe(422);
	expect(refused.body.error.details).toEqual([{ field: 'conformity', message: expect.stringContaining('1') }]);
});

test('the search carries no consent, asked or not; the contact read does', async () => {
	await h.api('POST', '/customers/10023/consent', { body: { reason: 'Signed' } });
	const email = (await h.api('GET', '/customers/10023')).body.data.email as string;
	const search = await h.api('POST', '/customers/search', { query: { include: 'consent,origin' }, body: { email } });
	const [hit] = search.body.data;
	expect(hit.customers_id).toBe(10023);
	expect(hit.consent).toBeUndefined();
	expect(hit.origin).toBeDefined();
	expect((await h.api('GET', '/customers/10023?include=consent')).body.data.consent).toMatchObject({
		reason: 'Signed',
	});
});
