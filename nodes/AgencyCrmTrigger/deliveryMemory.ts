import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Seen } from './memoryStore';
import { storedSeen, storedText } from './memoryStore';
import type { Decision, ScopeMemory } from './processMemory';

/**
 * What the trigger remembers of the records its workflow took, for "Drop Repeated Deliveries",
 * "Skip Unchanged Records" and the catch-up: per record, the state the workflow last saw (a
 * fingerprint), with the events it came with. Production's deliveries carry no id, only the event
 * and the record's id, so a delivery is a repeat when its record is in the state the workflow has
 * already taken for that event.
 *
 * One delivery reads two memories: the static data as n8n loaded it for this delivery (what every
 * process wrote), and this process's decisions (scope), which the static data may not hold yet.
 * A decision to start the workflow counts only once n8n has answered the delivery with a success:
 * n8n 2.x answers once it has stored the execution, and an error means Agency CRM sends the delivery
 * again, which must then start the workflow. The delivery writes nothing itself (journal.ts).
 *
 * Every doubt starts the workflow: a duplicate execution is better than a lost change. Unreadable
 * memory counts as empty; a record beyond the bound, or whose entry no process holds, starts again.
 */

/** How long a repeat waits for the answer to the delivery it repeats, still under way in this process. */
const PENDING_WAIT_MS = 5000;

/** A decision n8n has answered: `accepted` once it started the workflow. */
export interface Settle {
	settle(status: number): void;
}

export class DeliveryMemory {
	private readonly text: string;

	constructor(
		staticData: IDataObject,
		private readonly scope: ScopeMemory,
		/** Told of each decision to write (journal.ts). */
		private readonly changed: () => void,
	) {
		this.text = storedText(staticData);
	}

	/**
	 * The state the workflow last took for the record: the later of what the static data holds and
	 * what this process decided. A decision still waiting for n8n's answer is waited for (up to
	 * PENDING_WAIT_MS; still unanswered then, it stands, since n8n is still storing its execution); one
	 * n8n failed to start does not count.
	 */
	async lastTaken(key: string): Promise<Seen | undefined> {
		const stored = storedSeen(this.text, key);
		const decision = this.scope.decisions.get(key);
		if (!decision || decision.at < (stored?.at ?? 0)) return stored;
		if (decision.outcome === undefined) await Promise.race([decision.settled, sleep(PENDING_WAIT_MS)]);
		return decision.outcome === 'failed' ? stored : decision;
	}

	/**
	 * Records that the workflow takes this state, to count once n8n has answered: `settle` is told the
	 * answer's status (500 or more: n8n could not start the workflow).
	 */
	take(key: string, seen: Seen): Settle {
		let resolve: (outcome: 'accepted' | 'failed') => void = () => {};
		const decision: Decision = { ...seen, settled: new Promise((done) => (resolve = done)) };
		this.scope.decide(key, decision);
		return {
			settle: (status) => {
				if (decision.outcome !== undefined) return;
				decision.outcome = status >= 500 ? 'failed' : 'accepted';
				resolve(decision.outcome);
				if (decision.outcome === 'accepted') this.changed();
			},
		};
	}

	/** Records a state taken at once: the trigger answered the delivery itself (a record skipped as unchanged). */
	note(key: string, seen: Seen): void {
		this.scope.decide(key, { ...seen, outcome: 'accepted', settled: Promise.resolve('accepted') });
		this.changed();
	}
}
