import type { NodeApiError } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { DEFAULT_CONCURRENCY } from '../../nodes/AgencyCrm/catalogue/nodeOptions';
import { customerCreates, duplicateContacts, emailOf, runNode } from '../support/inprocess/bulk';
import { admin, counters } from '../support/sandbox/admin';
import { inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/**
 * The Concurrency option through the router against the sandbox (20 ms of server latency, so that
 * requests overlap): order, pairing, Continue On Fail, stop at the first failure, the bound on
 * requests in flight, hints, upsert and Return All.
 */
const h = useSandbox();

beforeEach(async () => {
	await admin(h.origin, 'POST', '/reset');
	await admin(h.origin, 'POST', '/faults', { latency_ms: 20 });
});

const getCustomer = (id: string | number, concurrency?: number) => ({
	resource: 'customer',
	operation: 'get',
	customerId: byId(id),
	output: 'simple',
	options: concurrency === undefined ? {} : { concurrency },
});
const pairing = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));
const apiRequests = async () => (await counters(h.origin)).requests_total;

test('100 creates at Concurrency 7: every item once, in input order, paired; never more than 7 requests in flight', async () => {
	const { output } = await runNode(h.origin, customerCreates('seven', 100, 7));
	expect(output.map((item) => item.pairedItem)).toEqual(pairing(100));
	expect(output.map((item) => item.json.email)).toEqual(
		Array.from({ length: 100 }, (_, index) => emailOf('seven', index)),
	);
	const { in_flight: inFlight } = await counters(h.origin);
	expect(inFlight.max).toBe(7);
	expect(await duplicateContacts(h.origin)).toBe(0);
});

test(`without the option, the default (${DEFAULT_CONCURRENCY}) requests are in flight at most`, async () => {
	// Long enough for the tenth request to start before the first answer, however busy the machine.
	await admin(h.origin, 'POST', '/faults', { latency_ms: 400 });
	const { output } = await runNode(h.origin, customerCreates('default', 30));
	expect(output).toHaveLength(30);
	expect((await counters(h.origin)).in_flight.max).toBe(DEFAULT_CONCURRENCY);
});

test('Concurrency 1 sends one request after another', async () => {
	await runNode(h.origin, customerCreates('one', 12, 1));
	expect((await counters(h.origin)).in_flight.max).toBe(1);
});

describe('failures', () => {
	// Item 30 fails at the API (404, after the latency); item 31 fails at once, before sending
	// (".." is refused), so it fails first in time; item 45 would fail too.
	const items = Array.from({ length: 60 }, (_, index) =>
		getCustomer(index === 30 ? 99999999 : index === 31 ? '..' : index === 45 ? 99999998 : 10001 + index, 5),
	);

	test('without Continue On Fail: nothing starts after the first failure, and the lowest item index fails the run', async () => {
		const error = (await runNode(h.origin, items).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error.message).toBe('NOT_FOUND: Customer 99999999 not found. (HTTP 404)');
		expect(error.context.itemIndex).toBe(30);
		// Item 31 failed the moment it started, with items 27-30 in flight: items 0-30 were sent, none after.
		expect(await apiRequests()).toBe(31);
	});

	test('with Continue On Fail: each failure is its item, paired with its input; the others complete', async () => {
		const { output } = await runNode(h.origin, items, true);
		expect(output.map((item) => item.pairedItem)).toEqual(pairing(60));
		const failed = output.flatMap((item, index) => (item.json.error ? [index] : []));
		expect(failed).toEqual([30, 31, 45]);
		expect(output[30].json.apiError).toMatchObject({ code: 'NOT_FOUND' });
		expect(output[31].json.error).toBe('Invalid input: "Contact" (customers_id) cannot be "." or ".."');
		expect(output[59].json.customers_id).toBe(10060);
		expect(await apiRequests()).toBe(59);
	});
});

test('hints are gathered once for the run, naming their items in order', async () => {
	const items = customerCreates('hints', 20, 8).map((item, index) =>
		index % 6 === 1 ? { ...item, additionalFields: { email: `durand-at-example-${index}`, concurrency: 8 } } : item,
	);
	const { context, hints } = inProcessContext(
		{ authUrl: h.origin, clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'site', siteId: 1 },
		items,
		[],
		true,
	);
	await route.call(context);
	expect(hints.map((hint) => hint.message)).toEqual([
		expect.stringMatching(/^"Email" \(email\) does not look like an email address\. .*\(items 1, 7, 13, 19\)\.$/),
	]);
});

