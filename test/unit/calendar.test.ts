import type { IDataObject } from 'n8n-workflow';

import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import { byId } from '../../tools/n8n/workflows';
import { fakeContext } from '../support/fakeN8n';

/**
 * Issue 27, point 4: the request of each calendar operation production serves beyond the spec, as
 * prepared from what a user sets (no I/O): method, path, query and body, exactly. The fake's workflow
 * time zone is Paris.
 */

async function prepare(operation: string, parameters: IDataObject) {
	const endpoint = findEndpoint('calendar', operation)!;
	const request = await prepareRequest(fakeContext({ parameters }).execute, endpoint, 0);
	const { method, path, qs, body, pageSize, limit, hints } = request;
	return { method, path, qs, body, pageSize, limit, hints: hints.map((hint) => `${hint.field} ${hint.message}`) };
}

async function problems(operation: string, parameters: IDataObject) {
	const error = await prepare(operation, parameters).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(InputError);
	return (error as InputError).problems.map(({ field, message }) => `${field} ${message}`);
}

const sent = (method: string, path: string, qs: IDataObject = {}, body: IDataObject = {}) => ({
	method,
	path,
	qs,
	body,
	hints: [],
});

test('Get Many Events: the period in UTC without a suffix, every filter under its key, the page size as perPage', async () => {
	const request = await prepare('getAllEvents', {
		returnAll: false,
		limit: 20,
		filters: {
			from: '2026-03-02T08:00:00',
			to: '2026-03-02T20:00:00+02:00',
			userIds: '1001, 1004',
			agencyIds: '101,102',
			excludedTypes: ['2', '6'],
			archived: true,
			recurring: false,
			userId: byId(1001),
		},
		options: { perPage: 10 },
	});
	expect(request).toEqual({
		...sent('GET', '/calendar/events', {
			from: '2026-03-02T07:00:00',
			to: '2026-03-02T18:00:00',
			user_ids: '1001,1004',
			agency_ids: '101,102',
			excluded_types: '2,6',
			archived: true,
			recurring: false,
			user_id: 1001,
		}),
		pageSize: 10,
		limit: 20,
	});
});

test('Get Many Events with nothing set sends nothing but the paging, at most 50 a page', async () => {
	expect(await prepare('getAllEvents', { returnAll: true, filters: {}, options: {} })).toEqual({
		...sent('GET', '/calendar/events'),
		pageSize: 50,
		limit: undefined,
	});
});

test('Get Event, Get User Working Time, Get Shared Agendas: the ID in the path', async () => {
	expect(await prepare('getEvent', { eventId: '120' })).toMatchObject(sent('GET', '/calendar/events/120'));
	expect(await prepare('getUserWorkingTime', { userId: byId(1004) })).toMatchObject(
		sent('GET', '/calendar/users/1004/working-time'),
	);
	expect(await prepare('getSharedAgendas', { userId: byId('1004') })).toMatchObject(
		sent('GET', '/calendar/users/1004/shared-agenda'),
	);
});

test('Update Event: only the fields given, dates in UTC with Z, the type ID as text, participants as users', async () => {
	const request = await prepare('updateEvent', {
		eventId: '120',
		additionalFields: {
			eventType: 2,
			startsAt: '2026-03-02T10:00:00',
			allDay: false,
			participants: { participant: [{ userId: '1004', isOrganizer: true, isCreator: true }] },
			isConfidential: true,
			remindTimeInMin: '10',
		},
	});
	expect(request).toMatchObject(
		sent(
			'PATCH',
			'/calendar/events/120',
			{},
			{
				type: '2',
				starts_at: '2026-03-02T09:00:00Z',
				all_day: false,
				users: [{ user_id: 1004, is_organizer: true, is_creator: true }],
				is_confidential: true,
				remind_time_in_min: 10,
			},
		),
	);
});

test('Archive or Restore Event: archived true or false in the body', async () => {
	expect(await prepare('setEventStatus', { eventId: '120', statusChange: 'archive' })).toMatchObject(
		sent('PATCH', '/calendar/events/120/status', {}, { archived: true }),
	);
	expect(await prepare('setEventStatus', { eventId: '120', statusChange: 'restore' })).toMatchObject(
		sent('PATCH', '/calendar/events/120/status', {}, { archived: false }),
	);
	// Our guess of the body: another value is sent as given, with a hint.
	const other = await prepare('setEventStatus', { eventId: '120', statusChange: 'hide' });
	expect(other.body).toEqual({ archived: 'hide' });
	expect(other.hints).toEqual(['"Change" (archived) must be archive or restore']);
});

test('Get User Availability: period, slot length and the event type keys ignored', async () => {
	const request = await prepare('getUserAvailability', {
		userId: byId(1004),
		options: { from: '2026-03-02', to: '2026-03-07', slotDuration: 45, excludeTypes: ['OTHER', 'OPEN_HOUSE'] },
	});
	expect(request).toMatchObject(
		sent('GET', '/calendar/users/1004/availability', {
			from: '2026-03-01T23:00:00',
			to: '2026-03-06T23:00:00',
			slot_duration: 45,
			exclude_types: 'OTHER,OPEN_HOUSE',
		}),
	);
	expect((await prepare('getUserAvailability', { userId: byId(1004), options: { slotDuration: 7.5 } })).hints).toEqual([
		'"Slot Duration" (slot_duration) must be a whole number',
	]);
});

test('Get Permanence Users: the agency, required, and the period', async () => {
	expect(
		await prepare('getPermanenceUsers', { agencyId: byId(101), options: { from: '2026-03-02T00:00:00Z' } }),
	).toMatchObject(
		sent('GET', '/calendar/permanences/timeframe/users', { agency_id: 101, from: '2026-03-02T00:00:00' }),
	);
	expect(await problems('getPermanenceUsers', { agencyId: byId(''), options: {} })).toEqual([
		'"Agency" (agency_id) is required',
	]);
});

test('what production refuses is refused before sending, naming the field; what we guess only hints', async () => {
	expect(
		await problems('getAllEvents', { returnAll: true, filters: { from: 'soon', to: '2026-03-02' }, options: {} }),
	).toEqual(['"Period From" (from) could not be read as a date-time']);
	expect(
		await problems('updateEvent', {
			eventId: '120',
			additionalFields: { participants: { participant: [{ userId: '1004', isOrganizer: false, isCreator: true }] } },
		}),
	).toEqual(['"Participants" (users) must have exactly one organizer (has 0)']);
	expect(await problems('updateEvent', { eventId: '120', additionalFields: { startsAt: 'at ten' } })).toEqual([
		'"Starts At" (starts_at) must be a UTC date-time YYYY-MM-DDTHH:MM:SSZ',
	]);
	const backwards = await prepare('getPermanenceUsers', {
		agencyId: byId(101),
		options: { from: '2026-03-09T00:00:00Z', to: '2026-03-02T00:00:00Z' },
	});
	expect(backwards.hints).toEqual([
		'"Period To" (to) is not after "Period From" (2026-03-09T00:00:00): the period holds nothing',
	]);
});
