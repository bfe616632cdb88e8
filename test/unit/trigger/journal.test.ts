import { JOURNAL_KEY, applyJournal, journalOf, pendingJournal } from '../../../nodes/AgencyCrmTrigger/journal';
import { storedEntries, storedText } from '../../../nodes/AgencyCrmTrigger/memoryStore';
import { ScopeMemory } from '../../../nodes/AgencyCrmTrigger/processMemory';

/** journal.ts: what a journal carries, and how it is written into the static data. */
test('a journal is read only from its own key; what is not a number or a part is left out', () => {
	expect(journalOf({ event_type: 'CUSTOMER_UPDATE', resource_id: 5 })).toBeUndefined();
	expect(
		journalOf({
			[JOURNAL_KEY]: {
				seen: 'customer:5 s - CUSTOMER_UPDATE 1',
				delivered: { deliveredAt: 'soon', lastContactId: 4 },
				replayed: { openedAt: 9, part: 'everything' },
			},
		}),
	).toEqual({ seen: 'customer:5 s - CUSTOMER_UPDATE 1', delivered: { deliveredAt: undefined, lastContactId: 4 } });
});

test('a journal writes the states, moves the progress on, and closes a part replayed; the same again changes nothing', () => {
	const staticData = {
		progress: {
			deliveredAt: 100,
			lastContactId: 4,
			pending: { openedAt: 50, reason: 'restarted', contactsAbove: 4, attempts: 1 },
		},
	};
	const journal = {
		seen: 'customer:5 s - CUSTOMER_UPDATE 1',
		delivered: { deliveredAt: 200 },
		replayed: { openedAt: 50, part: 'contacts' as const, lastContactId: 7 },
	};
	expect(applyJournal(staticData, journal)).toBe(true);
	expect(staticData.progress).toEqual({ deliveredAt: 200, lastContactId: 7 });
	expect([...storedEntries(storedText(staticData)).keys()]).toEqual(['customer:5']);
	expect(applyJournal(staticData, journal)).toBe(false);
});

test("a process's journal: its decisions n8n accepted in the last two minutes, and its progress", () => {
	const scope = new ScopeMemory();
	const now = 10_000_000;
	const decision = (at: number, outcome?: 'accepted' | 'failed') => ({
		state: 's',
		events: ['CUSTOMER_UPDATE'],
		at,
		outcome,
		settled: new Promise<'accepted' | 'failed'>(() => {}),
	});
	scope.decide('customer:1', decision(now - 1000, 'accepted'));
	scope.decide('customer:2', decision(now - 1000, 'failed'));
	scope.decide('customer:3', decision(now - 1000));
	scope.decide('customer:4', decision(now - 200_000, 'accepted'));
	expect(pendingJournal(scope, now)).toEqual({ seen: `customer:1 s - CUSTOMER_UPDATE ${(now - 1000).toString(36)}` });
	scope.advance({ lastContactId: 3 }, {});
	expect(pendingJournal(scope, now)?.delivered).toEqual({ lastContactId: 3 });
	expect(pendingJournal(new ScopeMemory(), now)).toBeUndefined();
});
