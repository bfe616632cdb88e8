import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { LoggedRequest } from '../support/inprocess/runner';
import { credentialsOf, inProcessContext } from '../support/inprocess/context';
import { API_BASE, useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 27, point 4: the calendar operations production serves beyond the spec, through the node
 * against the sandbox: paging of the event search, what the node refuses before sending on the
 * evidence, the write order of one event's changes, and a 403 from a site without the agenda module.
 * The seed of site 1 holds events 1 to 12 in November 2025 (event 1 weekly, four times; event 10 archived).
 */
const h = useSandbox();

async function run(items: IDataObject[], clientId = 'demo-client') {
	await h.admin('POST', '/reset');
	const { context, hints } = inProcessContext(credentialsOf(h.sandbox, clientId), items, [], true);
	const [output] = await route.call(context);
	const logged: LoggedRequest[] = (await h.admin('GET', '/requests?limit=2000')).body.data;
	return {
		output: output.map((item) => item.json),
		requests: logged.filter((entry) => entry.path.startsWith(`${API_BASE}/`)),
		hints,
	};
}

const NOVEMBER = { from: '2025-11-01T00:00:00Z', to: '2025-12-01T00:00:00Z' };
const searchEvents = (options: IDataObject, filters: IDataObject = NOVEMBER) => ({
	resource: 'calendar',
	operation: 'getAllEvents',
	returnAll: true,
	filters,
	options,
});

test('Get Many Events, Return All: pages of perPage by offset until the API says no more, each occurrence once', async () => {
	const { output, requests } = await run([searchEvents({ perPage: 5 })]);
	expect(output.map((event) => `${String(event.id)} ${String(event.starts_at)}`)).toHaveLength(14);
	expect(new Set(output.map((event) => `${String(event.id)} ${String(event.starts_at)}`)).size).toBe(14);
	expect(output.filter((event) => event.id === 1)).toHaveLength(4);
	expect(requests.map((request) => [request.query.offset, request.query.perPage])).toEqual([
		['0', '5'],
		['5', '5'],
		['10', '5'],
	]);
	expect(requests.every((request) => request.query.per_page === undefined)).toBe(true);
});

test('a Page Size above 50 is asked as 50, with a notice', async () => {
	const { output, requests, hints } = await run([searchEvents({ perPage: 80 })]);
	expect(output).toHaveLength(14);
	expect(requests.map((request) => request.query.perPage)).toEqual(['50']);
	expect(hints.map((hint) => hint.message)).toContainEqual(
		expect.stringContaining('"Page Size" 80 is more than the 50 records a page of this list holds at most'),
	);
});

test('a period bound the node cannot read is refused before sending, naming the field (production evidence)', async () => {
	const { output, requests } = await run([searchEvents({}, { from: 'next Tuesday', to: NOVEMBER.to })]);
	expect(output[0].error).toBe('Invalid input: "Period From" (from) could not be read as a date-time');
	expect(requests).toEqual([]);
});

test('a period that ends before it starts is sent, with a hint that it holds nothing', async () => {
	const { output, requests, hints } = await run([searchEvents({}, { from: NOVEMBER.to, to: NOVEMBER.from })]);
	expect(requests).toHaveLength(1);
	expect(output[0].error).toBe('VALIDATION_ERROR: 1 field refused (HTTP 422)');
	expect(String(output[0].description)).toMatch(/^"Period To" \(to\): must be after from\n/);
	expect(hints.map((hint) => hint.message).join('\n')).toContain('"Period To" (to) is not after "Period From"');
});

test('Update Event: participants that break the create rules are refused before sending (production evidence)', async () => {
	const participants = {
		participant: [
			{ userId: '1001', isOrganizer: true, isCreator: false },
			{ userId: '1004', isOrganizer: true, isCreator: false },
		],
	};
	const { output, requests } = await run([
		{ resource: 'calendar', operation: 'updateEvent', eventId: '8', additionalFields: { participants } },
	]);
	expect(output[0].error).toBe(
		'Invalid input: "Participants" (users) must have exactly one organizer (has 2); "Participants" (users) must have exactly one creator (has 0)',
	);
	expect(requests).toEqual([]);
});

test('archive then restore one event in one run: sent in input order, the event visible at the end', async () => {
	const change = (statusChange: string) => ({
		resource: 'calendar',
		operation: 'setEventStatus',
		eventId: '9',
		statusChange,
	});
	const { output, requests } = await run([change('archive'), change('restore'), change('archive'), change('restore')]);
	expect(output.map((event) => event.archived)).toEqual([true, false, true, false]);
	expect(requests.map((request) => (request.body as IDataObject).archived)).toEqual([true, false, true, false]);
	expect((await h.admin('GET', '/records/calendar_event/9')).body.data.archived).toBe(false);
});

test('a write answered without the event (204) outputs the event read back by its ID', async () => {
	await h.admin('POST', '/answer-profile', { client_id: 'demo-client', profile: 'empty-writes' });
	try {
		const { output, requests } = await run([
			{
				resource: 'calendar',
				operation: 'updateEvent',
				eventId: '11',
				additionalFields: { notes: 'Keys at the desk' },
			},
		]);
		expect(requests.map((request) => `${request.route} ${request.status}`)).toEqual([
			'PATCH /calendar/events/{eventId} 204',
			'GET /calendar/events/{eventId} 200',
		]);
		expect(output).toEqual([expect.objectContaining({ id: 11, notes: 'Keys at the desk', type: 'VALUATION' })]);
	} finally {
		await h.admin('DELETE', '/answer-profile');
	}
});

test('a 403 from a site without the agenda module says so', async () => {
	const { output } = await run(
		[{ resource: 'calendar', operation: 'getUserWorkingTime', userId: byId(9001) }],
		'solo-client',
	);
	expect(output[0].error).toBe('MODULE_DISABLED: The agenda module is not enabled for this site. (HTTP 403)');
	expect(output[0].description).toContain(
		'This operation needs the SITE_CALENDAR:READ permission, and the agenda module enabled for the site',
	);
});
