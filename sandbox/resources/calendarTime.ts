/**
 * Time in the agenda: the period a calendar search reads, the occurrences of a recurring event, and
 * weekly hours (working time, permanences) laid over a period. Hours of a timeframe are read in UTC:
 * the sandbox has no site time zone (docs/sandbox.md, "Calendar"). A read may ask for another zone
 * (`tz`, the vendor's reference): its period is read, and its date-times written, in that zone.
 */
import type { CalendarEvent, DayCode, Timeframe } from '../model';
import { DAY_CODES } from '../model';
import { toUtc } from '../http';
import type { FieldReader } from '../validation';

const DAY_MS = 86_400_000;

/** `from` and `to` as production reads them: `YYYY-MM-DDTHH:MM:SS`, in UTC; a trailing `Z` is taken too (the evidence is one client). */
const PERIOD_BOUND = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})Z?$/;

export interface Period {
	from: number;
	to: number;
}

/** Midnight UTC of the day of `now`. */
const startOfDay = (now: number) => now - (now % DAY_MS);

/** The day of `now`, the default period of the event search. */
export function currentDay(now = Date.now()): Period {
	const from = startOfDay(now);
	return { from, to: from + DAY_MS };
}

/** Monday to Monday around `now`, the default period of availability and permanence users. */
export function currentWeek(now = Date.now()): Period {
	const day = startOfDay(now);
	// 1970-01-01 was a Thursday: day 0 of the epoch is index 3 from Monday.
	const fromMonday = (Math.floor(day / DAY_MS) + 3) % 7;
	const from = day - fromMonday * DAY_MS;
	return { from, to: from + 7 * DAY_MS };
}

/** `tz`, the time zone a read asks for (an IANA name, as the reference's `Europe/Paris`); undefined: UTC. */
export function readZone(reader: FieldReader): string | undefined {
	const zone = reader.optionalString('tz');
	if (!zone) return undefined;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return zone;
	} catch {
		reader.fail('tz', 'must be a time zone name such as Europe/Paris');
		return undefined;
	}
}

/** How many minutes `zone` is ahead of UTC at the instant `time`. */
function offsetMinutes(zone: string, time: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	}).formatToParts(new Date(time));
	const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return Math.round((wall - (time - (time % 1000))) / 60_000);
}

