import { detailFields, useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

/** A user taking part in an event, as the API takes it. */
const participant = (user_id: number, is_creator: boolean, is_organizer: boolean) => ({
	user_id,
	is_creator,
	is_organizer,
});

const validEvent = {
	type: '1',
	starts_at: '2025-12-01T09:00:00Z',
	ends_at: '2025-12-01T10:00:00Z',
	all_day: false,
	title: null,
	location_geo: { lat: 45.76, lng: 4.83 },
	appointment_mode: 'PRODUCT',
	users: [participant(1001, true, false), participant(1004, false, true)],
	products: [5001],
	contacts: [10001],
	recurrence: {
		dtstart: '2025-12-01T09:00:00Z',
		freq: 'weekly',
		interval: 1,
		count: 4,
		until: null,
		byweekday: ['MO'],
		bynweekday: [[0, 1]],
	},
};

describe('calendar events', () => {
	test('a valid event is created (200) and answered with the type key', async () => {
		const result = await h.api('POST', '/calendar/events', { body: validEvent });
		expect(result.status).toBe(200);
		expect(result.body.data).toMatchObject({
			id: expect.any(Number),
			type: 'VISIT',
			title: 'Visite',
			all_day: false,
			users: [
				{ ext_user_id: 1001, is_creator: true, is_organizer: false },
				{ ext_user_id: 1004, is_creator: false, is_organizer: true },
			],
			products: [{ ext_product_id: '5001', ext_domain_id: '1' }],
			contacts: [{ ext_contact_id: '10001', ext_domain_id: '1' }],
			recurrence: expect.objectContaining({ freq: 'weekly', count: 4, byweekday: ['MO'] }),
			archived: null,
		});
		const id = result.body.data.id;
		expect((await h.admin('GET', `/records/calendar_event/${id}`)).body.data.type).toBe('VISIT');
		expect((await h.api('DELETE', `/calendar/events/${id}`)).status).toBe(204);
		expect((await h.api('DELETE', `/calendar/events/${id}`)).status).toBe(404);
	});

	test('every nullable field takes null; users: null creates an event without participants', async () => {
		const nulls = Object.fromEntries(
			[
				'title',
				'location',
				'location_geo',
				'sequence_duration',
				'gathering_gauge',
				'commute_duration',
				'communicate_location',
				'is_confidential',
				'remind_time_in_min',
				'appointment_mode',
				'users',
				'products',
				'contacts',
				'notes',
				'visio_url',
				'visit360_organizer_url',
				'visit360_participation_url',
				'archived',
				'parent_id',
				'recurrence',
			].map((key) => [key, null]),
		);
		const result = await h.api('POST', '/calendar/events', { body: { ...validEvent, ...nulls } });
		expect(result.status).toBe(200);
		expect(result.body.data).toMatchObject({
			title: 'Visite',
			users: [],
			products: [],
			contacts: [],
			location_geo: null,
			recurrence: null,
			appointment_mode: null,
		});
		expect((await h.admin('GET', `/records/calendar_event/${result.body.data.id}`)).body.data.users).toEqual([]);
	});

	test('users left out reads as null: an event without participants (the node leaves an empty list out)', async () => {
		const { users: _users, ...withoutUsers } = validEvent;
		const result = await h.api('POST', '/calendar/events', { body: withoutUsers });
		expect(result.status).toBe(200);
		expect(result.body.data.users).toEqual([]);
	});

	const invalid: [string, Record<string, unknown>, string[]][] = [
		['type given by key', { type: 'VISIT' }, ['type']],
		['starts_at without Z', { starts_at: '2025-12-01T09:00:00' }, ['starts_at']],
		['ends_at before starts_at', { ends_at: '2025-12-01T08:00:00Z' }, ['ends_at']],
		['all_day missing', { all_day: undefined }, ['all_day']],
		['all_day not boolean', { all_day: 'no' }, ['all_day']],
		[
			'two organizers',
			{
				users: [participant(1001, true, true), participant(1004, false, true)],
			},
			['users'],
		],
		['no creator', { users: [participant(1001, false, true)] }, ['users']],
		['no users', { users: [] }, ['users']],
		['users not a list', { users: 'all' }, ['users']],
		[
			'duplicate user_id',
			{
				users: [participant(1001, true, true), participant(1001, false, false)],
			},
			['users[1].user_id'],
		],
		['participant flag missing', { users: [{ user_id: 1001, is_creator: true }] }, ['users[0].is_organizer', 'users']],
		['lat without lng', { location_geo: { lat: 45.7 } }, ['location_geo.lng']],
		['unknown appointment_mode', { appointment_mode: 'CAR' }, ['appointment_mode']],
		[
			'recurrence without freq and interval',
			{ recurrence: { dtstart: '2025-12-01T09:00:00Z' } },
			['recurrence.freq', 'recurrence.interval'],
		],
		[
			'recurrence with count and until',
			{
				recurrence: {
					dtstart: '2025-12-01T09:00:00Z',
					freq: 'daily',
					interval: 1,
					count: 3,
					until: '2025-12-31T00:00:00Z',
				},
			},
			['recurrence.count'],
		],
		[
			'recurrence with a bad day code',
			{ recurrence: { dtstart: '2025-12-01T09:00:00Z', freq: 'weekly', interval: 2, byweekday: ['MON'] } },
			['recurrence.byweekday'],
		],
		['unknown product', { products: [90001] }, ['products[0]']],
	];
	test.each(invalid)('%s gives 422 naming the field', async (_case, change, fields) => {
		const result = await h.api('POST', '/calendar/events', { body: { ...validEvent, ...change } });
		expect(result.status).toBe(422);
		expect(result.body.error.code).toBe('VALIDATION_ERROR');
		expect(detailFields(result)).toEqual(fields);
	});
});

describe('calendar referentials', () => {
	test('event types have a string id and a key', async () => {
		const types = (await h.api('GET', '/calendar/events/types')).body.data;
		expect(types[0]).toEqual({ id: '1', key: 'VISIT', label: 'Visite' });
	});

	test('permanences need a readable agency_id', async () => {
		const result = await h.api('GET', '/calendar/permanences/timeframe', { query: { agency_id: 101 } });
		expect(Object.keys(result.body.data)).toEqual(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);
		expect(result.body.data.MO[0]).toEqual({ start: { hours: 9, minutes: 0 }, end: { hours: 12, minutes: 0 } });
		expect(result.body.data.SU).toEqual([]);
		const missing = await h.api('GET', '/calendar/permanences/timeframe');
		expect(missing.status).toBe(422);
		expect(detailFields(missing)).toEqual(['agency_id']);
		expect((await h.api('GET', '/calendar/permanences/timeframe', { query: { manufacturer_id: 201 } })).status).toBe(
			403,
		);
	});
});

/**
 * The calendar endpoints production serves beyond the spec (docs/assumptions.md "Production evidence"):
 * the seed of site 1 holds events 1 to 12, one a day from 2025-11-03; event 1 repeats weekly 4 times,
 * event 3 is confidential (user 1006), event 10 archived.
 */
const NOVEMBER = { from: '2025-11-01T00:00:00', to: '2025-12-01T00:00:00' };
const search = async (query: Record<string, string | number | boolean>, client?: string) =>
	await h.api('GET', '/calendar/events', { query, client });
const idsOf = (result: { body: { data: Array<{ id: number }> } }) => result.body.data.map((event) => event.id);

describe('event search (GET /calendar/events)', () => {
	test('a period gives its events in start order, a weekly series as each occurrence, archived ones left out', async () => {
		const result = await search(NOVEMBER);
		expect(result.status).toBe(200);
		expect(idsOf(result)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1, 9, 11, 12, 1, 1]);
		expect(result.body.meta).toEqual({ offset: 0, perPage: 50, total: 14, has_more: false });
		expect(
			result.body.data
				.filter((event: { id: number }) => event.id === 1)
				.map((event: { starts_at: string }) => event.starts_at),
		).toEqual(['2025-11-03T13:00:00Z', '2025-11-10T13:00:00Z', '2025-11-17T13:00:00Z', '2025-11-24T13:00:00Z']);
		expect(result.body.data[8]).toMatchObject({ id: 1, ends_at: '2025-11-10T14:00:00Z', recurrence: { count: 4 } });
		expect(idsOf(await search({ ...NOVEMBER, recurring: false }))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12]);
		expect(idsOf(await search({ ...NOVEMBER, archived: true, recurring: false }))).toContain(10);
	});

	test('offset and perPage page the results; perPage above 50 is served as 50; a period bound may end in Z', async () => {
		const first = await search({ ...NOVEMBER, offset: 0, perPage: 5 });
		expect(idsOf(first)).toEqual([1, 2, 3, 4, 5]);
		expect(first.body.meta).toEqual({ offset: 0, perPage: 5, total: 14, has_more: true });
		const last = await search({ ...NOVEMBER, offset: 10, perPage: 5 });
		expect(idsOf(last)).toEqual([11, 12, 1, 1]);
		expect(last.body.meta.has_more).toBe(false);
		expect((await search({ ...NOVEMBER, perPage: 80 })).body.meta.perPage).toBe(50);
		const withZ = await search({ from: '2025-11-04T00:00:00Z', to: '2025-11-05T00:00:00Z' });
		expect(idsOf(withZ)).toEqual([2]);
	});

	test('without a period, the current day', async () => {
		const now = new Date();
		const today = (hours: number) =>
			new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours)).toISOString().slice(0, 19) +
			'Z';
		const created = await h.api('POST', '/calendar/events', {
			body: { type: '2', starts_at: today(23), ends_at: `${today(23).slice(0, 14)}59:59Z`, all_day: false },
		});
		expect(created.status).toBe(200);
		expect(idsOf(await search({}))).toEqual([created.body.data.id]);
		expect((await h.api('DELETE', `/calendar/events/${created.body.data.id}`)).status).toBe(204);
	});

	test('filters: users taking part, their agencies, types left out, and whose view applies to confidential events', async () => {
		expect(idsOf(await search({ ...NOVEMBER, user_ids: '1006,1002', recurring: false }))).toEqual([3, 5, 6, 9, 11, 12]);
		// Agency 103: users 1003, 1006, 1009, 1012.
		expect(idsOf(await search({ ...NOVEMBER, agency_ids: '103' }))).toEqual([3, 6, 9, 12]);
		// Type ids 5 (OPEN_HOUSE) and 3 (VALUATION).
		expect(idsOf(await search({ ...NOVEMBER, excluded_types: '5,3', recurring: false }))).toEqual([1, 2, 5, 7, 8]);
		expect(idsOf(await search({ ...NOVEMBER, user_id: 1001, recurring: false }))).not.toContain(3);
		expect(idsOf(await search({ ...NOVEMBER, user_id: 1006, recurring: false }))).toContain(3);
	});

	test('a bad period, paging value or filter gives 422 naming it; an agency outside the site 403', async () => {
		const refused: Array<[Record<string, string | number>, string[]]> = [
			[{ from: '2025-11-01' }, ['from']],
			[{ from: NOVEMBER.from }, ['to']],
			[{ ...NOVEMBER, to: '2025-10-01T00:00:00' }, ['to']],
			[{ from: '2025-11-01T00:00:00+01:00', to: NOVEMBER.to }, ['from']],
			[{ ...NOVEMBER, offset: -1, perPage: 0 }, ['offset', 'perPage']],
			[{ ...NOVEMBER, user_ids: '1001,abc', user_id: 999 }, ['user_id', 'user_ids']],
		];
		for (const [query, fields] of refused) {
			const result = await search(query);
			expect([query, result.status, detailFields(result)]).toEqual([query, 422, fields]);
		}
		const outside = await search({ ...NOVEMBER, agency_ids: '101,201' });
		expect([outside.status, outside.body.error.code]).toEqual([403, 'FORBIDDEN']);
	});
});

