import type { NodeVersion } from '../../nodes/AgencyCrm/catalogue/form';
import { testContext } from '../support/real-n8n/context';
import { admin } from '../support/sandbox/admin';
import { asVersion } from '../support/versions';
import { executeWorkflow, importJson } from '../../tools/n8n/launcher';
import type { NodeSpec } from '../../tools/n8n/workflows';
import { byId, crmNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 27, point 4: every calendar operation production serves beyond the spec, inside real n8n
 * against the sandbox, in one workflow: a chain of node version 1 then one of version 2, each
 * creating its event (user 1008, Thursday 2025-11-20 9:00 UTC), reading, updating, archiving,
 * finding, restoring and deleting it, and reading the user's agenda and agency 102's permanences.
 */
const { origin, client, instance } = testContext();
const credential = sandboxCredential('credCalendar0001', origin, client('demo-client'));

const THURSDAY = { from: '2025-11-20T00:00:00Z', to: '2025-11-21T00:00:00Z' };

function chain(version: NodeVersion): NodeSpec[] {
	const name = (operation: string) => `${operation} v${version}`;
	const created = `={{ $('${name('Create Event')}').first().json.id }}`;
	const node = (operation: string, parameters: Record<string, unknown>) =>
		crmNode(name(operation), credential, asVersion({ resource: 'calendar', ...parameters }, version), {
			executeOnce: true,
			typeVersion: version,
		});
	return [
		node('Create Event', {
			operation: 'createEvent',
			eventType: '2',
			startsAt: '2025-11-20T09:00:00Z',
			endsAt: '2025-11-20T10:00:00Z',
			allDay: false,
			participants: { participant: [{ userId: '1008', isOrganizer: true, isCreator: true }] },
			additionalFields: {},
		}),
		node('Get Event', { operation: 'getEvent', eventId: created }),
		node('Update Event', {
			operation: 'updateEvent',
			eventId: created,
			additionalFields: { title: `Visit v${version}`, endsAt: '2025-11-20T11:30:00+01:00' },
		}),
		node('Archive Event', { operation: 'setEventStatus', eventId: created, statusChange: 'archive' }),
		node('Get Many Events', {
			operation: 'getAllEvents',
			returnAll: true,
			filters: { ...THURSDAY, userIds: '1008', archived: true },
			options: { perPage: 5 },
		}),
		node('Restore Event', { operation: 'setEventStatus', eventId: created, statusChange: 'restore' }),
		node('Get User Availability', {
			operation: 'getUserAvailability',
			userId: byId(1008),
			options: { from: '2025-11-20T08:00:00Z', to: '2025-11-20T12:00:00Z', slotDuration: 60 },
		}),
		node('Get User Working Time', { operation: 'getUserWorkingTime', userId: byId(1008) }),
		node('Get Shared Agendas', { operation: 'getSharedAgendas', userId: byId(1008) }),
		node('Get Permanence Users', { operation: 'getPermanenceUsers', agencyId: byId(102), options: THURSDAY }),
		node('Delete Event', { operation: 'deleteEvent', eventId: created }),
	];
}

beforeAll(async () => {
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [linearWorkflow('wfCalendar000001', [...chain(1), ...chain(2)])]);
});

test('every calendar operation runs in both node versions: the wire as production takes it, the sandbox changed as asked', async () => {
	await admin(origin, 'POST', '/reset');
	const run = await executeWorkflow(instance, 'wfCalendar000001');
	expect(run.error).toBeUndefined();
	const { data: requests } = await admin<{
		data: Array<{ method: string; route: string; query: object; body: unknown }>;
	}>(origin, 'GET', '/requests?limit=200');
	for (const version of [1, 2]) {
		const output = (operation: string) => run.output[`${operation} v${version}`];
		const [event] = output('Create Event');
		expect(event).toMatchObject({ type: 'APPOINTMENT', title: 'Rendez-vous', users: [{ ext_user_id: 1008 }] });
		expect(output('Get Event')).toEqual([event]);
		expect(output('Update Event')).toEqual([{ ...event, title: `Visit v${version}`, ends_at: '2025-11-20T10:30:00Z' }]);
		expect(output('Archive Event')).toEqual([expect.objectContaining({ id: event.id, archived: true })]);
		expect(output('Get Many Events')).toEqual([expect.objectContaining({ id: event.id, archived: true })]);
		expect(output('Restore Event')).toEqual([expect.objectContaining({ id: event.id, archived: false })]);
		// Working 9:00-12:30 on Thursdays, busy 9:00-10:30 with the event.
		expect(output('Get User Availability')).toEqual([
			{ starts_at: '2025-11-20T11:00:00Z', ends_at: '2025-11-20T12:00:00Z' },
		]);
		expect(output('Get User Working Time')).toEqual([
			expect.objectContaining({ SA: [{ start: { hours: 9, minutes: 0 }, end: { hours: 12, minutes: 0 } }] }),
		]);
		expect(output('Get Shared Agendas').map((user) => user.user_id)).toEqual([1002, 1005, 1011]);
		// Agency 102's weekday permanences: 9:00-12:00 and 14:00-19:00.
		expect(output('Get Permanence Users').map((slot) => [slot.starts_at, slot.ends_at])).toEqual([
			['2025-11-20T09:00:00Z', '2025-11-20T12:00:00Z'],
			['2025-11-20T14:00:00Z', '2025-11-20T19:00:00Z'],
		]);
		expect(output('Delete Event')).toEqual([{ deleted: true }]);
		await expect(admin(origin, 'GET', `/records/calendar_event/${String(event.id)}`)).rejects.toThrow(/404/);
	}
	// The wire, the same from both versions.
	const wire = (route: string) =>
		requests.filter((request) => request.route === route).map(({ query, body }) => ({ query, body }));
	expect(wire('GET /calendar/events')).toEqual(
		Array(2).fill({
			query: {
				from: '2025-11-20T00:00:00',
				to: '2025-11-21T00:00:00',
				user_ids: '1008',
				archived: 'true',
				offset: '0',
				perPage: '5',
			},
			body: null,
		}),
	);
	expect(wire('PATCH /calendar/events/{eventId}/status').map(({ body }) => body)).toEqual([
		{ archived: true },
		{ archived: false },
		{ archived: true },
		{ archived: false },
	]);
	expect(wire('GET /calendar/users/{userId}/availability').map(({ query }) => query)).toEqual(
		Array(2).fill({ from: '2025-11-20T08:00:00', to: '2025-11-20T12:00:00', slot_duration: '60' }),
	);
	expect(wire('GET /calendar/permanences/timeframe/users').map(({ query }) => query)).toEqual(
		Array(2).fill({ agency_id: '102', from: '2025-11-20T00:00:00', to: '2025-11-21T00:00:00' }),
	);
});
