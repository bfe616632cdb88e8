import { route } from '../../nodes/AgencyCrm/actions/router';
import { fakeContext, ok, status } from '../support/fakeN8n';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 35, point 8: hints, not refusals. A search request's Title over 120 characters (production's
 * lead router cuts there; no rule seen elsewhere) is sent as given with a hint; the calendar's reads
 * take production's `tz` (Time Zone: the period is read, and the dates written, in it) and `user_id`
 * (As User: whose view applies), and a zone the node does not know is sent with a hint.
 */
async function run(parameters: Record<string, unknown>, answers = [ok({ data: [], meta: { has_more: false } })]) {
	// Node version 2: Time Zone is an option (it shapes the answer), As User a filter of the search.
	const fake = fakeContext({ parameters, answers, typeVersion: 2 });
	await route.call(fake.execute);
	return { requests: fake.requests(), hints: fake.hints.map((hint) => hint.message) };
}

const calendar = (operation: string, more: Record<string, unknown>) => ({ resource: 'calendar', operation, ...more });

test('Get Many Events with a Time Zone: the period is sent in that zone, with tz and the user whose view applies', async () => {
	const { requests, hints } = await run(
		calendar('getAllEvents', {
			returnAll: false,
			limit: 10,
			filters: { from: '2025-11-20T00:00:00Z', to: '2025-07-01T00:00:00Z', userId: byId(1006) },
			options: { timeZone: 'Europe/Paris' },
		}),
		[ok({ data: [{ id: 1 }], meta: { has_more: false } })],
	);
	expect(requests).toEqual([
		{
			method: 'GET',
			url: '/calendar/events',
			qs: {
				from: '2025-11-20T01:00:00',
				to: '2025-07-01T02:00:00',
				user_id: 1006,
				tz: 'Europe/Paris',
				offset: 0,
				perPage: 10,
			},
			body: undefined,
		},
	]);
	// The period, read in UTC, ends before it starts: a hint (a guess), as before.
	expect(hints).toEqual([expect.stringContaining('the period holds nothing')]);
});

test('Get Event as a user, in a time zone: GET /calendar/events/120?user_id=1006&tz=America/New_York', async () => {
	const { requests, hints } = await run(
		calendar('getEvent', {
			eventId: '120',
			filters: { userId: byId(1006) },
			options: { timeZone: 'America/New_York' },
		}),
		[ok({ data: { id: 120 } })],
	);
	expect(requests).toEqual([
		{ method: 'GET', url: '/calendar/events/120', qs: { user_id: 1006, tz: 'America/New_York' }, body: undefined },
	]);
	expect(hints).toEqual([]);
});

test.each([
	['getUserAvailability', { userId: byId(1008) }, '/calendar/users/1008/availability'],
	['getPermanenceUsers', { agencyId: byId(102) }, '/calendar/permanences/timeframe/users'],
])('%s takes the Time Zone too, its period sent in it', async (operation, path, url) => {
	const { requests } = await run(
		calendar(operation, {
			...path,
			filters: { from: '2025-07-01T13:00:00Z', to: '2025-07-01T16:00:00Z' },
			options: { timeZone: 'America/New_York' },
		}),
		[ok({ data: [] })],
	);
	expect(requests[0]).toMatchObject({
		url,
		qs: expect.objectContaining({ from: '2025-07-01T09:00:00', to: '2025-07-01T12:00:00', tz: 'America/New_York' }),
	});
});

test('a Time Zone the node does not know is sent as given, with a hint; the period stays in UTC', async () => {
	const { requests, hints } = await run(
		calendar('getAllEvents', {
			returnAll: false,
			limit: 5,
			filters: { from: '2025-11-20T00:00:00Z', to: '2025-11-21T00:00:00Z' },
			options: { timeZone: 'Paris' },
		}),
		[ok({ data: [{ id: 1 }], meta: { has_more: false } })],
	);
	expect(requests[0].qs).toMatchObject({ from: '2025-11-20T00:00:00', to: '2025-11-21T00:00:00', tz: 'Paris' });
	expect(hints).toEqual([
		expect.stringMatching(/^"Time Zone" \(tz\) is not a time zone name such as Europe\/Paris\. Sent as given/),
	]);
});

test('a search request Title over 120 characters is sent whole, with a hint that the router cuts it there', async () => {
	const title = `Apartment near the station, ${'with a balcony and a quiet bedroom, '.repeat(3)}up to 300000`;
	expect(title.length).toBeGreaterThan(120);
	const { requests, hints } = await run(
		{
			resource: 'searchRequest',
			operation: 'create',
			customerId: byId(10003),
			additionalFields: { title, comment: 'From the website' },
		},
		[status(201, {}, { data: { id: 7, wording: title } })],
	);
	expect(requests[0]).toMatchObject({
		method: 'POST',
		url: '/customers/10003/search-requests',
		body: { wording: title, comment: 'From the website' },
	});
	// Besides the one on Criteria left empty (a guess of ours too).
	expect(hints.filter((hint) => hint.startsWith('"Title"'))).toEqual([
		expect.stringContaining(
			`"Title" (wording) is over 120 characters (it has ${title.length}): production's lead router cuts it there. Sent as given`,
		),
	]);
});
