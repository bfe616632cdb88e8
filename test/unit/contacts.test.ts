import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { createCustomer } from '../../nodes/AgencyCrm/actions/contact/create';
import { upsertCustomer } from '../../nodes/AgencyCrm/actions/contact/upsert';
import type { ItemRun } from '../../nodes/AgencyCrm/actions/itemRun';
import { WriteOrder } from '../../nodes/AgencyCrm/actions/writeOrder';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { createdAtOf, nationalPhone, phoneOf } from '../../nodes/AgencyCrm/catalogue/contacts';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';

/**
 * Contact → Create and Create or Update (reference use case 1) against scripted answers, as production
 * takes them: the requests on the wire (which searches go out and in which form, a new contact created
 * with its email first and given its phones after, answers without a body read back) and what the
 * item outputs. The decision itself is tested without I/O in contactDecision.test.ts.
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

/** Only the body, the query and the settings are read from the prepared request, so only they are given. */
async function run(operation: 'create' | 'upsert', body: IDataObject, answers: ScriptedAnswer[], settings = {}) {
	const fake = fakeContext({ answers });
	// Output Raw: these records are too small for the Simplified keys, which would output them whole with a hint.
	const prepared = { body, qs: {}, pathParams: {}, settings, output: { mode: 'raw' } } as unknown as Parameters<
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
const upsert = (body: IDataObject, answers: ScriptedAnswer[], settings = {}) => run('upsert', body, answers, settings);

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

test('an item with an email is searched by its email only, by default: the contact with it is updated', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '+33 6 01 02 03 04', firstname: 'Ana' },
		[
			page([whole({ customers_id: 42, email: 'ana@example.com', phone: '06 01 02 03 04' })]),
			status(204, {}, ''),
			ok({ data: whole({ customers_id: 42, email: 'ana@example.com', phone: '06 01 02 03 04', firstname: 'Ana' }) }),
		],
	);
	expect(requests).toEqual([
		searchBy({ email: 'ana@example.com' }),
		{ method: 'PATCH', url: '/customers/42', body: { firstname: 'Ana' } },
		{ method: 'GET', url: '/customers/42', body: undefined },
	]);
	expect(output[0]).toMatchObject({
		customers_id: 42,
		firstname: 'Ana',
		outcome: 'updated',
		matched_by: 'email',
		outcome_evidence: 'found by its email ana@example.com; updated (HTTP 204, then read back)',
	});
});

test('"Email, Then Phones": the email misses, the phone (searched in national form) finds a contact whose name confirms it; its agency stays', async () => {
	const { output, requests } = await upsert(
		{ email: 'ana@example.com', phone: '+33 6 01 02 03 04', lastname: 'Martin', agency_id: 101 },
		[
			noMatch(),
			page([whole({ customers_id: 42, lastname: 'Martin', phone: '06 01 02 03 04', agency_id: 102 })]),
			status(204, {}, ''),
			ok({ data: whole({ customers_id: 42, lastname: 'Martin', email: 'ana@example.com', agency_id: 102 }) }),
		],
		{ matchBy: 'emailThenPhones' },
	);
	expect(requests.slice(0, 3)).toEqual([
		searchBy({ email: 'ana@example.com' }),
		searchBy({ phone: '0601020304' }),
		{ method: 'PATCH', url: '/customers/42', body: { email: 'ana@example.com' } },
	]);
	expect(output[0]).toMatchObject({
		outcome: 'updated',
		matched_by: 'phone',
		fields_not_taken: { agency_id: 'a contact found keeps its own agency' },
	});
});

test('search hits whose email is not the one searched are never updated: the contact is created', async () => {
	const strangers = page([whole({ customers_id: 900, email: 'anna@example.com' })]);
	const body = { email: 'new@example.com', lastname: 'Durand' };
	const { output, requests } = await upsert(body, [strangers, status(201, {}, { data: whole({ id: 1001, ...body }) })]);
	expect(routes(requests)).toEqual(['POST /customers/search', 'POST /customers']);
	expect(output[0]).toMatchObject({ id: 1001, outcome: 'created', matched_by: null });
});

