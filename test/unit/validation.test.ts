import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildWireRequest } from '../../nodes/AgencyCrm/actions/buildRequest';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { RuleViolation } from '../../nodes/AgencyCrm/catalogue/rules';

/** buildWireRequest with parameters from a plain object, in a workflow time zone of Paris. */
async function build(resource: string, operation: string, parameters: IDataObject) {
	const context = {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getTimezone: () => 'Europe/Paris',
	} as unknown as IExecuteFunctions;
	return await buildWireRequest(context, findEndpoint(resource, operation)!, 0);
}

async function violations(resource: string, operation: string, parameters: IDataObject) {
	const error = await build(resource, operation, parameters).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(RuleViolation);
	return (error as RuleViolation).violations;
}

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

test('a date picked without a zone is in the workflow time zone, sent as UTC', async () => {
	const wire = await build('action', 'createForCustomer', {
		customerId: rl('10003'),
		actionTypeId: 1,
		additionalFields: { date: '2026-07-01T09:30:00' },
	});
	expect(wire.body).toEqual({ action_type_id: 1, date: '2026-07-01T07:30:00Z' });
});

test('ids are digits only: 1e3, 0x10 or text are refused, naming the field', async () => {
	for (const value of ['1e3', '0x10', 'abc']) {
		expect(await violations('customer', 'get', { customerId: rl(value), options: {} })).toEqual([
			{ field: '"Customer" (customers_id)', message: `must be a whole-number ID (got "${value}")` },
		]);
	}
});

test('a rule holds for a value given in the extra JSON too (password on user update)', async () => {
	expect(
		await violations('user', 'update', {
			userId: rl('1004'),
			additionalFields: { extraBodyJson: '{"password":"short"}' },
		}),
	).toEqual([
		{
			field: '"Extra Body Fields (JSON)" (password)',
			message: expect.stringMatching(/^must be 12 to 40 characters with an uppercase letter/),
		},
	]);
});

test('invalid extra JSON is reported by position, without echoing the text', async () => {
	const [violation] = await violations('user', 'update', {
		userId: rl('1004'),
		additionalFields: { extraBodyJson: '{"password": Secret-Value-1!}' },
	});
	expect(violation.field).toBe('"Extra Body Fields (JSON)"');
	expect(violation.message).toMatch(/^must be valid JSON( \(error at character \d+\))?$/);
	expect(violation.message).not.toContain('Secret');
});

test('Limit and Page Size are checked before any request', async () => {
	expect(
		await violations('customer', 'getAll', { returnAll: false, limit: 0, filters: {}, options: { perPage: 500 } }),
	).toEqual([
		{ field: '"Limit"', message: 'must be at least 1' },
		{ field: '"Page Size" (per_page)', message: 'must be at most 200' },
	]);
});
