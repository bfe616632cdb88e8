import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Decision } from '../decision';
import type { JournalWriter, Outcome, ScopeMemory, Taking } from './scope';
import { PROCESS_STARTED_AT, applyJournal, journalOf, journalWriter, scopeMemory, writeSoon } from './scope';
import type { OwedDelivery, ReplayWindow, Seen } from './store';
import { laterOf, owedDue, progressOf, restarted, storedSeen, storedText, writeProgress } from './store';

export { forgetInThisProcess, journalWriter, replayingSinceStart } from './scope';
export type { JournalWriter } from './scope';

/**
 * The trigger's one memory, per workflow: the states its workflow took, up to when it took every
 * change (the watermark), and what it owes (store.ts). Judged by decision.ts only: a delivery asks
 * it what was taken, and tells it what was decided. It reads the static data as n8n loaded it for
 * the delivery (what every process wrote) and this process's own memory of the trigger node
 * (scope.ts), which the static data may not hold yet, or another process's whole write erased. It
 * writes through journals (store.ts), soon after. Every doubt starts the workflow: a duplicate
 * execution is better than a lost change.
 */

/** How long a repeat waits for n8n to store the execution of the state it repeats (a replay under way in this process). */
const PENDING_WAIT_MS = 5000;

/** What to replay, why (in the log's words), when, and how to write what the process took (replay/catchUp.ts). */
export interface ReplayPlan {
	window?: ReplayWindow;
	owed: OwedDelivery[];
	why: string;
	/** How long to wait first: n8n must serve the webhook an activation registers; a record not read is tried again later. */
	delayMs: number;
	write: JournalWriter;
}

/**
 * When the notification is a journal: written into the static data (n8n saves it before it
 * answers), and what falls due to replay in this process: the deliveries whose record could not be
 * read (tried again a minute later, as production would have sent them again), and, at the first
 * journal a process takes after n8n's start (n8n 2.x calls no trigger then), what changed before
 * the start, with the deliveries n8n stopped under way. Undefined for any other notification.
 */
export function takeJournal(
	context: IWebhookFunctions,
	notification: IDataObject,
	{ url, secret }: { url: string; secret: string },
): ReplayPlan | undefined {
	const journal = journalOf(notification);
	if (!journal) return undefined;
	const staticData = context.getWorkflowStaticData('node');
	const scope = scopeMemory(context);
	const write = journalWriter(context, url, secret);
	const unread: ReplayPlan = {
		owed: journal.failed ?? [],
		write,
		why: 'their record could not be read',
		delayMs: 60_000,
	};
	if (scope.lookedBeforeStart) {
		applyJournal(staticData, journal);
		return unread;
	}
	// Looked at before the journal is written: what it says was taken since the start is no reason to replay less.
	scope.lookedBeforeStart = true;
	const { progress, window } = restarted(progressOf(staticData), PROCESS_STARTED_AT);
	writeProgress(staticData, progress);
	applyJournal(staticData, journal);
	const owed = owedDue(progress, PROCESS_STARTED_AT, Date.now());
	if (!window && !owed.length) return unread;
	return {
		window,
		owed: [...owed, ...unread.owed],
		write,
		why: 'n8n started (n8n 2.x calls no trigger at its start)',
		delayMs: 2000,
	};
}

/** What a delivery handed to the memory settles once n8n has answered (a replay: stored its execution, or not). */
export interface Settle {
	settle(status: number): void;
}

export class TriggerMemory {
	private readonly arrival = Symbol('delivery');

	/** Says this delivery is decided: a later delivery of its record waits for that (`lastTaken`). */
	private decided: () => void = () => {};

	/**
	 * A delivery of the record `key` that came at `now`, read against `staticData` (as n8n loaded it)
	 * and this process's `scope`: until it is settled, the watermark waits for it, and a journal
	 * (`write`) writes it owed, so that n8n stopping meanwhile leaves it to be replayed.
	 */
	constructor(
		private readonly staticData: IDataObject,
		private readonly scope: ScopeMemory,
		private readonly write: () => void,
		{ now, owed, key }: { now: number; owed?: OwedDelivery; key?: string },
	) {
		const decided = new Promise<void>((resolve) => (this.decided = resolve));
		scope.underWay.set(this.arrival, { at: now, delivery: owed, written: false, key, decided });
	}

	/** The memory of a delivery to `url`, with the secret it carried: the journals go there, with it. */
	static of(
		context: IWebhookFunctions,
		target: { url: string; secret: string; now: number; owed?: OwedDelivery; key?: string },
	) {
		const scope = scopeMemory(context);
		const write = journalWriter(context, target.url, target.secret);
		const memory = new TriggerMemory(
			context.getWorkflowStaticData('node'),
			scope,
			() => {
				writeSoon(scope, write, context.logger);
			},
			target,
		);
		memory.write();
		return memory;
	}

	/**
	 * The state the workflow last took for the record: the later of what the static data holds and
	 * what this process took (the events of both, when the state is the same), once any delivery of
	 * the record that came before in this process is decided (up to PENDING_WAIT_MS). A replay's
	 * state still waiting for n8n to store its execution is waited for (up to PENDING_WAIT_MS; still
	 * unanswered then, it stands); one n8n failed to store does not count.
	 */
	async lastTaken(key: string): Promise<Seen | undefined> {
		// A delivery of the same record that came first in this process (a retry of one still read) is decided first.
		const before = [...this.scope.underWay].slice(0, [...this.scope.underWay.keys()].indexOf(this.arrival));
		const earlier = before.flatMap(([, entry]) => (entry.key === key && entry.decided ? [entry.decided] : []));
		if (earlier.length) await Promise.race([Promise.all(earlier), sleep(PENDING_WAIT_MS)]);
		const stored = storedSeen(storedText(this.staticData), key);
		const taking = this.scope.takings.get(key);
		if (!taking) return stored;
		if (taking.outcome === undefined) await Promise.race([taking.settled, sleep(PENDING_WAIT_MS)]);
		if (taking.outcome === 'failed') return stored;
		return stored ? laterOf(stored, taking) : taking;
	}

	/**
	 * What the decision said, remembered and written soon. A live delivery was answered before its
	 * record was read: its state counts at once. A replay's counts once n8n has stored its execution
	 * (`settle` is told n8n's answer: 500 or more, it could not).
	 */
	settled(decision: Decision, replay: boolean): Settle {
		this.scope.done(this.arrival, decision.action !== 'owe');
		this.decided();
		if (decision.action === 'drop') this.scope.dropped[decision.reason]++;
		const taken = decision.action === 'start' ? decision.take : decision.action === 'drop' ? decision.note : undefined;
		if (!taken) {
			this.write();
			return { settle: () => {} };
		}
		let resolve: (outcome: Outcome) => void = () => {};
		const taking: Taking = { ...taken.seen, settled: new Promise((done) => (resolve = done)) };
		this.scope.take(taken.key, taking);
		const settle = (status: number) => {
			if (taking.outcome !== undefined) return;
			taking.outcome = status >= 500 ? 'failed' : 'accepted';
			resolve(taking.outcome);
			this.write();
		};
		if (!replay || decision.action === 'drop') settle(200);
		return { settle };
	}

	/** How many deliveries of this kind this process dropped, for the log. */
	droppedCount(reason: 'repeat' | 'unchanged' | 'gone'): number {
		return this.scope.dropped[reason];
	}
}
