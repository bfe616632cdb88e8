import type { EndpointCase } from './types';
import { plainGet } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const calendarCases: EndpointCase[] = [
	{
		endpoint: 'POST /calendar/events',
		title: 'dates converted to UTC, participants as `users`',
		parameters: {
			resource: 'calendar',
			operation: 'createEvent',
			eventType: '1',
			startsAt: '2026-12-01T10:00:00+01:00',
			endsAt: '2026-12-01T11:00:00+01:00',
			allDay: false,
			participants: {
				participant: [
					{ userId: 1002, isOrganizer: true, isCreator: true },
					{ userId: 1003, isOrganizer: false, isCreator: false },
				],
			},
			additionalFields: { title: 'Visit 5002', locationGeo: { point: { lat: 45.77, lng: 4.83 } } },
		},
		request: {
			method: 'POST',
			path: '/calendar/events',
			body: {
				type: '1',
				starts_at: '2026-12-01T09:00:00Z',
				ends_at: '2026-12-01T10:00:00Z',
				all_day: false,
				users: [
					{ user_id: 1002, is_organizer: true, is_creator: true },
					{ user_id: 1003, is_organizer: false, is_creator: false },
				],
				title: 'Visit 5002',
				location_geo: { lat: 45.77, lng: 4.83 },
			},
		},
	},
	{
		endpoint: 'DELETE /calendar/events/{eventId}',
		title: 'read first, so that a 404 after a lost answer can only be this removal',
		parameters: { resource: 'calendar', operation: 'deleteEvent', eventId: '2' },
		request: { method: 'DELETE', path: '/calendar/events/2', after: ['GET /calendar/events/{eventId}'] },
		verify: ({ output }) => expect(output[0]).toEqual({ deleted: true }),
	},
	{
		endpoint: 'GET /calendar/permanences/timeframe',
		parameters: { resource: 'calendar', operation: 'getPermanenceTimeframe', agencyId: byId(103) },
		request: { method: 'GET', path: '/calendar/permanences/timeframe', query: { agency_id: '103' } },
	},
	plainGet('calendar', 'getEventTypes', '/calendar/events/types'),
	// Beyond the spec, as production serves them (docs/assumptions.md "Production evidence"). The seed's
	// events 1 to 12 fall one a day from 2025-11-03; the fake's workflow time zone is Paris.
	{
		endpoint: 'GET /calendar/events',
		title: 'a period in the workflow time zone sent in UTC without a suffix, filters, perPage and offset',
		parameters: {
			resource: 'calendar',
			operation: 'getAllEvents',
			returnAll: false,
			limit: 3,
			filters: {
				from: '2025-11-03T10:00:00+01:00',
				to: '2025-11-10T00:00:00',
				userIds: '1006, 1002',
				excludedTypes: ['3'],
				archived: true,
				recurring: false,
				userId: byId(1006),
			},
		},
		request: {
			method: 'GET',
			path: '/calendar/events',
			query: {
				from: '2025-11-03T09:00:00',
				to: '2025-11-09T23:00:00',
				user_ids: '1006,1002',
				excluded_types: '3',
				archived: 'true',
				recurring: 'false',
				user_id: '1006',
				offset: '0',
				perPage: '3',
			},
		},
		// Events of users 1006 and 1002 but the valuations: 3 (confidential, 1006 takes part) and 5.
		verify: ({ output }) => expect(output.map((event) => event.id)).toEqual([3, 5]),
	},
	{
		endpoint: 'GET /calendar/events',
		title: 'issue 35: in a Time Zone, the period in it; the dates answered in it',
		parameters: {
			resource: 'calendar',
			operation: 'getAllEvents',
			returnAll: true,
			filters: { from: '2025-11-08T00:00:00Z', to: '2025-11-09T00:00:00Z', timeZone: 'Europe/Paris' },
		},
		request: {
			method: 'GET',
			path: '/calendar/events',
			query: {
				from: '2025-11-08T01:00:00',
				to: '2025-11-09T01:00:00',
				tz: 'Europe/Paris',
				offset: '0',
				perPage: '50',
			},
		},
		verify: ({ output }) => {
			expect(output.map((event) => event.id)).toEqual([6]);
			expect(output[0].starts_at).toMatch(/^2025-11-08T\d{2}:\d{2}:\d{2}\+01:00$/);
		},
	},
	{
		endpoint: 'GET /calendar/events/{eventId}',
		title: 'issue 35: as a user taking part in the confidential event 3, in a Time Zone',
		parameters: {
			resource: 'calendar',
			operation: 'getEvent',
			eventId: '3',
			options: { userId: byId(1006), timeZone: 'Europe/Paris' },
		},
		request: { method: 'GET', path: '/calendar/events/3', query: { user_id: '1006', tz: 'Europe/Paris' } },
		verify: ({ output }) => expect(output[0]).toMatchObject({ id: 3, starts_at: expect.stringMatching(/\+01:00$/) }),
	},
	{
		endpoint: 'GET /calendar/events/{eventId}',
		parameters: { resource: 'calendar', operation: 'getEvent', eventId: '3' },
		request: { method: 'GET', path: '/calendar/events/3' },
		verify: ({ output }) => expect(output[0]).toMatchObject({ id: 3, type: 'OPEN_HOUSE' }),
	},
	{
		endpoint: 'PATCH /calendar/events/{eventId}',
		title: 'only the fields given; participants as `users`',
		parameters: {
			resource: 'calendar',
			operation: 'updateEvent',
			eventId: '4',
			additionalFields: {
				title: 'Valuation with the owners',
				endsAt: '2025-11-06T10:30:00+01:00',
				participants: { participant: [{ userId: '1001', isOrganizer: true, isCreator: true }] },
			},
		},
		request: {
			method: 'PATCH',
			path: '/calendar/events/4',
			body: {
				title: 'Valuation with the owners',
				ends_at: '2025-11-06T09:30:00Z',
				users: [{ user_id: 1001, is_organizer: true, is_creator: true }],
			},
		},
		verify: ({ output }) =>
			expect(output[0]).toMatchObject({ id: 4, title: 'Valuation with the owners', starts_at: '2025-11-06T08:00:00Z' }),
	},
	{
		endpoint: 'PATCH /calendar/events/{eventId}/status',
		title: 'archive sends archived: true',
		parameters: { resource: 'calendar', operation: 'setEventStatus', eventId: '7', statusChange: 'archive' },
		request: { method: 'PATCH', path: '/calendar/events/7/status', body: { archived: true } },
		verify: ({ output }) => expect(output[0]).toMatchObject({ id: 7, archived: true }),
	},
	{
		endpoint: 'GET /calendar/users/{userId}/availability',
		parameters: {
			resource: 'calendar',
			operation: 'getUserAvailability',
			userId: byId(1007),
			options: { from: '2025-11-10T12:00:00Z', to: '2025-11-10T16:00:00Z', slotDuration: 60, excludeTypes: ['OTHER'] },
		},
		request: {
			method: 'GET',
			path: '/calendar/users/1007/availability',
			query: { from: '2025-11-10T12:00:00', to: '2025-11-10T16:00:00', slot_duration: '60', exclude_types: 'OTHER' },
		},
		// User 1007 works until 12:30 and from 14:00; the weekly event 1 holds 13:00 to 14:00.
		verify: ({ output }) =>
			expect(output).toEqual([
				{ starts_at: '2025-11-10T14:00:00Z', ends_at: '2025-11-10T15:00:00Z' },
				{ starts_at: '2025-11-10T15:00:00Z', ends_at: '2025-11-10T16:00:00Z' },
			]),
	},
	{
		endpoint: 'GET /calendar/users/{userId}/working-time',
		parameters: { resource: 'calendar', operation: 'getUserWorkingTime', userId: byId(1002) },
		request: { method: 'GET', path: '/calendar/users/1002/working-time' },
		verify: ({ output }) => expect(Object.keys(output[0])).toEqual(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']),
	},
	{
		endpoint: 'GET /calendar/users/{userId}/shared-agenda',
		parameters: { resource: 'calendar', operation: 'getSharedAgendas', userId: byId(1003) },
		request: { method: 'GET', path: '/calendar/users/1003/shared-agenda' },
		verify: ({ output }) => expect(output.map((user) => user.user_id)).toEqual([1006, 1009]),
	},
	{
		endpoint: 'GET /calendar/permanences/timeframe/users',
		parameters: {
			resource: 'calendar',
			operation: 'getPermanenceUsers',
			agencyId: byId(101),
			options: { from: '2025-11-03T00:00:00Z', to: '2025-11-04T00:00:00Z' },
		},
		request: {
			method: 'GET',
			path: '/calendar/permanences/timeframe/users',
			query: { agency_id: '101', from: '2025-11-03T00:00:00', to: '2025-11-04T00:00:00' },
		},
		verify: ({ output }) => expect(output.map((slot) => slot.user_id)).toEqual([1001, 1004]),
	},
];
