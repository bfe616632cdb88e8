import type { IDataObject } from 'n8n-workflow';

import { createCustomer, existedBefore, upsertCustomer } from '../../nodes/AgencyCrm/actions/contacts';
import type { ItemRun } from '../../nodes/AgencyCrm/actions/itemRun';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { fakeContext, ok, status } from '../support/fakeN8n';

/**
 * Customer Create and Create or Update (reference use case 1) against scripted answers: which
 * searches go out, which search hits count as the contact, and how a create answered with an
 * existing contact is told apart (issue 17, point 1).
 */
const page = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false, next_cursor: null } });
const noMatch = () => page([]);

/** Only the body and the query are read from the prepared request, so only they are given. */
async function run(operation: 'create' | 'upsert', body: IDataObject, answers: ScriptedAnswer[]) {
	// Output Raw: these records are too small for the Simplified keys, which would output them whole with a hint.
	const fake = fakeContext({ answers, parameters: { output: 'raw' } });
	const prepared = { body, qs: {}, pathParams: {} } as unknown as Parameters<typeof upsertCustomer>[1];
	const item: ItemRun = { index: 0, notices: [] };
	const operate = operation === 'create' ? createCustomer : upsertCustomer;
	const output = await operate.call(fake.execute, findEndpoint('customer', operation)!, prepared, item);
	return {
		output: output.map((entry) => entry.json),
		requests: fake.requests().map(({ method, url, body }) => ({ method, url, body })),
		notices: item.notices,
		unused: fake.unusedAnswers(),
	};
}
const upsert = (body: IDataObject, answers: ScriptedAnswer[]) => run('upsert', body, answers);

const searchBy = (filter: IDataObject) => ({
	method: 'POST',
	url: '/customers/search',
	body: { ...filter, per_page: 10 },
});

test('email misses, phone hits: the contact found by phone is updated with the fields given (not its agency)', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '0601020304', firstname: 'Ana', agency_id: 101 },
		[
			noMatch(),
			page([{ customers_id: 42, lastname: 'Martin', phone: '06 01 02 03 04' }]),
			ok({ data: { customers_id: 42, firstname: 'Ana' } }),
		],
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
	expect(output).toEqual([{ customers_id: 42, firstname: 'Ana', outcome: 'updated' }]);
});

test('email hits (in another case): no phone search is sent', async () => {
	const { requests } = await upsert({ email: 'Ana@Example.com', phone: '0601020304' }, [
		page([{ customers_id: 42, email: 'ana@example.com' }]),
		ok({ data: { customers_id: 42 } }),
	]);
	expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
		'POST /customers/search',
		'PATCH /customers/42',
	]);
});

test('a search hit whose email and phones are not those searched is never updated: the next key is tried, then a create', async () => {
	// An API whose filter is named otherwise answers every search with its newest contacts.
	const strangers = page([
		{ customers_id: 900, email: 'someone@example.com', phone: '0499999999' },
		{ customers_id: 899, email: null, phones: [{ type: 'work', number: '0488888888' }] },
	]);
	const body = { email: 'new@example.com', phone: '0611223344', lastname: 'Durand' };
	const { output, requests, notices } = await upsert(body, [
		strangers,
		strangers,
		status(201, {}, { data: { customers_id: 1001, ...body } }),
	]);
	expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
		'POST /customers/search',
		'POST /customers/search',
		'POST /customers',
	]);
	expect(output).toEqual([{ customers_id: 1001, ...body, outcome: 'created' }]);
	expect(notices).toEqual([expect.stringContaining('contacts whose email and phones are not those searched')]);
});

test('the right contact further down the page is the match', async () => {
	const { requests } = await upsert({ email: 'ana@example.com' }, [
		page([
			{ customers_id: 900, email: 'other@example.com' },
			{ customers_id: 42, email: 'ANA@example.com' },
		]),
		ok({ data: { customers_id: 42 } }),
	]);
	expect(requests[1]).toMatchObject({ method: 'PATCH', url: '/customers/42' });
});

