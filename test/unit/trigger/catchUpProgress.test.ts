import type { Activation, CatchUpWindow, Progress } from '../../../nodes/AgencyCrmTrigger/catchUpProgress';
import {
	MARGIN_MS,
	activated,
	delivered,
	progressOf,
	replayed,
	writeProgress,
} from '../../../nodes/AgencyCrmTrigger/catchUpProgress';

/**
 * The catch-up's progress (catchUpProgress.ts), one transition at a time: a window owed stays owed
 * until each of its parts was replayed in full, whatever happens meanwhile.
 */
const NOW = Date.parse('2026-05-02T12:00:00Z');
const LAST = Date.parse('2026-05-02T08:00:00Z');
const BOTH = ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'];
const following: Progress = { deliveredAt: LAST, lastContactId: 40 };
const activation = (changes: Partial<Activation> = {}): Activation => ({
	now: NOW,
	existed: true,
	enabled: true,
	events: BOTH,
	...changes,
});
/** The window a suspension found at LAST opens. */
const suspendedWindow: CatchUpWindow = {
	openedAt: NOW,
	reason: 'suspended',
	propertiesSince: LAST - MARGIN_MS,
	contactsAbove: 40,
	attempts: 1,
};

describe('reading and writing', () => {
	test('what cannot be read counts as never followed', () => {
		expect(progressOf({ progress: { deliveredAt: 'yesterday', pending: { reason: 'suspended' } } })).toEqual({
			deliveredAt: undefined,
			lastContactId: undefined,
			pending: undefined,
		});
		expect(progressOf({})).toEqual({ deliveredAt: undefined, lastContactId: undefined, pending: undefined });
	});

	test('writing the same progress changes nothing, so n8n has nothing to save', () => {
		const staticData = {};
		expect(writeProgress(staticData, following)).toBe(true);
		expect(writeProgress(staticData, { ...following, pending: undefined })).toBe(false);
		expect(progressOf(staticData)).toEqual({ ...following, pending: undefined });
	});
});

describe('delivered', () => {
	test('moves the last delivery and the highest contact on, never back', () => {
		expect(delivered(following, { deliveredAt: LAST + 1000, lastContactId: 41 })).toEqual({
			deliveredAt: LAST + 1000,
			lastContactId: 41,
		});
		expect(delivered(following, { deliveredAt: LAST - 1000, lastContactId: 39 })).toEqual(following);
	});

	test('leaves a window owed as it is: deliveries do not cover what was lost before them', () => {
		const owed = { ...following, pending: suspendedWindow };
		expect(delivered(owed, { deliveredAt: NOW }).pending).toBe(suspendedWindow);
	});
});

