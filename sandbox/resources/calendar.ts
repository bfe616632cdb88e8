/**
 * Calendar (SITE_CALENDAR permissions, and the site's agenda module: sandbox/api.ts): event creation
 * rules, deletion, event types and permanences (spec section 4); the event read, update, status and
 * search, a user's availability, working time and shared agendas, and permanence users, which
 * production serves beyond the spec (docs/assumptions.md "Production evidence").
 */
import { pathRecord, requireAgencyInScope, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { noContent, notFound, ok, toUtc } from '../http';
import { DAY_CODES } from '../model';
import type { CalendarEvent, CalendarParticipant, Recurrence, Timeframe, User } from '../model';
import { offsetSlice } from '../pagination';
import type { Store } from '../store';
import { FieldReader, isObject, isUtcDateTime, objectBody } from '../validation';
import {
	currentDay,
	currentWeek,
	freeSlots,
	occurrencesIn,
	rangesIn,
	readPeriod,
	readZone,
	spanInZone,
} from './calendarTime';

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

/** What a create or an update says of an event: every key given (a create must give the four the spec requires). */
type EventChanges = Partial<Omit<CalendarEvent, 'id' | 'site_id'>>;

/** Nullable fields with no further rule: a create fills the ones left out with null. */
const NULLABLE_FIELDS = [...NULLABLE_INTEGERS, ...NULLABLE_BOOLEANS, ...NULLABLE_STRINGS] as const;

function readEventChanges(reader: FieldReader, store: Store, siteId: number, isNew: boolean): EventChanges {
	const changes: EventChanges = {};
	const given = (key: string) => isNew || reader.has(key);
	const eventTypes = store.referentials.eventTypes;
	if (given('type')) {
		const typeId = reader.requiredOneOf(
			'type',
			eventTypes.map((type) => type.id),
		);
		changes.type = (eventTypes.find((candidate) => candidate.id === typeId) ?? eventTypes[0]).key;
	}
	if (given('starts_at')) changes.starts_at = reader.requiredUtc('starts_at');
	if (given('ends_at')) changes.ends_at = reader.requiredUtc('ends_at');
	if (given('all_day')) changes.all_day = reader.requiredBoolean('all_day');
	if (reader.has('title')) changes.title = reader.optionalString('title', { nullable: true, maxLength: 255 }) ?? null;
	if (reader.has('location_geo')) {
		const geo = reader.optionalObject('location_geo', { nullable: true });
		if (geo) {
			const geoReader = reader.nested(geo, 'location_geo');
			if (!geoReader.has('lat')) geoReader.fail('lat', 'is required with lng');
			if (!geoReader.has('lng')) geoReader.fail('lng', 'is required with lat');
			geoReader.optionalNumber('lat', { min: -90, max: 90 });
			geoReader.optionalNumber('lng', { min: -180, max: 180 });
		}
		changes.location_geo = geo ? { lat: geo.lat as number, lng: geo.lng as number } : null;
	}
	if (reader.has('appointment_mode'))
		changes.appointment_mode = reader.optionalOneOf('appointment_mode', APPOINTMENT_MODES, { nullable: true }) ?? null;
	if (given('users')) changes.users = readParticipants(reader, store, siteId);
	if (reader.has('products'))
		changes.products = readRecordIds(reader, 'products', (id) => !!store.products.getInSite(id, siteId)).map((id) => ({
			ext_product_id: String(id),
			ext_domain_id: String(siteId),
		}));
	if (reader.has('contacts'))
		changes.contacts = readRecordIds(reader, 'contacts', (id) => !!store.customers.getInSite(id, siteId)).map((id) => ({
			ext_contact_id: String(id),
			ext_domain_id: String(siteId),
		}));
	if (reader.has('parent_id')) {
		changes.parent_id = reader.optionalInteger('parent_id', { nullable: true, min: 1 }) ?? null;
		if (changes.parent_id !== null && !store.calendarEvents.getInSite(changes.parent_id, siteId))
			reader.fail('parent_id', `unknown event ${changes.parent_id}`);
	}
	if (reader.has('recurrence')) changes.recurrence = readRecurrence(reader);
	const record = changes as Record<string, unknown>;
	for (const key of NULLABLE_INTEGERS)
		if (reader.has(key)) record[key] = reader.optionalInteger(key, { nullable: true, min: 0 }) ?? null;
	for (const key of NULLABLE_BOOLEANS)
		if (reader.has(key)) record[key] = reader.optionalBoolean(key, { nullable: true }) ?? null;
	for (const key of NULLABLE_STRINGS)
		if (reader.has(key)) record[key] = reader.optionalString(key, { nullable: true, maxLength: 2000 }) ?? null;
	return changes;
}

/** The event a create or an update makes: ends after it starts; a null title falls back to the type label (spec). */
function settledEvent(reader: FieldReader, store: Store, event: CalendarEvent): CalendarEvent {
	if (event.starts_at && event.ends_at && Date.parse(event.ends_at) <= Date.parse(event.starts_at))
		reader.fail('ends_at', 'must be after starts_at');
	const type = store.referentials.eventTypes.find((candidate) => candidate.key === event.type);
	return { ...event, title: event.title ?? type?.label ?? null };
}

function newEvent(reader: FieldReader, store: Store, siteId: number): CalendarEvent {
	const changes = readEventChanges(reader, store, siteId, true);
	const blank = Object.fromEntries(NULLABLE_FIELDS.map((key) => [key, null]));
	return settledEvent(reader, store, {
		...(blank as Pick<CalendarEvent, (typeof NULLABLE_FIELDS)[number]>),
		id: 0,
		site_id: siteId,
		type: '',
		starts_at: '',
		ends_at: '',
		all_day: false,
		title: null,
		location_geo: null,
		appointment_mode: null,
		users: [],
		products: [],
		contacts: [],
		parent_id: null,
		recurrence: null,
		...changes,
	});
}

/** The user a path names, in the token's site. */
function pathUser(request: ApiRequest, store: Store): User {
	return pathRecord(request, store.users, 'userId', 'User');
}

/**
 * A user's working hours, the same every week: the sandbox's seed (production keeps them per user).
 * Mornings and afternoons on weekdays; every third user also works Saturday morning; inactive users
 * have none.
 */
function workingTimeOf(user: User): Timeframe {
	const range = (from: number, to: number) => ({
		start: { hours: Math.floor(from), minutes: (from % 1) * 60 },
		end: { hours: Math.floor(to), minutes: (to % 1) * 60 },
	});
	const weekday = user.is_active ? [range(9, 12.5), range(14, 18.5)] : [];
	const saturday = user.is_active && user.user_id % 3 === 0 ? [range(9, 12)] : [];
	return Object.fromEntries(
		DAY_CODES.map((day) => [day, day === 'SA' ? saturday : day === 'SU' ? [] : weekday]),
	) as Timeframe;
}

const takesPart = (event: CalendarEvent, userId: number) => event.users.some((user) => user.ext_user_id === userId);

/** Comma-separated integers of the query (`user_ids`, `agency_ids`). */
function readIdList(reader: FieldReader, key: string): number[] | undefined {
	const raw = reader.optionalString(key);
	if (raw === undefined || raw === null || raw.trim() === '') return undefined;
	const ids = raw.split(',').map((entry) => entry.trim());
	if (ids.some((id) => !/^\d+$/.test(id))) reader.fail(key, 'must be comma-separated integers');
	return ids.map(Number);
}

/** `user_id`: the user whose view of the agenda applies (the vendor's reference), a user of the site. */
function readViewer(reader: FieldReader, store: Store, siteId: number): number | undefined {
	const viewer = reader.optionalInteger('user_id', { min: 1 }) ?? undefined;
	if (viewer !== undefined && !store.users.getInSite(viewer, siteId)) reader.fail('user_id', `unknown user ${viewer}`);
	return viewer;
}

/** Pages of the event search: `perPage` above 50 is served as 50 (the vendor's reference). */
const MAX_EVENTS_PER_PAGE = 50;

/** The events of the search, in start order, as the query asks (docs/sandbox.md, "Calendar"). */
function searchEvents(request: ApiRequest, store: Store) {
	const reader = FieldReader.forQuery(request.query);
	const zone = readZone(reader);
	const period = readPeriod(reader, currentDay(), zone);
	const offset = reader.optionalInteger('offset', { min: 0 }) ?? 0;
	const perPage = Math.min(reader.optionalInteger('perPage', { min: 1 }) ?? MAX_EVENTS_PER_PAGE, MAX_EVENTS_PER_PAGE);
	const archived = reader.optionalBoolean('archived') ?? false;
	const recurring = reader.optionalBoolean('recurring') ?? true;
	const viewer = readViewer(reader, store, request.grant.siteId);
	const userIds = readIdList(reader, 'user_ids');
	const agencyIds = readIdList(reader, 'agency_ids');
	const excludedTypes = (request.query.get('excluded_types') ?? '')
		.split(',')
		.map((id) => store.referentials.eventTypes.find((type) => type.id === id.trim())?.key)
		.filter(Boolean);
	reader.throwIfInvalid();
	for (const agencyId of agencyIds ?? []) requireAgencyInScope(request, agencyId);
	const agencyOf = (userId: number) => store.users.get(userId)?.agency_id;
	const keep = (event: CalendarEvent) =>
		(archived || !event.archived) &&
		!excludedTypes.includes(event.type) &&
		(!event.is_confidential || viewer === undefined || takesPart(event, viewer)) &&
		(!userIds || userIds.some((userId) => takesPart(event, userId))) &&
		(!agencyIds || event.users.some((user) => agencyIds.includes(agencyOf(user.ext_user_id) ?? 0)));
	const matching = store.calendarEvents
		.forSite(request.grant.siteId)
		.filter(keep)
		.flatMap((event) => occurrencesIn(event, period, recurring))
		.sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id - b.id);
	const { data, hasMore } = offsetSlice(matching, offset, perPage);
	const view = (event: CalendarEvent) => spanInZone(calendarEventView(event), zone);
	return ok(data.map(view), { offset, perPage, total: matching.length, has_more: hasMore });
}

