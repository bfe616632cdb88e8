import { AgencyCrmTrigger } from '../../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import type { Taking } from '../../../../nodes/AgencyCrmTrigger/memory/scope';
import {
	JOURNAL_KEY,
	REMEMBERED_WORKFLOWS,
	ScopeMemory,
	applyJournal,
	journalOf,
	keptScopes,
	scopeMemory,
} from '../../../../nodes/AgencyCrmTrigger/memory/scope';
import {
	REMEMBERED_RECORDS,
	progressOf,
	storedEntries,
	storedText,
} from '../../../../nodes/AgencyCrmTrigger/memory/store';
import { status } from '../../../support/fakeN8n';
import { TriggerWorld, customerUpdate, record } from '../../../support/triggerWorld';

/** memory/scope.ts: what one n8n process keeps, released with its workflow and bounded, and the journals that write it. */
const contextOf = (workflowId: string) =>
	({ getWorkflow: () => ({ id: workflowId }), getNode: () => ({ name: 'Agency CRM Trigger' }) }) as never;
const taking = (at: number, outcome?: 'accepted' | 'failed'): Taking => ({
	state: 's',
	events: ['CUSTOMER_UPDATE'],
	at,
	outcome,
	settled: new Promise(() => {}),
});

test('deactivating a workflow releases what this process kept of it', async () => {
	const world = new TriggerWorld();
	world.activatedBefore();
	await world.deliver(customerUpdate(5), {
		parameters: { dropRepeatedDeliveries: true },
		answers: [record({ id: 5 })],
	});
	await world.written();
	expect(world.scope().takings.size).toBe(1);
	await world.deactivate([status(204)]);
	// A scope asked for afresh is empty: the old one was released.
	expect(world.scope().takings.size).toBe(0);
	expect(new AgencyCrmTrigger().description.name).toBe('agencyCrmTrigger');
});

test(`at most ${REMEMBERED_WORKFLOWS} workflows are kept, the least recently used forgotten first`, () => {
	for (let index = 0; index <= REMEMBERED_WORKFLOWS + 10; index++) scopeMemory(contextOf(`bounded-${index}`));
	expect(keptScopes()).toBe(REMEMBERED_WORKFLOWS);
	expect(scopeMemory(contextOf('bounded-0')).takings.size).toBe(0);
});

test(`at most ${REMEMBERED_RECORDS} states per workflow, the oldest n8n answered forgotten first (one still unanswered stays)`, () => {
	const scope = new ScopeMemory();
	scope.take('pending', taking(0));
	for (let index = 0; index < REMEMBERED_RECORDS; index++)
		scope.take(`customer:${index}`, taking(index + 1, 'accepted'));
	expect(scope.takings.size).toBe(REMEMBERED_RECORDS);
	expect(scope.takings.has('pending')).toBe(true);
	expect(scope.takings.has('customer:0')).toBe(false);
});

describe('the journal', () => {
	const now = 10_000_000;

	test('carries the states n8n accepted no journal wrote yet, and those first written in the last two minutes', () => {
		const scope = new ScopeMemory();
		scope.take('customer:1', taking(now - 1000, 'accepted'));
		scope.take('customer:2', taking(now - 1000, 'failed'));
		scope.take('customer:3', taking(now - 1000));
		scope.take('customer:4', { ...taking(now - 200_000, 'accepted'), journaledAt: now - 130_000 });
		scope.take('customer:5', { ...taking(now - 200_000, 'accepted'), journaledAt: now - 110_000 });
		scope.take('customer:6', taking(now - 200_000, 'accepted'));
		const { journal, written } = scope.journal(now);
		const keys = (text?: string) => text?.split('\n').map((line) => line.split(' ')[0]);
		expect(keys(journal.seen)).toEqual(['customer:1', 'customer:5', 'customer:6']);
		written();
		expect(keys(scope.journal(now + 115_000).journal.seen)).toEqual(['customer:1', 'customer:6']);
	});

	test('writes a delivery under way as owed once, bounds the watermark by it, and settles it once taken', () => {
		const scope = new ScopeMemory();
		const arrival = Symbol('delivery');
		const owed = { event: 'CUSTOMER_UPDATE', id: 5, at: now - 5000 };
		scope.underWay.set(arrival, { at: now - 5000, delivery: owed, written: false });
		const first = scope.journal(now);
		expect(first.journal).toEqual({ owed: [owed], takenUpTo: now - 5000 });
		first.written();
		expect(scope.journal(now).journal.owed).toBeUndefined();
		scope.done(arrival, true);
		expect(scope.journal(now).journal).toEqual({ settled: [owed], takenUpTo: now });
	});

	test('a delivery taken before any journal wrote it owes nothing; one whose read failed is said failed', () => {
		const scope = new ScopeMemory();
		const [taken, failed] = [Symbol('taken'), Symbol('failed')];
		const delivery = (id: number) => ({ event: 'CUSTOMER_UPDATE', id, at: now });
		scope.underWay.set(taken, { at: now, delivery: delivery(1), written: false });
		scope.underWay.set(failed, { at: now, delivery: delivery(2), written: false });
		scope.done(taken, true);
		scope.done(failed, false);
		expect(scope.journal(now).journal).toEqual({ failed: [delivery(2)], takenUpTo: now });
	});

	test('is read only from its own key; what is not a number or a delivery is left out', () => {
		expect(journalOf({ event_type: 'CUSTOMER_UPDATE', resource_id: 5 })).toBeUndefined();
		expect(
			journalOf({
				[JOURNAL_KEY]: {
					seen: 'customer:5 s - CUSTOMER_UPDATE 1',
					takenUpTo: 'soon',
					owed: [{ id: 5 }],
					replayedUntil: 7,
				},
			}),
		).toEqual({
			seen: 'customer:5 s - CUSTOMER_UPDATE 1',
			takenUpTo: undefined,
			owed: [],
			settled: [],
			failed: [],
			replayedUntil: 7,
		});
	});

	test('writes the states, the owed and the failed, moves the watermark, closes a replay; the same again changes nothing', () => {
		const staticData = { progress: { watermark: 100, replaying: { until: 150, attempts: 1 }, owed: [] } };
		const owed = { event: 'CUSTOMER_UPDATE', id: 5, at: 120 };
		const journal = {
			seen: 'customer:5 s - CUSTOMER_UPDATE 1',
			owed: [owed],
			failed: [owed],
			replayedUntil: 150,
			takenUpTo: 200,
		};
		expect(applyJournal(staticData, journal)).toBe(true);
		expect(progressOf(staticData)).toEqual({ watermark: 200, replaying: undefined, owed: [{ ...owed, failed: true }] });
		expect([...storedEntries(storedText(staticData)).keys()]).toEqual(['customer:5']);
		expect(applyJournal(staticData, journal)).toBe(false);
		applyJournal(staticData, { settled: [owed] });
		expect(progressOf(staticData).owed).toEqual([]);
	});
});
