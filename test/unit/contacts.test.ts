import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { createCustomer, upsertCustomer } from '../../nodes/AgencyCrm/actions/contacts';
import type { ItemRun } from '../../nodes/AgencyCrm/actions/itemRun';
import { WriteOrder } from '../../nodes/AgencyCrm/actions/writeOrder';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { createdAtOf, nationalPhone, phoneOf } from '../../nodes/AgencyCrm/catalogue/contacts';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';

/**
 * Customer Create and Create or Update (reference use case 1) against scripted answers, as production
 * takes them (issue 26, point 5): which searches go out and in which form, which hits count as the
 * contact, how a new contact is created (email first, phones after), and the evidence behind
 * `outcome`.
 */
/** A contact as the API answers it whole: most of the keys Simplified keeps (a smaller answer is read back). */
const whole = (fields: IDataObject): IDataObject => ({
	agency_id: 101,
	user_id: null,
	firstname: null,
	lastname: null,
	email: null,
	type: 'buyer',
	...fields,
});
const page = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false, next_cursor: null } });
const noMatch = () => page([]);
const conflict = () => errorAnswer(409, 'DUPLICATE_CUSTOMER', 'Customer 42 already has this email.');

/** Only the body and the query are read from the prepared request, so only they are given. */
async function run(operation: 'create' | 'upsert', body: IDataObject, answers: ScriptedAnswer[]) {
	const fake = fakeContext({ answers });
	// Output Raw: these records are too small for the Simplified keys, which would output them whole with a hint.
	const prepared = { body, qs: {}, pathParams: {}, output: { mode: 'raw' } } as unknown as Parameters<
		typeof upsertCustomer
	>[1];
	const item: ItemRun = { index: 0, turn: new WriteOrder().reserve(0), notices: [] };
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
	body: { ...filter, per_page: 100 },
});
const routes = (requests: Array<{ method?: string; url: string }>) =>
	requests.map(({ method, url }) => `${String(method)} ${url}`);

describe('phones as production compares and searches them', () => {
	test.each([
		['+33 6 12 34 56 78', '0612345678'],
		['+33612345678', '0612345678'],
		['0033 6 12 34 56 78', '0612345678'],
		['06.12.34.56.78', '0612345678'],
		['+33 (0)6 12 34 56 78', '0612345678'],
		['+330612345678', '0612345678'],
		['33612345678', '0612345678'],
		['+44 20 7946 0958', '+442079460958'],
	])('%s is searched as %s', (typed, searched) => {
		expect(nationalPhone(typed)).toBe(searched);
	});

	test("a created_at written without its zone is the API's UTC, not the n8n server's zone", () => {
		expect(createdAtOf({ created_at: '2026-11-26 20:16:49' })).toBe(Date.UTC(2026, 10, 26, 20, 16, 49));
		expect(createdAtOf({ createdAt: '2026-11-26T20:16:49+02:00' })).toBe(Date.UTC(2026, 10, 26, 18, 16, 49));
	});

	test('numbers compare by their last 9 digits', () => {
		expect(phoneOf('+33 6 12 34 56 78')).toBe(phoneOf('06 12 34 56 78'));
		expect(phoneOf('0612345678')).not.toBe(phoneOf('0612345679'));
	});
});

test('email misses, phone hits (searched in national form): the contact found by phone is updated (not its agency)', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '+33 6 01 02 03 04', firstname: 'Ana', agency_id: 101 },
		[
			noMatch(),
			page([{ customers_id: 42, lastname: 'Martin', phone: '06 01 02 03 04' }]),
			ok({ data: whole({ customers_id: 42, firstname: 'Ana' }) }),
		],
	);
	expect(requests).toEqual([
		searchBy({ email: 'ana@example.com' }),
		searchBy({ phone: '0601020304' }),
		{
			method: 'PATCH',
			url: '/customers/42',
			body: { email: 'ana@example.com', phone: '+33 6 01 02 03 04', firstname: 'Ana' },
		},
	]);
	expect(output).toEqual([
		whole({
			customers_id: 42,
			firstname: 'Ana',
			outcome: 'updated',
			outcome_evidence: 'found by its phone 0601020304',
		}),
	]);
});

test('email hits (in another case, the most recent of two exact matches): no phone search is sent', async () => {
	const { requests } = await upsert({ email: 'Ana@Example.com', phone: '0601020304' }, [
		page([
			{ id: 41, email: 'ana@example.com', created_at: '2025-01-01T10:00:00+00:00' },
			{ id: 42, email: 'ANA@example.com', created_at: '2026-01-01T10:00:00+00:00' },
			{ id: 43, email: 'diana@example.com', created_at: '2026-06-01T10:00:00+00:00' },
		]),
		ok({ data: whole({ id: 42 }) }),
	]);
	expect(routes(requests)).toEqual(['POST /customers/search', 'PATCH /customers/42']);
});