describe('issue 35: calendar reads in the time zone asked (tz), and in the view of a user (user_id)', () => {
	test('tz: the period is read, and the dates written, in that zone; an unknown zone is 422', async () => {
		// Event 2 starts on 2025-11-04 (UTC); Paris is UTC+1 in November.
		const utc = await search({ from: '2025-11-04T00:00:00', to: '2025-11-05T00:00:00' });
		const paris = await search({ from: '2025-11-04T01:00:00', to: '2025-11-05T01:00:00', tz: 'Europe/Paris' });
		expect(idsOf(paris)).toEqual(idsOf(utc));
		const [inUtc] = utc.body.data as Array<{ starts_at: string; ends_at: string }>;
		const [inParis] = paris.body.data as Array<{ starts_at: string; ends_at: string }>;
		expect(Date.parse(inParis.starts_at)).toBe(Date.parse(inUtc.starts_at));
		expect(inParis.starts_at).toBe(
			`${new Date(Date.parse(inUtc.starts_at) + 3_600_000).toISOString().slice(0, 19)}+01:00`,
		);
		expect(inParis.ends_at).toMatch(/\+01:00$/);
		// July in New York is UTC-4: 9:00 to 12:00 there is 13:00 to 16:00 UTC, working hours from 14:00 UTC.
		const slots = await h.api('GET', '/calendar/users/1008/availability', {
			query: { from: '2025-07-01T09:00:00', to: '2025-07-01T12:00:00', tz: 'America/New_York', slot_duration: 60 },
		});
		expect(slots.body.data).toEqual([
			{ starts_at: '2025-07-01T10:00:00-04:00', ends_at: '2025-07-01T11:00:00-04:00' },
			{ starts_at: '2025-07-01T11:00:00-04:00', ends_at: '2025-07-01T12:00:00-04:00' },
		]);
		const permanences = await h.api('GET', '/calendar/permanences/timeframe/users', {
			query: { agency_id: 102, tz: 'Europe/Paris' },
		});
		expect(permanences.body.data.every((slot: { starts_at: string }) => /\+0[12]:00$/.test(slot.starts_at))).toBe(true);
		expect(detailFields(await search({ ...NOVEMBER, tz: 'Mars/Olympus_Mons' }))).toEqual(['tz']);
	});

	test('GET of one event: in the zone asked; a confidential one is not found in the view of a user not taking part', async () => {
		const inParis = await h.api('GET', '/calendar/events/2', { query: { tz: 'Europe/Paris' } });
		expect(inParis.body.data.starts_at).toMatch(/\+01:00$/);
		expect((await h.api('GET', '/calendar/events/3', { query: { user_id: 1006 } })).status).toBe(200);
		expect((await h.api('GET', '/calendar/events/3', { query: { user_id: 1001 } })).status).toBe(404);
		expect((await h.api('GET', '/calendar/events/3')).status).toBe(200);
	});
});

