import type { IDataObject } from 'n8n-workflow';

import { upsertCustomer } from '../../nodes/AgencyCrm/actions/upsertCustomer';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { fakeContext, ok, status } from '../support/fakeN8n';

/**
 * Customer "Create or Update" (reference use case 1) against scripted answers: which searches go
 * out, in which order, and whether the contact found is updated or a new one created.
 */
const page = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false, next_cursor: null } });
const noMatch = () => page([]);

/** Only the body and the query are read from the prepared request, so only they are given. */
async function upsert(body: IDataObject, answers: ScriptedAnswer[]) {
	const fake = fakeContext({ answers });
	const prepared = { body, qs: {} } as unknown as Parameters<typeof upsertCustomer>[1];
	const output = await upsertCustomer.call(fake.execute, findEndpoint('customer', 'upsert')!, prepared, 0);
	return {
		output: output.map((item) => item.json),
		requests: fake.requests().map(({ method, url, body }) => ({ method, url, body })),
	};
}

const searchBy = (filter: IDataObject) => ({
	method: 'POST',
	url: '/customers/search',
	body: { ...filter, per_page: 1 },
});

test('email misses, phone hits: the contact found by phone is updated with the fields given (not its agency)', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '0601020304', firstname: 'Ana', agency_id: 101 },
		[noMatch(), page([{ customers_id: 42, lastname: 'Martin' }]), ok({ data: { customers_id: 42, firstname: 'Ana' } })],
	);
	expect(requests).toEqual([
		searchBy({ email: 'ana@example.com' }),
		searchBy({ phone: '0601020304' }),
		{
			method: 'PATCH',
			url: '/customers/42',
			body: { email: 'ana@example.com', phone: '0601020304', firstname: 'Ana' },
		},
	]);
	expect(output).toEqual([{ customers_id: 42, firstname: 'Ana', upsert: 'updated' }]);
});

test('email hits: no phone search is sent', async () => {
	const { requests } = await upsert({ email: 'ana@example.com', phone: '0601020304' }, [
		page([{ customers_id: 42 }]),
		ok({ data: { customers_id: 42 } }),
	]);
	expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
		'POST /customers/search',
		'PATCH /customers/42',
	]);
});

test('email and phone miss: the mobile number is searched as a phone, and its match updated', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '0140000000', mobile_phone: '0611223344', lastname: 'Martin' },
		[noMatch(), noMatch(), page([{ customers_id: 7 }]), ok({ data: { customers_id: 7 } })],
	);
	expect(requests.slice(0, 3)).toEqual([
		searchBy({ email: 'ana@example.com' }),
		searchBy({ phone: '0140000000' }),
		searchBy({ phone: '0611223344' }),
	]);
	expect(requests[3]).toMatchObject({ method: 'PATCH', url: '/customers/7' });
	expect(output[0].upsert).toBe('updated');
});

test('only a mobile number: one search by phone with it', async () => {
	const { requests } = await upsert({ mobile_phone: '0611223344' }, [
		noMatch(),
		status(201, {}, { data: { customers_id: 9 } }),
	]);
	expect(requests[0]).toEqual(searchBy({ phone: '0611223344' }));
	expect(requests[1]).toEqual({ method: 'POST', url: '/customers', body: { mobile_phone: '0611223344' } });
});

test('nothing found: the contact is created once, with every field given', async () => {
	const body = { email: 'new@example.com', lastname: 'Durand', agency_id: 101 };
	const { output, requests } = await upsert(body, [
		noMatch(),
		status(201, {}, { data: { customers_id: 77, ...body } }),
	]);
	expect(requests[1]).toEqual({ method: 'POST', url: '/customers', body });
	expect(requests).toHaveLength(2);
	expect(output).toEqual([{ customers_id: 77, ...body, upsert: 'created' }]);
});

test('the API reports the create as a duplicate: the contact it returned is updated instead', async () => {
	const body = { email: 'ana@example.com', phone: '0601020304', firstname: 'Ana', agency_id: 101 };
	const { output, requests } = await upsert(body, [
		noMatch(),
		noMatch(),
		ok({ data: { customers_id: 42, firstname: 'Old' }, meta: { duplicate: true } }),
		ok({ data: { customers_id: 42, firstname: 'Ana' } }),
	]);
	expect(requests.slice(2)).toEqual([
		{ method: 'POST', url: '/customers', body },
		{
			method: 'PATCH',
			url: '/customers/42',
			body: { email: 'ana@example.com', phone: '0601020304', firstname: 'Ana' },
		},
	]);
	expect(output).toEqual([{ customers_id: 42, firstname: 'Ana', upsert: 'updated' }]);
});
