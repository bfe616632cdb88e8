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