test('a search hit whose email and phones are not those searched is never updated: the next key is tried, then a create', async () => {
	// Production's search is not exact: it answers with contacts that merely resemble the value.
	const strangers = page([
		{ customers_id: 900, email: 'anna@example.com', phone: '0499999999' },
		{ customers_id: 899, email: null, phones: [{ type: 'work', number: '0488888888' }] },
	]);
	const body = { email: 'new@example.com', lastname: 'Durand' };
	const { output, requests, notices } = await upsert(body, [
		strangers,
		status(201, {}, { data: { id: 1001, ...body } }),
	]);
	expect(routes(requests)).toEqual(['POST /customers/search', 'POST /customers']);
	expect(output[0]).toMatchObject({ id: 1001, outcome: 'created' });
	expect(notices).toEqual([expect.stringContaining('contacts whose email and phones are not those searched')]);
});

describe('a shared phone never attaches a lead to someone else', () => {
	test('the contact with that phone but another email or name is left alone; the lead is created with its email, then gets the phone', async () => {
		const switchboard = { id: 500, email: 'reception@agency.example', lastname: 'Accueil', phone: '0478000000' };
		const body = { email: 'paul@example.com', lastname: 'Roux', phone: '+33 4 78 00 00 00', agency_id: 101 };
		const { output, requests, notices } = await upsert(body, [
			noMatch(),
			page([switchboard]),
			status(201, {}, { data: { id: 1002, email: 'paul@example.com', lastname: 'Roux', phone: null } }),
			ok({ data: whole({ id: 1002, email: 'paul@example.com', lastname: 'Roux', phone: '0478000000' }) }),
		]);
		expect(requests.slice(2)).toEqual([
			{
				method: 'POST',
				url: '/customers',
				body: { email: 'paul@example.com', lastname: 'Roux', agency_id: 101, check_duplicate: true },
			},
			{ method: 'PATCH', url: '/customers/1002', body: { phone: '+33 4 78 00 00 00' } },
		]);
		expect(output[0]).toMatchObject({ id: 1002, phone: '0478000000', outcome: 'created' });
		expect(notices).toEqual([expect.stringContaining('Contact 500 has the phone 0478000000 but another email')]);
	});

	test('a partner with the same phone and last name but another first name is someone else too', async () => {
		const partner = { id: 501, firstname: 'Anne', lastname: 'Martin', mobile_phone: '0611223344' };
		const body = { firstname: 'Paul', lastname: 'Martin', mobile_phone: '0611223344' };
		const { requests } = await upsert(body, [
			page([partner]),
			status(201, {}, { data: { id: 1003, firstname: 'Paul', lastname: 'Martin' } }),
			ok({ data: whole({ id: 1003, firstname: 'Paul', lastname: 'Martin', mobile_phone: '0611223344' }) }),
		]);
		expect(routes(requests)).toEqual(['POST /customers/search', 'POST /customers', 'PATCH /customers/1003']);
	});

	test('the same person found by phone (nothing contradicts) is the match', async () => {
		const { requests } = await upsert({ lastname: 'MARTIN', mobile_phone: '06 11 22 33 44' }, [
			page([{ id: 7, lastname: 'Martin', firstname: 'Anne', mobilePhone: '+33611223344' }]),
			ok({ data: whole({ id: 7 }) }),
		]);
		expect(routes(requests)).toEqual(['POST /customers/search', 'PATCH /customers/7']);
	});
});

test('nothing found: the contact is created once, with Check Duplicate, and its outcome says why it is new', async () => {
	const body = { email: 'new@example.com', lastname: 'Durand', agency_id: 101 };
	const { output, requests } = await upsert(body, [noMatch(), status(201, {}, { data: { id: 77, ...body } })]);
	expect(requests[1]).toEqual({ method: 'POST', url: '/customers', body: { ...body, check_duplicate: true } });
	expect(requests).toHaveLength(2);
	expect(output).toEqual([
		{
			id: 77,
			...body,
			outcome: 'created',
			outcome_evidence: 'created with Check Duplicate on, which the API refuses with 409 for a known email or phone',
		},
	]);
});

test('the create answers 409 (a contact the search missed): it is found by its email and updated', async () => {
	const body = { email: 'ana@example.com', firstname: 'Ana', agency_id: 101 };
	const { output, requests } = await upsert(body, [
		noMatch(),
		conflict(),
		page([{ id: 42, email: 'ana@example.com' }]),
		ok({ data: whole({ id: 42, firstname: 'Ana' }) }),
	]);
	expect(routes(requests)).toEqual([
		'POST /customers/search',
		'POST /customers',
		'POST /customers/search',
		'PATCH /customers/42',
	]);
	expect(requests[3].body).toEqual({ email: 'ana@example.com', firstname: 'Ana' });
	expect(output[0]).toMatchObject({ outcome: 'updated', outcome_evidence: expect.stringContaining('HTTP 409') });
});