/** The instant a wall-clock time of `zone` names (given as if it were UTC). */
function fromWallTime(wall: number, zone: string): number {
	const first = wall - offsetMinutes(zone, wall) * 60_000;
	return wall - offsetMinutes(zone, first) * 60_000;
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** A UTC date-time (`…Z`) written in `zone` with its offset (`2025-11-20T10:00:00+01:00`); as it is without a zone. */
function inZone(utc: string, zone: string | undefined): string {
	if (!zone) return utc;
	const time = Date.parse(utc);
	const offset = offsetMinutes(zone, time);
	const wall = new Date(time + offset * 60_000).toISOString().slice(0, 19);
	const sign = offset < 0 ? '-' : '+';
	return `${wall}${sign}${pad2(Math.floor(Math.abs(offset) / 60))}:${pad2(Math.abs(offset) % 60)}`;
}

/** The `starts_at` and `ends_at` of a record written in `zone`. */
export function spanInZone<T extends { starts_at: string; ends_at: string }>(record: T, zone: string | undefined): T {
	return zone
		? { ...record, starts_at: inZone(record.starts_at, zone), ends_at: inZone(record.ends_at, zone) }
		: record;
}

function readBound(reader: FieldReader, key: 'from' | 'to', zone: string | undefined): number | undefined {
	const raw = reader.optionalString(key);
	if (raw === undefined || raw === null) return undefined;
	const match = PERIOD_BOUND.exec(raw);
	const time = match ? Date.parse(`${match[1]}Z`) : Number.NaN;
	if (Number.isNaN(time)) {
		reader.fail(key, 'must be a date-time formatted YYYY-MM-DDTHH:MM:SS');
		return undefined;
	}
	// A bound without its `Z` is a wall-clock time of the zone asked.
	return zone && !raw.endsWith('Z') ? fromWallTime(time, zone) : time;
}

/** The period asked, read in `zone` (UTC by default): `from` and `to` both, or neither (the default). */
export function readPeriod(reader: FieldReader, byDefault: Period, zone?: string): Period {
	const from = readBound(reader, 'from', zone);
	const to = readBound(reader, 'to', zone);
	if (from === undefined && to === undefined) return byDefault;
	if (from === undefined || to === undefined) {
		const missing = from === undefined ? 'from' : 'to';
		if (!reader.refused(missing)) reader.fail(missing, 'is required with the other bound of the period');
		return byDefault;
	}
	if (to <= from) reader.fail('to', 'must be after from');
	return { from, to };
}

const overlaps = (starts: number, ends: number, period: Period) => starts < period.to && ends > period.from;

/** Steps of each frequency; months and years move the calendar date, the others a fixed length. */
const FIXED_STEPS: Record<string, number> = {
	weekly: 7 * DAY_MS,
	daily: DAY_MS,
	hourly: 3_600_000,
	minutely: 60_000,
	secondly: 1000,
};

function advance(start: number, freq: string, count: number): number {
	if (freq in FIXED_STEPS) return start + count * FIXED_STEPS[freq];
	const date = new Date(start);
	if (freq === 'monthly') date.setUTCMonth(date.getUTCMonth() + count);
	else date.setUTCFullYear(date.getUTCFullYear() + count);
	return date.getTime();
}

/** Occurrences looked at for one series at most: enough for a year of hourly slots. */
const MAX_STEPS = 10_000;

/**
 * The starts of a recurring event's occurrences: from `dtstart` every `interval` `freq`, with
 * `byweekday` on a weekly rule (each listed day of each week), until `count` or `until`, less
 * `exdate`. Other BY… rules are kept on the record but not expanded here.
 */
function occurrenceStarts(event: CalendarEvent, period: Period): number[] {
	const rule = event.recurrence;
	if (!rule) return [Date.parse(event.starts_at)];
	const first = Date.parse(rule.dtstart);
	const until = rule.until ? Date.parse(rule.until) : Number.POSITIVE_INFINITY;
	const excluded = new Set(((rule.exdate as string[] | undefined) ?? []).map((date) => Date.parse(date)));
	const weekdays = rule.freq === 'weekly' ? ((rule.byweekday as DayCode[] | undefined) ?? []) : [];
	const dayOffsets = weekdays.length
		? weekdays.map((day) => (DAY_CODES.indexOf(day) - dayIndex(first) + 7) % 7).sort((a, b) => a - b)
		: [0];
	const starts: number[] = [];
	let made = 0;
	for (let step = 0; step < MAX_STEPS; step++) {
		const base = advance(first, rule.freq, step * rule.interval);
		if (base > until || base >= period.to) break;
		for (const offset of dayOffsets) {
			const start = base + offset * DAY_MS;
			if (start > until || (rule.count !== null && made >= rule.count)) return starts;
			made++;
			if (!excluded.has(start)) starts.push(start);
		}
	}
	return starts;
}

/** Monday 0 … Sunday 6. */
const dayIndex = (time: number) => (new Date(time).getUTCDay() + 6) % 7;

/** The event as it occurs in the period: once, or each occurrence of its series with its own start and end (`recurring`). */
export function occurrencesIn(event: CalendarEvent, period: Period, recurring: boolean): CalendarEvent[] {
	const starts = Date.parse(event.starts_at);
	const length = Date.parse(event.ends_at) - starts;
	const times = recurring && event.recurrence ? occurrenceStarts(event, period) : [starts];
	return times
		.filter((start) => overlaps(start, start + length, period))
		.map((start) =>
			start === starts
				? event
				: { ...event, starts_at: toUtc(new Date(start)), ends_at: toUtc(new Date(start + length)) },
		);
}

/** The ranges of a weekly timeframe that fall in the period, as `[start, end)` times. */
export function rangesIn(timeframe: Timeframe, period: Period): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	for (let day = startOfDay(period.from); day < period.to; day += DAY_MS) {
		for (const range of timeframe[DAY_CODES[dayIndex(day)]]) {
			const start = day + (range.start.hours * 60 + range.start.minutes) * 60_000;
			const end = day + (range.end.hours * 60 + range.end.minutes) * 60_000;
			const clipped: [number, number] = [Math.max(start, period.from), Math.min(end, period.to)];
			if (clipped[0] < clipped[1]) ranges.push(clipped);
		}
	}
	return ranges;
}

/** Whole slots of `minutes` in the ranges, none touching a busy range. */
export function freeSlots(
	ranges: Array<[number, number]>,
	busy: Array<[number, number]>,
	minutes: number,
): Array<{ starts_at: string; ends_at: string }> {
	const length = minutes * 60_000;
	const slots: Array<{ starts_at: string; ends_at: string }> = [];
	for (const [start, end] of ranges) {
		for (let slot = start; slot + length <= end; slot += length) {
			if (busy.some(([busyStart, busyEnd]) => busyStart < slot + length && busyEnd > slot)) continue;
			slots.push({ starts_at: toUtc(new Date(slot)), ends_at: toUtc(new Date(slot + length)) });
		}
	}
	return slots;
}