test('nothing found: the contact is created once, with its email first and Check Duplicate on, then given its phones', async () => {
	const body = { email: 'new@example.com', lastname: 'Durand', agency_id: 101, mobile_phone: '0611223344' };
	const { output, requests } = await upsert(body, [
		noMatch(),
		status(201, {}, { data: whole({ id: 77, email: 'new@example.com', lastname: 'Durand' }) }),
		status(204, {}, ''),
		ok({ data: whole({ id: 77, email: 'new@example.com', lastname: 'Durand', mobile_phone: '0611223344' }) }),
	]);
	expect(requests.slice(1)).toEqual([
		{
			method: 'POST',
			url: '/customers',
			body: { email: 'new@example.com', lastname: 'Durand', agency_id: 101, check_duplicate: true },
		},
		{ method: 'PATCH', url: '/customers/77', body: { mobile_phone: '0611223344' } },
		{ method: 'GET', url: '/customers/77', body: undefined },
	]);
	expect(output[0]).toMatchObject({
		id: 77,
		mobile_phone: '0611223344',
		outcome: 'created',
		outcome_evidence:
			'no contact has the email new@example.com; created with its email, then given its phones (HTTP 201)',
	});
	expect(output[0]).not.toHaveProperty('fields_not_taken');
});

test('the create answers without a body: the contact is read back by the id in Location', async () => {
	const body = { email: 'ana@example.com', lastname: 'Martin' };
	const { output, requests, unused } = await upsert(body, [
		noMatch(),
		status(201, { location: 'https://crm.example/api/v2/site/customers/42' }, ''),
		ok({ data: whole({ id: 42, email: 'ana@example.com', lastname: 'Martin' }) }),
	]);
	expect(routes(requests)).toEqual(['POST /customers/search', 'POST /customers', 'GET /customers/42']);
	expect(output[0]).toMatchObject({ id: 42, outcome: 'created' });
	expect(unused).toBe(0);
});

test('a create answered without the contact or its ID: the contact is found by its email, and gets its phones', async () => {
	const body = { email: 'nina@example.com', lastname: 'Petit', phone: '0611000001' };
	const { output, requests } = await upsert(body, [
		noMatch(),
		ok({ success: true }),
		page([whole({ id: 88, email: 'nina@example.com', lastname: 'Petit' })]),
		status(204, {}, ''),
		ok({ data: whole({ id: 88, email: 'nina@example.com', lastname: 'Petit', phone: '0611000001' }) }),
	]);
	expect(routes(requests)).toEqual([
		'POST /customers/search',
		'POST /customers',
		'POST /customers/search',
		'PATCH /customers/88',
		'GET /customers/88',
	]);
	expect(output[0]).toMatchObject({ id: 88, phone: '0611000001', outcome: 'created' });
	expect(JSON.stringify(output)).not.toContain('check_duplicate');
});

test("a refused update of the contact found fails the item with the API's words and outcome failed, for Continue On Fail", async () => {
	const error = await upsert({ email: 'ana@example.com', lastname: 'Martin' }, [
		page([whole({ id: 42, email: 'ana@example.com' })]),
		errorAnswer(422, 'VALIDATION_ERROR', 'The given data was invalid.', {
			details: [{ field: 'lastname', message: 'too long' }],
		}),
	]).catch((thrown: unknown) => thrown as NodeApiError);
	expect((error as NodeApiError).httpCode).toBe('422');
	expect((error as NodeApiError).context.output).toEqual({
		outcome: 'failed',
		outcome_evidence: expect.stringMatching(
			/^The API refused the update of contact 42 \(found by its email ana@example.com\): VALIDATION_ERROR/,
		),
	});
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
		expect(output[0]).toMatchObject({
			id: 41,
			outcome: 'existing',
			outcome_evidence: 'HTTP 409 to Check Duplicate; found by its email new@example.com',
		});
	});

	test('Check Duplicate answered 409, no contact with the email: the one with its phones, a typo in its first name taken', async () => {
		const lead = { email: 'chris@example.com', firstname: 'Christoph', lastname: 'Martin', phone: '01 02 03 04 05' };
		const { output, requests } = await run(
			'create',
			{ ...lead, mobile_phone: '+33 6 12 34 56 78', check_duplicate: true },
			[
				conflict(),
				noMatch(),
				noMatch(),
				page([{ id: 12, firstname: 'Christophe', lastname: 'Martin', mobile_phone: '0612345678' }]),
			],
		);
		expect(routes(requests)).toEqual([
			'POST /customers',
			'POST /customers/search',
			'POST /customers/search',
			'POST /customers/search',
		]);
		expect(output[0]).toMatchObject({
			id: 12,
			outcome: 'existing',
			outcome_evidence:
				"HTTP 409 to Check Duplicate; found by its phone 0102030405 or 0612345678; its first name Christophe is one typo away from the item's Christoph",
		});
	});
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
	expect((error as NodeApiError).description).toContain(
		'<br>Contact 500 has the phone but another email (reception@agency.example, not paul@example.com) and another last name (Accueil, not Roux): a shared phone (a switchboard, a portal relay, a partner) does not make it the same person',
	);
});