describe('activated', () => {
	test('the hook found suspended: a window from the last delivery (less the margin) and the last contact; followed from now', () => {
		expect(activated(following, activation({ reason: 'suspended' }))).toEqual({
			progress: { deliveredAt: NOW, lastContactId: 40, pending: suspendedWindow },
			replay: suspendedWindow,
		});
	});

	test("n8n's start opens the same window, for its reason", () => {
		const { replay } = activated(following, activation({ reason: 'restarted' }));
		expect(replay).toEqual({ ...suspendedWindow, reason: 'restarted' });
	});

	test('a window holds only the parts of the events chosen: properties for their updates or creations, contacts for their creations', () => {
		expect(activated(following, activation({ reason: 'suspended', events: ['PRODUCT_UPDATE'] })).replay).toEqual({
			...suspendedWindow,
			contactsAbove: undefined,
		});
		expect(activated(following, activation({ reason: 'suspended', events: ['CUSTOMER_CREATE'] })).replay).toEqual({
			...suspendedWindow,
			propertiesSince: undefined,
		});
		// Deletions and contact updates cannot be looked for: no window.
		const nothingToFind = activated(
			following,
			activation({ reason: 'suspended', events: ['PRODUCT_DELETE', 'CUSTOMER_UPDATE'] }),
		);
		expect(nothingToFind.replay).toBeUndefined();
	});

	test('an ordinary activation of a live hook lost nothing: the progress stays, nothing is replayed', () => {
		expect(activated(following, activation())).toEqual({
			progress: { ...following, pending: undefined },
			replay: undefined,
		});
	});

	test('a hook registered afresh missed nothing: followed from now, from the newest contact', () => {
		expect(activated(following, activation({ existed: false, reason: 'restarted', newestContactId: 77 }))).toEqual({
			progress: { deliveredAt: NOW, lastContactId: 77, pending: undefined },
			replay: undefined,
		});
	});

	test('deliveries never followed: followed from now, whatever the reason', () => {
		const { progress, replay } = activated({}, activation({ reason: 'suspended', newestContactId: 9 }));
		expect(progress).toEqual({ deliveredAt: NOW, lastContactId: 9, pending: undefined });
		expect(replay).toBeUndefined();
	});

	test('a window still owed is replayed again at any activation, its attempts counted, opened again now', () => {
		const owed = {
			deliveredAt: NOW - 60_000,
			lastContactId: 45,
			pending: { ...suspendedWindow, openedAt: NOW - 3_600_000 },
		};
		const later = NOW + 3_600_000;
		const { progress, replay } = activated(owed, activation({ now: later }));
		expect(replay).toEqual({ ...suspendedWindow, openedAt: later, attempts: 2 });
		expect(progress).toEqual({ deliveredAt: NOW - 60_000, lastContactId: 45, pending: replay });
	});

	test('a hook registered afresh (the workflow deactivated meanwhile) still replays the window owed', () => {
		const owed = { ...following, pending: suspendedWindow };
		expect(activated(owed, activation({ existed: false, newestContactId: 50 })).replay).toEqual({
			...suspendedWindow,
			attempts: 2,
		});
	});

	test('a window owed and a new one merge: each part from the earlier start', () => {
		const owed: Progress = {
			deliveredAt: NOW - 60_000,
			lastContactId: 60,
			pending: { openedAt: LAST, reason: 'restarted', propertiesSince: LAST - 7_200_000, attempts: 1 },
		};
		const { replay } = activated(owed, activation({ reason: 'suspended' }));
		expect(replay).toEqual({
			openedAt: NOW,
			reason: 'suspended',
			propertiesSince: LAST - 7_200_000,
			contactsAbove: 60,
			attempts: 2,
		});
	});

	test('a part of events no longer chosen is no longer owed', () => {
		const owed = { ...following, pending: suspendedWindow };
		expect(activated(owed, activation({ events: ['CUSTOMER_CREATE'] })).replay).toEqual({
			...suspendedWindow,
			propertiesSince: undefined,
			attempts: 2,
		});
	});

	test('with the catch-up off, nothing is followed, and a window owed is dropped (for the log)', () => {
		const owed = { ...following, pending: suspendedWindow };
		expect(activated(owed, activation({ enabled: false, reason: 'suspended' }))).toEqual({
			progress: {},
			dropped: suspendedWindow,
		});
	});
});

describe('replayed', () => {
	const owed: Progress = { deliveredAt: NOW, lastContactId: 40, pending: suspendedWindow };

	test('a part replayed in full is no longer owed; the highest contact replayed moves the progress', () => {
		const contactsDone = replayed(owed, { openedAt: NOW, part: 'contacts', lastContactId: 44 });
		expect(contactsDone).toEqual({
			deliveredAt: NOW,
			lastContactId: 44,
			pending: { ...suspendedWindow, contactsAbove: undefined },
		});
		expect(replayed(contactsDone, { openedAt: NOW, part: 'properties' })).toEqual({
			deliveredAt: NOW,
			lastContactId: 44,
			pending: undefined,
		});
	});

	test('a report of an attempt since superseded (the window opened again) changes nothing', () => {
		expect(replayed(owed, { openedAt: NOW - 1, part: 'properties' })).toBe(owed);
		expect(replayed({ deliveredAt: NOW }, { openedAt: NOW, part: 'contacts', lastContactId: 99 })).toEqual({
			deliveredAt: NOW,
		});
	});
});