describe('one event: get, update, archive and restore', () => {
	test('GET answers the event; one of another site or unknown is 404', async () => {
		const result = await h.api('GET', '/calendar/events/2');
		expect(result.status).toBe(200);
		expect(result.body.data).toMatchObject({ id: 2, type: 'VISIT', starts_at: '2025-11-04T12:00:00Z' });
		expect(result.body.data.site_id).toBeUndefined();
		expect((await h.api('GET', '/calendar/events/13')).status).toBe(404);
		expect((await h.api('GET', '/calendar/events/999')).status).toBe(404);
	});

	test('PATCH changes only the fields given, by the create rules', async () => {
		const before = (await h.api('GET', '/calendar/events/4')).body.data;
		const result = await h.api('PATCH', '/calendar/events/4', {
			body: {
				type: '2',
				title: null,
				ends_at: '2025-11-06T09:30:00Z',
				users: [participant(1001, true, true), participant(1004, false, false)],
			},
		});
		expect(result.status).toBe(200);
		expect(result.body.data).toEqual({
			...before,
			type: 'APPOINTMENT',
			title: 'Rendez-vous',
			ends_at: '2025-11-06T09:30:00Z',
			users: [
				{ ext_user_id: 1001, is_creator: true, is_organizer: true },
				{ ext_user_id: 1004, is_creator: false, is_organizer: false },
			],
		});
		expect((await h.admin('GET', '/records/calendar_event/4')).body.data.ends_at).toBe('2025-11-06T09:30:00Z');
	});

	test('PATCH refuses what a create refuses, on the event as it would become, and changes nothing', async () => {
		const refused: Array<[Record<string, unknown>, string[]]> = [
			[{ ends_at: '2025-11-07T15:00:00Z' }, ['ends_at']],
			[{ users: [participant(1001, true, false)] }, ['users']],
			[{ starts_at: '2025-11-07T16:00:00', all_day: null }, ['starts_at', 'all_day']],
			[{ type: 'VISIT' }, ['type']],
		];
		for (const [body, fields] of refused) {
			const result = await h.api('PATCH', '/calendar/events/5', { body });
			expect([body, result.status, detailFields(result)]).toEqual([body, 422, fields]);
		}
		expect((await h.api('GET', '/calendar/events/5')).body.data).toMatchObject({
			starts_at: '2025-11-07T16:00:00Z',
			ends_at: '2025-11-07T17:00:00Z',
			all_day: false,
		});
	});

	test('PATCH …/status archives (hidden from the search) and restores; archived must be a boolean', async () => {
		const archived = await h.api('PATCH', '/calendar/events/6/status', { body: { archived: true } });
		expect([archived.status, archived.body.data.archived]).toEqual([200, true]);
		expect(idsOf(await search(NOVEMBER))).not.toContain(6);
		const restored = await h.api('PATCH', '/calendar/events/6/status', { body: { archived: false } });
		expect([restored.status, restored.body.data.archived]).toEqual([200, false]);
		expect(idsOf(await search(NOVEMBER))).toContain(6);
		for (const body of [{}, { archived: 'yes' }, { status: 'archived' }]) {
			const result = await h.api('PATCH', '/calendar/events/6/status', { body });
			expect([body, result.status, detailFields(result)]).toEqual([body, 422, ['archived']]);
		}
		expect((await h.api('PATCH', '/calendar/events/13/status', { body: { archived: true } })).status).toBe(404);
	});
});

