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
		parameters: { resource: 'calendar', operation: 'deleteEvent', eventId: '2' },
		request: { method: 'DELETE', path: '/calendar/events/2' },
		verify: ({ output }) => expect(output[0]).toEqual({ deleted: true }),
	},
	{
		endpoint: 'GET /calendar/permanences/timeframe',
		parameters: { resource: 'calendar', operation: 'getPermanenceTimeframe', agencyId: byId(103) },
		request: { method: 'GET', path: '/calendar/permanences/timeframe', query: { agency_id: '103' } },
	},
	plainGet('calendar', 'getEventTypes', '/calendar/events/types'),
];