test('email and phone miss: the mobile number is searched as a phone, and its match updated', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '0140000000', mobile_phone: '0611223344', lastname: 'Martin' },
		[noMatch(), noMatch(), page([{ customers_id: 7, mobile_phone: '0611223344' }]), ok({ data: { customers_id: 7 } })],
	);
	expect(requests.slice(0, 3)).toEqual([
		searchBy({ email: 'ana@example.com' }),
		searchBy({ phone: '0140000000' }),
		searchBy({ phone: '0611223344' }),
	]);
	expect(requests[3]).toMatchObject({ method: 'PATCH', url: '/customers/7' });
	expect(output[0].outcome).toBe('updated');
});

test('nothing found: the contact is created once, with every field given', async () => {
	const body = { email: 'new@example.com', lastname: 'Durand', agency_id: 101 };
	const { output, requests } = await upsert(body, [
		noMatch(),
		status(201, {}, { data: { customers_id: 77, ...body } }),
	]);
	expect(requests[1]).toEqual({ method: 'POST', url: '/customers', body });
	expect(requests).toHaveLength(2);
	expect(output).toEqual([{ customers_id: 77, ...body, outcome: 'created' }]);
});

test('the create answers with a contact that existed (no flag, 201): its fields are applied with an update', async () => {
	const body = { email: 'ana@example.com', phone: '0601020304', firstname: 'Ana', agency_id: 101 };
	const { output, requests } = await upsert(body, [
		noMatch(),
		noMatch(),
		status(201, {}, { data: { customers_id: 42, email: 'ana@example.com', firstname: 'Old', agency_id: 101 } }),
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
	expect(output).toEqual([{ customers_id: 42, firstname: 'Ana', outcome: 'updated' }]);
});

test('the create and the update answer without a body: the contact is read back by the id in Location, then by its path', async () => {
	const body = { email: 'ana@example.com', lastname: 'Martin' };
	const { output, requests, unused } = await upsert(body, [
		noMatch(),
		status(201, { location: 'https://crm.example/api/v2/site/customers/42' }, ''),
		ok({ data: { customers_id: 42, email: 'ana@example.com', lastname: 'Old' } }),
		status(204, {}, ''),
		ok({ data: { customers_id: 42, email: 'ana@example.com', lastname: 'Martin' } }),
	]);
	expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
		'POST /customers/search',
		'POST /customers',
		'GET /customers/42',
		'PATCH /customers/42',
		'GET /customers/42',
	]);
	expect(output).toEqual([{ customers_id: 42, email: 'ana@example.com', lastname: 'Martin', outcome: 'updated' }]);
	expect(unused).toBe(0);
});

describe('Customer Create says whether the contact was created or already existed', () => {
	test('a new contact: created, no hint', async () => {
		const body = { email: 'new@example.com', lastname: 'Durand' };
		const { output, notices } = await run('create', body, [status(201, {}, { data: { customers_id: 77, ...body } })]);
		expect(output).toEqual([{ customers_id: 77, ...body, outcome: 'created' }]);
		expect(notices).toEqual([]);
	});

	test('an existing contact returned unchanged: existing, and a hint that the fields were not applied', async () => {
		const { output, requests, notices } = await run('create', { email: 'ana@example.com', lastname: 'Durand' }, [
			status(201, {}, { data: { customers_id: 42, email: 'ana@example.com', lastname: 'Martin' } }),
		]);
		expect(requests).toHaveLength(1);
		expect(output).toEqual([{ customers_id: 42, email: 'ana@example.com', lastname: 'Martin', outcome: 'existing' }]);
		expect(notices).toEqual([expect.stringContaining("this item's fields were not applied")]);
	});
});

describe('existedBefore: a field sent that comes back otherwise', () => {
	test.each([
		['same values', { email: 'a@b.co', lastname: 'X' }, { email: 'A@B.co', lastname: 'X', firstname: 'Y' }, false],
		['another last name', { email: 'a@b.co', lastname: 'X' }, { email: 'a@b.co', lastname: 'Z' }, true],
		['a phone written otherwise', { phone: '06 11 22 33 44' }, { phone: '0611223344' }, false],
		['another agency', { agency_id: 101, email: 'a@b.co' }, { agency_id: 102, email: 'a@b.co' }, true],
		['a key the answer lacks', { check_duplicate: false, email: 'a@b.co' }, { email: 'a@b.co' }, false],
		['lists left to the API', { phones: [{ number: '1' }] }, { phones: [] }, false],
	])('%s', (_, sent, record, expected) => {
		expect(existedBefore(sent as IDataObject, record as IDataObject)).toBe(expected);
	});
});