test('upsert at Concurrency 8: existing contacts updated, new ones created once, even two items with the same new email', async () => {
	const demo: Array<{ customers_id: number; email: string }> = [];
	for (let id = 10001; demo.length < 20; id++) {
		const { data } = await admin<{ data: { customers_id: number; email: string | null } }>(
			h.origin,
			'GET',
			`/records/customer/${id}`,
		);
		if (data.email) demo.push({ customers_id: data.customers_id, email: data.email });
	}
	// Odd items: a demo contact's email. Even items: a new email, shared by items 2k and 2k + 20.
	const emailFor = (index: number) => (index % 2 === 1 ? demo[(index - 1) / 2].email : emailOf('upsert', index % 20));
	const items = Array.from({ length: 40 }, (_, index) => ({
		resource: 'customer',
		operation: 'upsert',
		agencyId: byId(101),
		lastname: `Upsert ${index}`,
		output: 'simple',
		additionalFields: { email: emailFor(index), concurrency: 8 },
	}));
	const { output } = await runNode(h.origin, items);
	expect(output.map((item) => item.pairedItem)).toEqual(pairing(40));
	expect(output.map((item) => item.json.lastname)).toEqual(items.map((item) => item.lastname));
	for (let index = 1; index < 40; index += 2) {
		expect(output[index].json).toMatchObject({ customers_id: demo[(index - 1) / 2].customers_id, outcome: 'updated' });
	}
	for (let index = 0; index < 20; index += 2) {
		expect(output[index].json.customers_id).toBe(output[index + 20].json.customers_id);
		expect([output[index].json.outcome, output[index + 20].json.outcome]).toEqual(['created', 'updated']);
	}
	expect(await duplicateContacts(h.origin)).toBe(0);
	expect((await counters(h.origin)).in_flight.max).toBeLessThanOrEqual(8);
});

test('issue 26: one contact named two ways in one run (its email, then its mobile in +33 form) keeps every change in input order', async () => {
	const known = await admin<{ data: { customers_id: number; mobile_phone: string } }>(
		h.origin,
		'POST',
		'/simulate-edit',
		{
			resource: 'customer',
			action: 'create',
			changes: {
				agency_id: 101,
				firstname: 'Old',
				lastname: 'Twoways',
				email: 'two.ways@example.com',
				mobile_phone: '0799887766',
			},
		},
	);
	const upsert = (index: number, fields: Record<string, unknown>) => ({
		resource: 'customer',
		operation: 'upsert',
		agencyId: byId(101),
		lastname: 'Twoways',
		output: 'raw',
		additionalFields: { firstname: 'Brigitte', type: index === 0 ? 'buyer' : 'landlord', ...fields, concurrency: 10 },
	});
	// The second item's search answers first: the first one's change of first name must land before it.
	await admin(h.origin, 'POST', '/faults', { latency_ms: 60 });
	const { output } = await runNode(h.origin, [
		upsert(0, { email: 'TWO.WAYS@example.com' }),
		upsert(1, { mobilePhone: '+33 7 99 88 77 66' }),
	]);
	const id = known.data.customers_id;
	expect(output.map((item) => [item.json.customers_id, item.json.outcome])).toEqual([
		[id, 'updated'],
		[id, 'updated'],
	]);
	const { data } = await admin<{ data: { firstname: string; type: string } }>(
		h.origin,
		'GET',
		`/records/customer/${id}`,
	);
	expect(data).toMatchObject({ firstname: 'Brigitte', type: 'landlord' });
	expect(await duplicateContacts(h.origin)).toBe(0);
});

test('Return All at Concurrency 4: each item pages on its own, and gives what a run one item at a time gives', async () => {
	const getAll = (concurrency: number) =>
		['buyer', 'seller', 'tenant', 'landlord', 'other', 'buyer'].map((type) => ({
			resource: 'customer',
			operation: 'getAll',
			returnAll: true,
			output: 'raw',
			filters: { type },
			options: { perPage: 7, concurrency },
		}));
	const serial = await runNode(h.origin, getAll(1));
	await admin(h.origin, 'POST', '/reset');
	await admin(h.origin, 'POST', '/faults', { latency_ms: 20 });
	const concurrent = await runNode(h.origin, getAll(4));
	expect(concurrent.output).toEqual(serial.output);
	expect(new Set(concurrent.output.map((item) => item.json.type))).toEqual(
		new Set(['buyer', 'seller', 'tenant', 'landlord', 'other']),
	);
	expect((await counters(h.origin)).in_flight.max).toBe(4);
});

test('a Concurrency that is not a whole number of at least 1 stops the run before any request, naming the option', async () => {
	for (const concurrency of [0, 2.5, 'many']) {
		await expect(runNode(h.origin, [getCustomer(10001, concurrency as number)])).rejects.toThrow(
			`Invalid input: "Concurrency" must be a whole number of at least 1, not ${JSON.stringify(concurrency)}`,
		);
	}
	expect(await apiRequests()).toBe(0);
});
