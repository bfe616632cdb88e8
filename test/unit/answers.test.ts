import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { responseData } from '../../nodes/shared/transport';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 26, point 8: answers the spec allows, each output whole. A record is output as the API sent
 * it (Raw); a write the API accepted is read back when its answer does not carry the record whole;
 * an output never carries a write-only field.
 */
async function run(parameters: Record<string, unknown>, answers: ScriptedAnswer[]) {
	const fake = fakeContext({ parameters, answers });
	const [items] = await route.call(fake.execute);
	return {
		output: items.map((item) => item.json),
		routes: fake.requests().map(({ method, url }) => `${String(method)} ${url}`),
		hints: fake.hints.map((hint) => hint.message),
	};
}

describe('Output Raw is the record exactly as the API sent it', () => {
	const record = { id: 5, customers_id: 5, lastname: 'Martin', data: 'a field of the record', novel: { a: 1 } };
	const getRaw = { resource: 'customer', operation: 'get', customerId: byId(5), output: 'raw' };

	test.each([
		['in the spec envelope', { data: record, meta: {} }],
		['bare, with a field named data', record],
	])('%s', async (_shape, body) => {
		expect((await run(getRaw, [ok(body)])).output).toEqual([record]);
	});

	test('an envelope is told by its keys only', () => {
		expect(responseData(ok({ data: [1], links: {}, meta: {} }))).toEqual([1]);
		expect(responseData(ok({ data: 'x', request_id: 'r' }))).toBe('x');
		expect(responseData(ok({ data: 'x', title: 'y' }))).toEqual({ data: 'x', title: 'y' });
	});

	// Issue 35, point 7: the spec leaves answer payloads open; 0.1.0 unwrapped these.
	test('a record wrapped in data beside keys the node does not know is unwrapped; the unknown keys are left out', async () => {
		const wrapped = { data: record, request_id: 'req-1', api_version: '1.5.0', warnings: [] };
		expect((await run(getRaw, [ok(wrapped)])).output).toEqual([record]);
		expect(responseData(ok({ data: [{ id: 1 }], meta: {}, total_pages: 1 }))).toEqual([{ id: 1 }]);
		// Beside an identifier of its own, `data` is a field of the record: the record, whole.
		const withDataField = { id: 9, customers_id: 9, data: { source: 'import' } };
		expect(responseData(ok(withDataField))).toEqual(withDataField);
		expect(responseData(ok({ userId: 4, data: [1] }))).toEqual({ userId: 4, data: [1] });
	});

	// Issue 39, point 3: an envelope key that names an identifier (a request's) made the envelope pass
	// for the record: Raw gave `{data: {…}, requestId}`, the record's fields (a field the spec does not
	// name among them) missing from the output's top level.
	test.each([
		['requestId', { data: record, requestId: 'req-1', api_version: '1.5.0' }],
		['trace_id and site_id', { data: record, trace_id: 't-1', site_id: 1, warnings: ['slow'] }],
		['a list in it', { data: [record], meta: { has_more: false }, requestId: 'req-1' }],
	])(
		'a record in data beside an envelope key naming an id (%s) is the record, every field of it',
		async (_keys, body) => {
			expect((await run(getRaw, [ok(body)])).output).toEqual([record]);
		},
	);
});

describe('a write accepted is output whole', () => {
	const lead = {
		resource: 'lead',
		operation: 'createBuyer',
		agencyId: byId(101),
		additionalFields: { email: 'ana@example.com' },
	};

	test('a lead answered 201 with a Location and no body: its contact, read back', async () => {
		const contact = { id: 42, customers_id: 42, email: 'ana@example.com' };
		const { output, routes } = await run(lead, [
			status(201, { location: 'https://crm.example/api/v2/site/customers/42' }, ''),
			ok({ data: contact }),
		]);
		expect(routes).toEqual(['POST /leads/buyers', 'GET /customers/42']);
		expect(output).toEqual([contact]);
	});

	test("a Location that names the lead, not a contact, is not read as the contact's id", async () => {
		const { output, routes, hints } = await run(lead, [
			status(201, { location: 'https://crm.example/api/v2/site/leads/buyers/7' }, ''),
		]);
		expect(routes).toEqual(['POST /leads/buyers']);
		expect(output[0]).toMatchObject({ agency_id: 101, customer: { email: 'ana@example.com' } });
		expect(hints).toEqual([expect.stringContaining('without the record or its ID')]);
	});

	test.each([
		['the changed fields only', { firstname: 'Ana' }],
		['its id and the changed field only', { id: 42, firstname: 'Ana' }],
	])('an update answered with %s: the whole record, read back by its path', async (_answer, answered) => {
		const whole = {
			id: 42,
			customers_id: 42,
			firstname: 'Ana',
			lastname: 'Martin',
			email: 'ana@example.com',
			type: 'buyer',
			agency_id: 101,
		};
		const update = {
			resource: 'customer',
			operation: 'update',
			customerId: byId(42),
			output: 'raw',
			additionalFields: { firstname: 'Ana' },
		};
		const { output, routes } = await run(update, [ok({ data: answered }), ok({ data: whole })]);
		expect(routes).toEqual(['PATCH /customers/42', 'GET /customers/42']);
		expect(output).toEqual([whole]);
	});

	test('an empty answer whose read-back fails: what was sent with the id, never the password', async () => {
		const update = {
			resource: 'user',
			operation: 'update',
			userId: byId(1005),
			output: 'raw',
			additionalFields: { lastname: 'Roux', password: 'N3w-Secret-Passw0rd' },
		};
		const { output, hints } = await run(update, [
			status(204, {}, ''),
			errorAnswer(503, 'UNAVAILABLE', 'Try later', { requestId: 'r' }),
			...Array.from({ length: 5 }, () => status(503, { 'retry-after': '0' }, {})),
		]);
		expect(output).toEqual([{ lastname: 'Roux', user_id: 1005 }]);
		expect(JSON.stringify(output)).not.toContain('N3w-Secret');
		expect(hints).toEqual([expect.stringContaining('reading it back failed')]);
	});
});

describe('offset pages never give a record twice', () => {
	test('a listing added at the head between two pages shifts the next page: the repeat is dropped, with a hint', async () => {
		const page = (ids: number[], more: boolean) =>
			ok({ data: ids.map((id) => ({ product_id: id, id })), meta: { has_more: more } });
		const { output, hints } = await run(
			{
				resource: 'product',
				operation: 'getAll',
				returnAll: true,
				output: 'raw',
				filters: {},
				options: { paginationMode: 'offset', perPage: 3 },
			},
			// Listing 9 arrives after the first page: 3 moves to the second page.
			[page([1, 2, 3], true), page([3, 4, 5], true), page([6], false)],
		);
		expect(output.map((record: IDataObject) => record.id)).toEqual([1, 2, 3, 4, 5, 6]);
		expect(hints).toEqual([expect.stringContaining('1 record given again (ID 3) was output once')]);
	});
});