/** A user's free slots: working hours less the events they take part in (confidential ones too: the slot is busy). */
function availability(request: ApiRequest, store: Store) {
	const user = pathUser(request, store);
	const reader = FieldReader.forQuery(request.query);
	const zone = readZone(reader);
	const period = readPeriod(reader, currentWeek(), zone);
	const minutes = reader.optionalInteger('slot_duration', { min: 1, max: 1440 }) ?? 30;
	const ignored = (request.query.get('exclude_types') ?? '').split(',').map((key) => key.trim());
	reader.throwIfInvalid();
	const busy = store.calendarEvents
		.forSite(user.site_id)
		.filter((event) => !event.archived && !ignored.includes(event.type) && takesPart(event, user.user_id))
		.flatMap((event) => occurrencesIn(event, period, true))
		.map((event): [number, number] => [Date.parse(event.starts_at), Date.parse(event.ends_at)]);
	return ok(freeSlots(rangesIn(workingTimeOf(user), period), busy, minutes).map((slot) => spanInZone(slot, zone)));
}

/** Who holds each permanence slot of the agency in the period: its active users in turn. */
function permanenceUsers(request: ApiRequest, store: Store) {
	const reader = FieldReader.forQuery(request.query);
	const agencyId = reader.requiredInteger('agency_id');
	const zone = readZone(reader);
	const period = readPeriod(reader, currentWeek(), zone);
	reader.throwIfInvalid();
	requireAgencyInScope(request, agencyId);
	const timeframe = store.referentials.permanences.get(agencyId);
	const staff = store.users
		.forSite(request.grant.siteId)
		.filter((user) => user.agency_id === agencyId && user.is_active);
	if (!timeframe || staff.length === 0) return ok([]);
	return ok(
		rangesIn(timeframe, period).map(([start, end], index) => {
			const user = staff[index % staff.length];
			const span = { starts_at: toUtc(new Date(start)), ends_at: toUtc(new Date(end)) };
			return { ...spanInZone(span, zone), user_id: user.user_id, firstname: user.firstname, lastname: user.lastname };
		}),
	);
}

