/** Calendar: event creation rules, deletion, event types and permanences (SITE_CALENDAR permissions). */
import { pathRecord, requireAgencyInScope, route } from '../api';
import type { ApiRoute, World } from '../api';
import { noContent, ok } from '../http';
import { DAY_CODES } from '../model';
import type { CalendarEvent, CalendarParticipant, Recurrence } from '../model';
import type { Store } from '../store';
import { FieldReader, isObject, isUtcDateTime, objectBody } from '../validation';

const APPOINTMENT_MODES = ['OFFICE', 'PHONE', 'PRODUCT', 'VISIO'] as const;
const FREQUENCIES = ['yearly', 'monthly', 'weekly', 'daily', 'hourly', 'minutely', 'secondly'] as const;
const INTEGER_RULES = ['bymonth', 'bymonthday', 'bynmonthday', 'byyearday', 'byweekno', 'bysetpos'];
const NULLABLE_INTEGERS = ['sequence_duration', 'gathering_gauge', 'commute_duration', 'remind_time_in_min'] as const;
const NULLABLE_BOOLEANS = ['communicate_location', 'is_confidential', 'archived'] as const;
const NULLABLE_STRINGS = [
	'location',
	'notes',
	'visio_url',
	'visit360_organizer_url',
	'visit360_participation_url',
] as const;

function calendarEventView({ site_id: _site, ...event }: CalendarEvent): Omit<CalendarEvent, 'site_id'> {
	return event;
}

/**
 * The participants ("users", array or null). Null, or no `users` at all (the key is our guess, so
 * the node leaves an empty list out), creates an event without participants; a list needs exactly
 * one organizer and one creator (spec section 4), so an empty list is refused.
 */
function readParticipants(reader: FieldReader, store: Store, siteId: number): CalendarParticipant[] {
	const items = reader.optionalArray('users', { nullable: true });
	if (items === null || items === undefined) return [];
	if (items.length === 0) {
		reader.fail('users', 'must list the participants, with exactly one organizer and one creator, or be null');
		return [];
	}
	const participants: CalendarParticipant[] = [];
	items.forEach((item, index) => {
		if (!isObject(item))
			return reader.fail(`users[${index}]`, 'must be an object with user_id, is_creator and is_organizer');
		const itemReader = reader.nested(item, `users[${index}]`);
		const userId = itemReader.requiredInteger('user_id', { min: 1 });
		const isCreator = itemReader.requiredBoolean('is_creator');
		const isOrganizer = itemReader.requiredBoolean('is_organizer');
		if (userId && participants.some((participant) => participant.ext_user_id === userId))
			itemReader.fail('user_id', `user ${userId} is listed twice`);
		else if (userId && !store.users.getInSite(userId, siteId)) itemReader.fail('user_id', `unknown user ${userId}`);
		participants.push({ ext_user_id: userId, is_creator: isCreator, is_organizer: isOrganizer });
	});
	const organizers = participants.filter((participant) => participant.is_organizer).length;
	const creators = participants.filter((participant) => participant.is_creator).length;
	if (organizers !== 1) reader.fail('users', `must have exactly one is_organizer true (got ${organizers})`);
	if (creators !== 1) reader.fail('users', `must have exactly one is_creator true (got ${creators})`);
	return participants;
}

function readRecurrence(reader: FieldReader): Recurrence | null {
	const recurrence = reader.optionalObject('recurrence', { nullable: true });
	if (!recurrence) return null;
	const rules = reader.nested(recurrence, 'recurrence');
	const result: Recurrence = {
		dtstart: rules.requiredUtc('dtstart'),
		freq: rules.requiredOneOf('freq', FREQUENCIES),
		interval: rules.requiredInteger('interval', { min: 1 }),
		count: rules.optionalInteger('count', { nullable: true, min: 1 }) ?? null,
		until: rules.optionalUtc('until', { nullable: true }) ?? null,
	};
	if (result.count !== null && result.until !== null) rules.fail('count', 'cannot be combined with until');
	for (const key of INTEGER_RULES) {
		const values = rules.optionalIntegerList(key, { nullable: true });
		if (values) result[key] = values;
	}
	const weekdays = rules.optionalStringList('byweekday', { nullable: true });
	weekdays
		?.filter((day) => !(DAY_CODES as readonly string[]).includes(day))
		.forEach((day) => rules.fail('byweekday', `unknown day code ${day}; use ${DAY_CODES.join(', ')}`));
	if (weekdays) result.byweekday = weekdays;
	const nthWeekdays = rules.optionalArray('bynweekday', { nullable: true });
	nthWeekdays?.forEach((pair, index) => {
		const valid =
			Array.isArray(pair) &&
			pair.length === 2 &&
			Number.isInteger(pair[0]) &&
			pair[0] >= 0 &&
			pair[0] <= 6 &&
			Number.isInteger(pair[1]);
		if (!valid) rules.fail(`bynweekday[${index}]`, 'must be a pair [weekday_index 0=Monday..6=Sunday, position]');
	});
	if (nthWeekdays) result.bynweekday = nthWeekdays;
	const exdates = rules.optionalStringList('exdate', { nullable: true });
	exdates?.forEach((date, index) => {
		if (!isUtcDateTime(date)) rules.fail(`exdate[${index}]`, 'must be a UTC datetime formatted YYYY-MM-DDTHH:MM:SSZ');
	});
	if (exdates) result.exdate = exdates;
	return result;
}

