import type { Decision } from '../../../../nodes/AgencyCrmTrigger/decision';
import { TriggerMemory } from '../../../../nodes/AgencyCrmTrigger/memory';
import { ScopeMemory } from '../../../../nodes/AgencyCrmTrigger/memory/scope';
import type { Seen } from '../../../../nodes/AgencyCrmTrigger/memory/store';

/**
 * memory/index.ts: a delivery asks what was taken of its record only once the deliveries of that
 * record that came before it in this process are decided, and a replay's state once n8n has stored
 * its execution. Either wait is bounded (5 s), so a wait that never ends would still give the right
 * answer, late: these tests see whether the answer comes as soon as what it waits for is settled,
 * and not before. No clock: `settledNow` lets every promise that can settle do so, then looks.
 */

const CONTACT_5 = 'customer:5';
const SEEN: Seen = { state: 'fingerprint-a', events: ['CUSTOMER_UPDATE'], at: 1_000 };

/** One delivery of `key` in the scope, arrived in that order: nothing written, the static data empty. */
const delivery = (scope: ScopeMemory, key: string) => new TriggerMemory({}, scope, () => {}, { now: 1_000, key });

const startTaking = (key: string, seen: Seen): Decision => ({ action: 'start', item: {}, take: { key, seen } });

/** Whether `promise` has settled once every pending promise callback has run (no timer fires in between). */
async function settledNow<T>(promise: Promise<T>): Promise<{ settled: boolean; value?: T }> {
	let outcome: { settled: boolean; value?: T } = { settled: false };
	void promise.then((value) => (outcome = { settled: true, value }));
	await new Promise((resolve) => setImmediate(resolve));
	return outcome;
}

test('a delivery of a record waits for the one of the same record that came first, and reads what it took', async () => {
	const scope = new ScopeMemory();
	const first = delivery(scope, CONTACT_5);
	const retry = delivery(scope, CONTACT_5);
	const read = retry.lastTaken(CONTACT_5);
	expect(await settledNow(read)).toEqual({ settled: false });
	first.settled(startTaking(CONTACT_5, SEEN), false);
	expect(await settledNow(read)).toEqual({ settled: true, value: expect.objectContaining(SEEN) });
});

test('a delivery of another record, or one that came later, is not waited for', async () => {
	const scope = new ScopeMemory();
	delivery(scope, 'customer:6');
	const contact = delivery(scope, CONTACT_5);
	delivery(scope, CONTACT_5);
	expect(await settledNow(contact.lastTaken(CONTACT_5))).toEqual({ settled: true, value: undefined });
});

test("a replay's state is read once n8n has stored its execution; one n8n could not store counts nothing", async () => {
	const scope = new ScopeMemory();
	const replay = delivery(scope, CONTACT_5);
	const { settle } = replay.settled(startTaking(CONTACT_5, SEEN), true);
	const next = delivery(scope, CONTACT_5);
	const read = next.lastTaken(CONTACT_5);
	expect(await settledNow(read)).toEqual({ settled: false });
	settle(200);
	expect(await settledNow(read)).toEqual({ settled: true, value: expect.objectContaining(SEEN) });
	next.settled({ action: 'ignore' }, false);

	const failed = delivery(scope, CONTACT_5);
	const failedTaking = failed.settled(startTaking(CONTACT_5, { ...SEEN, state: 'fingerprint-b', at: 2_000 }), true);
	const after = delivery(scope, CONTACT_5).lastTaken(CONTACT_5);
	expect(await settledNow(after)).toEqual({ settled: false });
	failedTaking.settle(500);
	expect(await settledNow(after)).toEqual({ settled: true, value: undefined });
});