describe("a user's agenda", () => {
	test('availability: working hours less the events the user takes part in, in slots of slot_duration minutes', async () => {
		// User 1007 works 9:00-12:30 and 14:00-18:30 on weekdays; event 1 holds Monday 2025-11-10 13:00-14:00.
		const monday = { from: '2025-11-10T12:00:00', to: '2025-11-10T16:00:00' };
		const result = await h.api('GET', '/calendar/users/1007/availability', { query: { ...monday, slot_duration: 60 } });
		expect(result.status).toBe(200);
		expect(result.body.data).toEqual([
			{ starts_at: '2025-11-10T14:00:00Z', ends_at: '2025-11-10T15:00:00Z' },
			{ starts_at: '2025-11-10T15:00:00Z', ends_at: '2025-11-10T16:00:00Z' },
		]);
		const busyAt = { from: '2025-11-10T13:00:00', to: '2025-11-10T15:00:00', slot_duration: 60 };
		const owner = await h.api('POST', '/calendar/events', {
			body: {
				type: '6',
				starts_at: '2025-11-10T14:00:00Z',
				ends_at: '2025-11-10T14:30:00Z',
				all_day: false,
				users: [participant(1007, true, true)],
			},
		});
		expect((await h.api('GET', '/calendar/users/1007/availability', { query: busyAt })).body.data).toEqual([]);
		const ignoringOther = await h.api('GET', '/calendar/users/1007/availability', {
			query: { ...busyAt, exclude_types: 'OTHER' },
		});
		expect(ignoringOther.body.data).toEqual([{ starts_at: '2025-11-10T14:00:00Z', ends_at: '2025-11-10T15:00:00Z' }]);
		await h.api('DELETE', `/calendar/events/${owner.body.data.id}`);
		const week = await h.api('GET', '/calendar/users/1007/availability');
		expect(week.status).toBe(200);
		// Five weekdays of 8 hours, in slots of 30 minutes, less what this week's events take.
		expect(week.body.data.length).toBeLessThanOrEqual(80);
		expect(week.body.data.length).toBeGreaterThan(70);
		expect((await h.api('GET', '/calendar/users/9001/availability')).status).toBe(404);
		const bad = await h.api('GET', '/calendar/users/1007/availability', { query: { slot_duration: 0 } });
		expect([bad.status, detailFields(bad)]).toEqual([422, ['slot_duration']]);
	});

	test('working time: the week day by day; an inactive user has none', async () => {
		// Every third user (1002, 1005…) also works Saturday morning.
		const result = await h.api('GET', '/calendar/users/1002/working-time');
		expect(Object.keys(result.body.data)).toEqual(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);
		expect(result.body.data.MO).toEqual([
			{ start: { hours: 9, minutes: 0 }, end: { hours: 12, minutes: 30 } },
			{ start: { hours: 14, minutes: 0 }, end: { hours: 18, minutes: 30 } },
		]);
		expect(result.body.data.SA).toEqual([{ start: { hours: 9, minutes: 0 }, end: { hours: 12, minutes: 0 } }]);
		expect((await h.api('GET', '/calendar/users/1003/working-time')).body.data.SA).toEqual([]);
		expect(Object.values((await h.api('GET', '/calendar/users/1012/working-time')).body.data).flat()).toEqual([]);
	});

	test("shared agendas: the active colleagues of the user's agency", async () => {
		const result = await h.api('GET', '/calendar/users/1003/shared-agenda');
		expect(result.body.data.map((user: { user_id: number }) => user.user_id)).toEqual([1006, 1009]);
		expect(result.body.data[0]).toEqual({
			user_id: 1006,
			firstname: expect.any(String),
			lastname: expect.any(String),
			email: expect.stringContaining('@'),
			agency_id: 103,
		});
	});

	test('permanence users: each slot of the agency in the period with the user holding it; agency_id required and in scope', async () => {
		const result = await h.api('GET', '/calendar/permanences/timeframe/users', {
			query: { agency_id: 101, from: '2025-11-03T00:00:00', to: '2025-11-04T00:00:00' },
		});
		expect(result.body.data).toEqual([
			{
				starts_at: '2025-11-03T09:00:00Z',
				ends_at: '2025-11-03T12:00:00Z',
				user_id: 1001,
				firstname: expect.any(String),
				lastname: expect.any(String),
			},
			{
				starts_at: '2025-11-03T14:00:00Z',
				ends_at: '2025-11-03T19:00:00Z',
				user_id: 1004,
				firstname: expect.any(String),
				lastname: expect.any(String),
			},
		]);
		const week = await h.api('GET', '/calendar/permanences/timeframe/users', { query: { agency_id: 103 } });
		// Agency 103: two ranges on weekdays, closed on Saturday.
		expect(week.body.data).toHaveLength(10);
		const missing = await h.api('GET', '/calendar/permanences/timeframe/users');
		expect([missing.status, detailFields(missing)]).toEqual([422, ['agency_id']]);
		expect((await h.api('GET', '/calendar/permanences/timeframe/users', { query: { agency_id: 201 } })).status).toBe(
			403,
		);
	});
});

describe('the agenda module', () => {
	test('every calendar endpoint answers 403 MODULE_DISABLED on a site without it, before the permission', async () => {
		const calendarRoutes = h.sandbox.endpoints.filter((endpoint) => endpoint.path.startsWith('/calendar'));
		expect(calendarRoutes.length).toBeGreaterThan(10);
		for (const { method, path } of calendarRoutes) {
			const result = await h.api(method, path.replace(/\{\w+\}/g, '13'), {
				client: 'solo-client',
				body: method === 'GET' || method === 'DELETE' ? undefined : {},
			});
			expect([path, result.status, result.body.error]).toEqual([
				path,
				403,
				{ code: 'MODULE_DISABLED', message: 'The agenda module is not enabled for this site.' },
			]);
		}
	});
});