test('the create and the update answer without a body: the contact is read back by the id in Location, then by its path', async () => {
	const body = { email: 'ana@example.com', lastname: 'Martin', phone: '0611223344' };
	const { output, requests, unused } = await upsert(body, [
		noMatch(),
		noMatch(),
		status(201, { location: 'https://crm.example/api/v2/site/customers/42' }, ''),
		ok({ data: { id: 42, email: 'ana@example.com', lastname: 'Martin' } }),
		status(204, {}, ''),
		ok({ data: { id: 42, email: 'ana@example.com', lastname: 'Martin', phone: '0611223344' } }),
	]);
	expect(routes(requests)).toEqual([
		'POST /customers/search',
		'POST /customers/search',
		'POST /customers',
		'GET /customers/42',
		'PATCH /customers/42',
		'GET /customers/42',
	]);
	expect(output[0]).toMatchObject({ id: 42, phone: '0611223344', outcome: 'created' });
	expect(unused).toBe(0);
});

describe('Customer Create says whether the contact was created or already existed, by the answer', () => {
	const body = { email: 'new@example.com', lastname: 'Durand' };

	test('201 Created: created, no hint', async () => {
		const { output, notices } = await run('create', body, [status(201, {}, { data: { id: 77, ...body } })]);
		expect(output).toEqual([{ id: 77, ...body, outcome: 'created', outcome_evidence: 'HTTP 201 Created' }]);
		expect(notices).toEqual([]);
	});

	test('an email-only create of an existing contact answered 201: its created_at is older, so existing', async () => {
		const old = { id: 42, email: 'new@example.com', lastname: 'Martin', created_at: '2025-03-01T09:00:00+00:00' };
		const { output, notices } = await run('create', { email: 'new@example.com' }, [status(201, {}, { data: old })]);
		expect(output[0]).toMatchObject({ outcome: 'existing', outcome_evidence: expect.stringContaining('created_at') });
		expect(notices).toEqual([expect.stringContaining("this item's fields were not applied")]);
	});

	test('a new contact whose phone the API stores as +33…: created (stored values do not decide)', async () => {
		const stored = { id: 78, lastname: 'Durand', phone: '+33611223344', created_at: new Date().toISOString() };
		const { output } = await run('create', { lastname: 'Durand', phone: '0611223344' }, [
			status(201, {}, { data: stored }),
		]);
		expect(output[0]).toMatchObject({ outcome: 'created' });
	});

	test('the answer flags the duplicate: existing', async () => {
		const { output } = await run('create', body, [ok({ data: { id: 42, ...body }, meta: { duplicate: true } })]);
		expect(output[0]).toMatchObject({
			outcome: 'existing',
			outcome_evidence: expect.stringContaining('meta.duplicate'),
		});
	});

	test('Check Duplicate answered 409: existing, the most recent contact with that exact email, never an error', async () => {
		const { output, requests } = await run('create', { ...body, check_duplicate: true }, [
			conflict(),
			page([
				{ id: 40, email: 'new@example.com', created_at: '2024-01-01T00:00:00+00:00' },
				{ id: 41, email: 'new@example.com', created_at: '2025-01-01T00:00:00+00:00' },
			]),
		]);
		expect(routes(requests)).toEqual(['POST /customers', 'POST /customers/search']);
		expect(output[0]).toMatchObject({ id: 41, outcome: 'existing', outcome_evidence: expect.stringContaining('409') });
	});
});

test('a create answered without the contact or its ID: the contact is found by what was created, and gets its phones', async () => {
	const body = { email: 'nina@example.com', lastname: 'Petit', phone: '0611000001' };
	const { output, requests, notices } = await upsert(body, [
		noMatch(),
		noMatch(),
		ok({ success: true }),
		page([whole({ id: 88, email: 'nina@example.com', lastname: 'Petit' })]),
		ok({ data: whole({ id: 88, email: 'nina@example.com', lastname: 'Petit', phone: '0611000001' }) }),
	]);
	expect(routes(requests)).toEqual([
		'POST /customers/search',
		'POST /customers/search',
		'POST /customers',
		'POST /customers/search',
		'PATCH /customers/88',
	]);
	expect(output[0]).toMatchObject({ id: 88, phone: '0611000001', outcome: 'created' });
	expect(JSON.stringify(output)).not.toContain('check_duplicate');
	expect(notices).toEqual([expect.stringContaining('without the record or its ID')]);
});

test('Check Duplicate answered 409 for a phone whose contact is someone else: the 409 stands, saying which contact and why', async () => {
	const fake = fakeContext({
		answers: [
			conflict(),
			noMatch(),
			page([{ id: 500, lastname: 'Accueil', email: 'reception@agency.example', phone: '0478000000' }]),
		],
	});
	const prepared = {
		body: { email: 'paul@example.com', lastname: 'Roux', phone: '0478000000', check_duplicate: true },
		qs: {},
		pathParams: {},
		output: { mode: 'raw' },
	} as unknown as Parameters<typeof createCustomer>[1];
	const item: ItemRun = { index: 0, turn: new WriteOrder().reserve(0), notices: [] };
	const error = await createCustomer
		.call(fake.execute, findEndpoint('customer', 'create')!, prepared, item)
		.catch((thrown: unknown) => thrown as NodeApiError);
	expect((error as NodeApiError).message).toContain('(HTTP 409)');
	expect((error as NodeApiError).description).toContain('Contact 500 has the phone 0478000000 but another email');
});
