import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { credentialsOf, inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 35, points 2 and 3, against the sandbox answering as production does: the contact includes
 * production's lead router reads (searchRequests, agency, user, consent, rgpd), 0.1.0's
 * search_requests sent under production's name, rgpd_consent in Simplified, the write-only GDPR
 * conformity, and a search's consent read from each contact (the search gives none).
 */
const h = useSandbox();

async function run(parameters: Record<string, unknown>) {
	await h.admin('POST', '/reset');
	const { context, hints } = inProcessContext(credentialsOf(h.sandbox), [parameters], [], false, 2);
	const [output] = await route.call(context);
	const logged = (await h.admin('GET', '/requests?limit=2000')).body.data as Array<{
		method: string;
		route: string;
		query: Record<string, string>;
		body: unknown;
	}>;
	return {
		output: output.map((item) => item.json),
		requests: logged.filter((entry) => entry.route !== undefined && !entry.route.startsWith('POST /api/client')),
		hints: hints.map((hint) => hint.message),
	};
}

const stored = async (id: number): Promise<IDataObject> => (await h.admin('GET', `/records/customer/${id}`)).body.data;

test('Get with production’s includes: searchRequests, agency, user, consent and rgpd, each under its key', async () => {
	await h.api('POST', '/customers/10011/search-requests', {
		body: { wording: 'Flat in Lyon', criteria: [{ id: 'Prix', operator: 'INFERIEUR', value: '300000' }] },
	});
	const { output, requests } = await run({
		resource: 'customer',
		operation: 'get',
		customerId: byId(10011),
		options: { include: ['searchRequests', 'agency', 'user', 'consent', 'rgpd'], output: 'raw' },
	});
	expect(requests.map((request) => [request.route, request.query])).toEqual([
		['GET /customers/{customerId}', { include: 'origin,groups,searchRequests,agency,user,consent,rgpd' }],
	]);
	const [contact] = output;
	expect(contact).toMatchObject({
		searchRequests: expect.arrayContaining([expect.objectContaining({ wording: 'Flat in Lyon' })]),
		agency: { id: contact.agency_id },
		rgpd_consent: (await stored(10011)).rgpd_consent,
	});
	expect(contact.user === null || (contact.user as IDataObject).id === contact.user_id).toBe(true);
	expect('consent' in contact).toBe(true);
});

test('0.1.0’s search_requests is sent as searchRequests: the contact’s search requests come, with no hint', async () => {
	const { output, requests, hints } = await run({
		resource: 'customer',
		operation: 'get',
		customerId: byId(10011),
		options: { include: ['search_requests'], output: 'raw' },
	});
	expect(requests[0].query).toEqual({ include: 'origin,groups,searchRequests' });
	expect((output[0].searchRequests as unknown[]).length).toBeGreaterThan(0);
	expect(hints).toEqual([]);
});

test('Simplified shows rgpd_consent when asked; Update sends the write-only conformity, which no output shows', async () => {
	const { output, requests } = await run({
		resource: 'customer',
		operation: 'update',
		customerId: byId(10012),
		additionalFields: { conformity: 2, firstname: 'Maud' },
	});
	expect(requests[0]).toMatchObject({
		method: 'PATCH',
		route: 'PATCH /customers/{customerId}',
		body: { firstname: 'Maud', conformity: 2 },
	});
	expect((await stored(10012)).conformity).toBe(2);
	expect(JSON.stringify(output)).not.toContain('conformity');
	const simplified = await run({
		resource: 'customer',
		operation: 'get',
		customerId: byId(10012),
		options: { include: ['rgpd'] },
	});
	expect(simplified.output[0]).toMatchObject({ firstname: 'Maud', rgpd_consent: (await stored(10012)).rgpd_consent });
	expect(simplified.output[0].conformity).toBeUndefined();
});

test('Create or Update sends conformity once the contact exists, by update (as production takes it); it is stored, never output', async () => {
	const { output } = await run({
		resource: 'customer',
		operation: 'upsert',
		agencyId: byId(101),
		email: 'gdpr.upsert@example.com',
		lastname: 'Conforme',
		additionalFields: { conformity: 1 },
	});
	const id = (output[0].customers_id ?? output[0].id) as number;
	expect((await stored(id)).conformity).toBe(1);
	// Never a field of the output (the evidence may name it, in words).
	expect(output.filter((record) => 'conformity' in record)).toEqual([]);
});

test('Get Many with consent: the search gives none, so each contact’s consent is read from the contact, with a notice', async () => {
	const email = 'consent.search@example.com';
	const created = await h.api('POST', '/customers', { body: { lastname: 'Consenting', email } });
	const id = created.body.data.customers_id as number;
	await h.api('POST', `/customers/${id}/consent`, { body: { reason: 'Signed form' } });
	const { output, requests, hints } = await run({
		resource: 'customer',
		operation: 'getAll',
		returnAll: true,
		filters: { email },
		options: { include: ['consent'], output: 'raw' },
	});
	expect(requests.map((request) => [request.route, request.query])).toEqual([
		['POST /customers/search', { include: 'origin,groups,consent' }],
		['GET /customers/{customerId}', { include: 'origin,groups,consent' }],
	]);
	expect(output).toEqual([
		expect.objectContaining({ customers_id: id, consent: expect.objectContaining({ reason: 'Signed form' }) }),
	]);
	expect(hints).toEqual([
		expect.stringContaining(
			'Include "consent" is not in the search\'s answer (production\'s gives none): read from each record instead (1 read)',
		),
	]);
});