/** Reads a list of record ids that must exist in the site (`products` and `contacts`). */
function readRecordIds(reader: FieldReader, key: string, exists: (id: number) => boolean): number[] {
	const ids = reader.optionalIntegerList(key, { nullable: true }) ?? [];
	ids.forEach((id, index) => {
		if (!exists(id)) reader.fail(`${key}[${index}]`, `unknown id ${id}`);
	});
	return ids;
}

function readEvent(reader: FieldReader, store: Store, siteId: number): CalendarEvent {
	const eventTypes = store.referentials.eventTypes;
	const typeId = reader.requiredOneOf(
		'type',
		eventTypes.map((type) => type.id),
	);
	const type = eventTypes.find((candidate) => candidate.id === typeId) ?? eventTypes[0];
	const startsAt = reader.requiredUtc('starts_at');
	const endsAt = reader.requiredUtc('ends_at');
	if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt))
		reader.fail('ends_at', 'must be after starts_at');
	const allDay = reader.requiredBoolean('all_day');
	const geo = reader.optionalObject('location_geo', { nullable: true });
	if (geo) {
		const geoReader = reader.nested(geo, 'location_geo');
		if (!geoReader.has('lat')) geoReader.fail('lat', 'is required with lng');
		if (!geoReader.has('lng')) geoReader.fail('lng', 'is required with lat');
		geoReader.optionalNumber('lat', { min: -90, max: 90 });
		geoReader.optionalNumber('lng', { min: -180, max: 180 });
	}
	const event: CalendarEvent = {
		id: 0,
		site_id: siteId,
		type: type.key,
		starts_at: startsAt,
		ends_at: endsAt,
		all_day: allDay,
		// Falls back to the type label when null (spec).
		title: reader.optionalString('title', { nullable: true, maxLength: 255 }) ?? type.label,
		location: null,
		location_geo: geo ? { lat: geo.lat as number, lng: geo.lng as number } : null,
		sequence_duration: null,
		gathering_gauge: null,
		commute_duration: null,
		communicate_location: null,
		is_confidential: null,
		remind_time_in_min: null,
		appointment_mode: reader.optionalOneOf('appointment_mode', APPOINTMENT_MODES, { nullable: true }) ?? null,
		users: readParticipants(reader, store, siteId),
		products: readRecordIds(reader, 'products', (id) => !!store.products.getInSite(id, siteId)).map((id) => ({
			ext_product_id: String(id),
			ext_domain_id: String(siteId),
		})),
		contacts: readRecordIds(reader, 'contacts', (id) => !!store.customers.getInSite(id, siteId)).map((id) => ({
			ext_contact_id: String(id),
			ext_domain_id: String(siteId),
		})),
		notes: null,
		visio_url: null,
		visit360_organizer_url: null,
		visit360_participation_url: null,
		archived: null,
		parent_id: reader.optionalInteger('parent_id', { nullable: true, min: 1 }) ?? null,
		recurrence: readRecurrence(reader),
	};
	for (const key of NULLABLE_INTEGERS) event[key] = reader.optionalInteger(key, { nullable: true, min: 0 }) ?? null;
	for (const key of NULLABLE_BOOLEANS) event[key] = reader.optionalBoolean(key, { nullable: true }) ?? null;
	for (const key of NULLABLE_STRINGS)
		event[key] = reader.optionalString(key, { nullable: true, maxLength: 2000 }) ?? null;
	if (event.parent_id !== null && !store.calendarEvents.getInSite(event.parent_id, siteId))
		reader.fail('parent_id', `unknown event ${event.parent_id}`);
	return event;
}

export function calendarRoutes({ store }: World): ApiRoute[] {
	return [
		route('POST', '/calendar/events', { calendar: 'WRITE' }, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const event = readEvent(reader, store, request.grant.siteId);
			reader.throwIfInvalid();
			event.id = store.calendarEvents.nextId();
			store.calendarEvents.insert(event);
			return ok(calendarEventView(event));
		}),
		route('DELETE', '/calendar/events/{eventId}', { calendar: 'WRITE' }, (request) => {
			const event = pathRecord(request, store.calendarEvents, 'eventId', 'Calendar event');
			store.calendarEvents.delete(event.id);
			return noContent();
		}),
		route('GET', '/calendar/events/types', { calendar: 'READ' }, () => ok(store.referentials.eventTypes)),
		route('GET', '/calendar/permanences/timeframe', { calendar: 'READ' }, (request) => {
			const reader = FieldReader.forQuery(request.query);
			const agencyId = reader.requiredInteger('agency_id');
			reader.throwIfInvalid();
			requireAgencyInScope(request, agencyId);
			// An agency without configured permanences has no slot on any day.
			return ok(store.referentials.permanences.get(agencyId) ?? Object.fromEntries(DAY_CODES.map((day) => [day, []])));
		}),
	];
}