export function calendarRoutes({ store }: World): ApiRoute[] {
	const pathEvent = (request: ApiRequest) => pathRecord(request, store.calendarEvents, 'eventId', 'Calendar event');
	return [
		route('POST', '/calendar/events', { calendar: 'WRITE' }, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			const event = newEvent(reader, store, request.grant.siteId);
			reader.throwIfInvalid();
			event.id = store.calendarEvents.nextId();
			store.calendarEvents.insert(event);
			return ok(calendarEventView(event));
		}),
		route('GET', '/calendar/events', { calendar: 'READ' }, (request) => searchEvents(request, store)),
		route('GET', '/calendar/events/{eventId}', { calendar: 'READ' }, (request) => {
			const event = pathEvent(request);
			const reader = FieldReader.forQuery(request.query);
			const zone = readZone(reader);
			const viewer = readViewer(reader, store, request.grant.siteId);
			reader.throwIfInvalid();
			// As the search leaves it out, a confidential event is not found in the view of a user not taking part.
			if (event.is_confidential && viewer !== undefined && !takesPart(event, viewer))
				throw notFound(`Calendar event ${event.id}`);
			return ok(spanInZone(calendarEventView(event), zone));
		}),
		route('PATCH', '/calendar/events/{eventId}', { calendar: 'WRITE' }, (request) => {
			const event = pathEvent(request);
			const reader = new FieldReader(objectBody(request.body));
			const changes = readEventChanges(reader, store, event.site_id, false);
			const updated = settledEvent(reader, store, { ...event, ...changes });
			reader.throwIfInvalid();
			Object.assign(event, updated);
			return ok(calendarEventView(event));
		}),
		route('PATCH', '/calendar/events/{eventId}/status', { calendar: 'WRITE' }, (request) => {
			const event = pathEvent(request);
			const reader = new FieldReader(objectBody(request.body));
			const archived = reader.requiredBoolean('archived');
			reader.throwIfInvalid();
			event.archived = archived;
			return ok(calendarEventView(event));
		}),
		route('DELETE', '/calendar/events/{eventId}', { calendar: 'WRITE' }, (request) => {
			store.calendarEvents.delete(pathEvent(request).id);
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
		route('GET', '/calendar/permanences/timeframe/users', { calendar: 'READ' }, (request) =>
			permanenceUsers(request, store),
		),
		route('GET', '/calendar/users/{userId}/availability', { calendar: 'READ' }, (request) =>
			availability(request, store),
		),
		route('GET', '/calendar/users/{userId}/working-time', { calendar: 'READ' }, (request) =>
			ok(workingTimeOf(pathUser(request, store))),
		),
		route('GET', '/calendar/users/{userId}/shared-agenda', { calendar: 'READ' }, (request) => {
			const user = pathUser(request, store);
			// Colleagues of the same agency share their agendas with each other.
			return ok(
				store.users
					.forSite(user.site_id)
					.filter((other) => other.agency_id === user.agency_id && other.user_id !== user.user_id && other.is_active)
					.map(({ user_id, firstname, lastname, email, agency_id }) => ({
						user_id,
						firstname,
						lastname,
						email,
						agency_id,
					})),
			);
		}),
	];
}
