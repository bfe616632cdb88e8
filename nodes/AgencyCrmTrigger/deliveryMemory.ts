import { createHash } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * What the trigger remembers of the records its workflow took, for "Drop Repeated Deliveries",
 * "Skip Unchanged Records" and the catch-up: per record, the state the workflow last saw (a
 * fingerprint), with the events it came with. Production's deliveries carry no id, only the event
 * and the record's id, so a delivery is a repeat when its record is in the state the workflow has
 * already taken for that event.
 *
 * Where it lives. In the node's static data (the database), which n8n loads for each delivery and
 * writes back whole once it has answered, and only then: in whichever process took the delivery (the
 * main process, or a queue-mode webhook processor). Two deliveries handled at the same time each
 * write their own copy, so one write can erase what the other added. Each process therefore also
 * keeps what it decided itself (`decisions`, in its memory, by workflow and node) and writes it back
 * with every change, so that an erased entry comes back with that process's next write; and it
 * judges a delivery against both. A decision to start the workflow counts only once n8n has answered
 * the delivery with a success: n8n answers only after it has stored the execution (n8n 2.x), and an
 * error means Agency CRM will send the delivery again, which must then start the workflow.
 *
 * Every doubt starts the workflow: a duplicate execution is better than a lost change. Unreadable
 * memory counts as empty, and a record beyond the bound, or whose entry another process's write
 * erased before this process learnt it, starts again (README "A trigger that does not loop").
 */

/** The records remembered, least recently seen forgotten first: about 90 KB of static data at most. */
export const REMEMBERED_RECORDS = 1000;

/** How long a repeat waits for the answer to the delivery it repeats, still under way in this process. */
const PENDING_WAIT_MS = 5000;

const SEEN_KEY = 'seen';
const PROGRESS_KEY = 'progress';
/** A key never set: deleting it marks the static data as changed, and changes nothing. */
const UNSET_KEY = 'markedChanged';
/** What versions before production's contract kept: delivery ids (production sends none) and bare fingerprints. */
const FORMER_KEYS = ['seenDeliveries', 'seenRecords'];

/** An event the workflow took a record's state with after a catch-up: any delivery of that state is a repeat. */
export const ANY_EVENT = '*';

/** What the workflow took of one record. */
export interface Seen {
	/** The record as fetched, nothing left out: the same fingerprint means nothing changed. */
	state: string;
	/** The record without the fields to ignore (Skip Unchanged Records), when that option is on. */
	compared?: string;
	/** The events it started the workflow for in this state (ANY_EVENT after a catch-up). */
	events: string[];
	/** When it was taken (ms since 1970): of two copies of an entry, the later wins. */
	at: number;
}

type Outcome = 'accepted' | 'failed';

/** A state this process decided to start the workflow for, with n8n's answer once it came. */
interface Decision extends Seen {
	outcome?: Outcome;
	settled: Promise<Outcome>;
}

/** [record key, state, compared or null, events separated by spaces, at]: compact in the static data. */
type StoredSeen = [string, string, string | null, string, number];

/** Per workflow and trigger node (`workflowId node name`), the decisions of this process, oldest first. */
const decisionsByScope = new Map<string, Map<string, Decision>>();

/**
 * Per workflow and trigger node, the deliveries this process answered without starting the
 * workflow, by why: counted here and said in the log, not in the static data, whose every write
 * (whole, by n8n) may erase what another process just added there.
 */
const droppedByScope = new Map<string, Record<Dropped, number>>();

type Dropped = 'repeats' | 'unchanged';

function decisionsOf(scope: string): Map<string, Decision> {
	let decisions = decisionsByScope.get(scope);
	if (!decisions) decisionsByScope.set(scope, (decisions = new Map()));
	return decisions;
}

function isStoredSeen(entry: unknown): entry is StoredSeen {
	return (
		Array.isArray(entry) &&
		entry.length === 5 &&
		typeof entry[0] === 'string' &&
		typeof entry[1] === 'string' &&
		(entry[2] === null || typeof entry[2] === 'string') &&
		typeof entry[3] === 'string' &&
		typeof entry[4] === 'number'
	);
}

function storedSeen(memory: IDataObject): Map<string, Seen> {
	const stored = memory[SEEN_KEY];
	const entries = Array.isArray(stored) ? stored.filter(isStoredSeen) : [];
	return new Map(
		entries.map(([key, state, compared, events, at]) => [
			key,
			{ state, compared: compared ?? undefined, events: events.split(' ').filter(Boolean), at },
		]),
	);
}

const sameSeen = (a: Seen | undefined, b: Seen) =>
	a !== undefined &&
	a.state === b.state &&
	a.compared === b.compared &&
	a.at === b.at &&
	a.events.join() === b.events.join();

/**
 * The memory of one trigger node for one delivery: its static data as n8n loaded it, and what this
 * process decided for the same node.
 */
export class DeliveryMemory {
	private readonly stored: Map<string, Seen>;
	private readonly decisions: Map<string, Decision>;
	/** Whether this delivery changed the static data (so that n8n must save it). */
	private changed = false;
	/** What the last `persist` was asked, to write again, fresher, just before n8n saves. */
	private persisted?: { own: string[]; keepCompared: boolean };

	constructor(
		private readonly memory: IDataObject,
		private readonly scope: string,
	) {
		this.stored = storedSeen(memory);
		this.decisions = decisionsOf(scope);
		// What another process wrote is learnt, so that this one writes it back too, should a third
		// write erase it.
		for (const [key, seen] of this.stored) {
			const decision = this.decisions.get(key);
			if (!decision || decision.at < seen.at) this.note(key, seen);
		}
	}

	/**
	 * The state the workflow last took for the record: the later of what the database holds and what
	 * this process decided. A decision still waiting for n8n's answer is waited for (up to
	 * PENDING_WAIT_MS; still unanswered then, it stands, since n8n is still storing its execution); one
	 * n8n failed to start does not count.
	 */
	async lastTaken(key: string): Promise<Seen | undefined> {
		const stored = this.stored.get(key);
		const decision = this.decisions.get(key);
		if (!decision || decision.at < (stored?.at ?? 0)) return stored;
		if (decision.outcome === undefined) await Promise.race([decision.settled, sleep(PENDING_WAIT_MS)]);
		return decision.outcome === 'failed' ? stored : decision;
	}

	/**
	 * Records that the workflow takes this state, to count once n8n has answered: `settle` is told the
	 * answer's status (a status of 500 or more: n8n could not start the workflow).
	 */
	take(key: string, seen: Seen): { settle(status: number): void } {
		let resolve: (outcome: Outcome) => void = () => {};
		const decision: Decision = { ...seen, settled: new Promise((done) => (resolve = done)) };
		this.decide(key, decision);
		return {
			settle(status) {
				if (decision.outcome !== undefined) return;
				decision.outcome = status >= 500 ? 'failed' : 'accepted';
				resolve(decision.outcome);
			},
		};
	}

	/** Records a state taken at once: the trigger answered the delivery itself (a record skipped as unchanged). */
	note(key: string, seen: Seen): void {
		this.decide(key, { ...seen, outcome: 'accepted', settled: Promise.resolve('accepted') });
	}

	/** Records a decision as the most recent; beyond the bound, the oldest decision n8n has answered is forgotten. */
	private decide(key: string, decision: Decision): void {
		this.decisions.delete(key);
		this.decisions.set(key, decision);
		if (this.decisions.size <= REMEMBERED_RECORDS) return;
		for (const [oldest, { outcome }] of this.decisions) {
			if (outcome === undefined) continue;
			this.decisions.delete(oldest);
			return;
		}
	}

	/**
	 * Writes into the static data what the workflow took and this process decided, when it changes
	 * what n8n loaded: the decisions n8n answered with a success, and those of `own` keys (this
	 * delivery's, which n8n writes only if it succeeds). `keepCompared` false drops the Skip Unchanged
	 * fingerprints, so that an option turned on again compares with nothing older.
	 */
	persist(own: string[], keepCompared: boolean): void {
		this.persisted = { own, keepCompared };
		const merged = new Map(this.stored);
		for (const [key, decision] of this.decisions) {
			if (decision.outcome !== 'accepted' && !own.includes(key)) continue;
			const current = merged.get(key);
			if (!current || decision.at >= current.at) {
				const { state, compared, events, at } = decision;
				merged.set(key, { state, compared, events, at });
			}
		}
		if (!keepCompared) {
			for (const [key, seen] of merged) merged.set(key, { ...seen, compared: undefined });
			for (const decision of this.decisions.values()) decision.compared = undefined;
		}
		const changed =
			FORMER_KEYS.some((former) => former in this.memory) ||
			merged.size !== this.stored.size ||
			[...merged].some(([key, seen]) => !sameSeen(this.stored.get(key), seen));
		if (!changed) return;
		this.changed = true;
		for (const former of FORMER_KEYS) delete this.memory[former];
		const kept = [...merged].sort(([, a], [, b]) => a.at - b.at).slice(-REMEMBERED_RECORDS);
		// Assigning a new array marks the static data as changed, so that n8n saves it.
		this.memory[SEEN_KEY] = kept.map(([key, seen]): StoredSeen => [
			key,
			seen.state,
			seen.compared ?? null,
			seen.events.join(' '),
			seen.at,
		]);
	}

	/** Forgets everything: both options are off, and workflows ran meanwhile on records it did not see. */
	forget(): void {
		this.decisions.clear();
		for (const key of [SEEN_KEY, ...FORMER_KEYS]) {
			if (!(key in this.memory)) continue;
			delete this.memory[key];
			this.changed = true;
		}
	}

	/**
	 * Marks the static data as changed again, when this delivery changed it. n8n 2.x starts the
	 * execution on a new Workflow built on the same static data, which clears the mark n8n saves by,
	 * before it saves the data (once it has answered): a delivery's memory would be lost. Called once
	 * the execution is started, it keeps it (receive.ts), with what this process decided meanwhile.
	 * Deleting a key that is not there marks the data without changing it.
	 */
	markChangedAgain(): void {
		if (!this.changed) return;
		// The decisions n8n answered meanwhile (a burst's) are written too: a write is whole.
		if (this.persisted) this.persist(this.persisted.own, this.persisted.keepCompared);
		delete this.memory[UNSET_KEY];
	}

	/** Counts a delivery the trigger answered without starting the workflow, by why: the count of this process so far. */
	countDropped(reason: Dropped): number {
		const dropped = droppedByScope.get(this.scope) ?? { repeats: 0, unchanged: 0 };
		dropped[reason]++;
		droppedByScope.set(this.scope, dropped);
		return dropped[reason];
	}

	/** How far deliveries came, for the catch-up after a suspension or a restart. */
	get progress(): Progress {
		const progress = (this.memory[PROGRESS_KEY] ?? {}) as IDataObject;
		return {
			deliveredAt: typeof progress.deliveredAt === 'number' ? progress.deliveredAt : undefined,
			lastContactId: typeof progress.lastContactId === 'number' ? progress.lastContactId : undefined,
		};
	}

	/**
	 * Moves the progress on: the last time a delivery came (written once a minute at most: the
	 * catch-up starts well before it anyway), and the highest contact id seen.
	 */
	advance({ deliveredAt, lastContactId }: Progress): void {
		const current = this.progress;
		const next = { ...current };
		if (deliveredAt !== undefined && deliveredAt - (current.deliveredAt ?? 0) >= 60_000) next.deliveredAt = deliveredAt;
		if (lastContactId !== undefined && lastContactId > (current.lastContactId ?? 0)) next.lastContactId = lastContactId;
		if (next.deliveredAt !== current.deliveredAt || next.lastContactId !== current.lastContactId) {
			this.memory[PROGRESS_KEY] = { ...next };
			this.changed = true;
		}
	}

	/** Starts the progress anew (a hook registered afresh has missed nothing). */
	restart(progress: Progress): void {
		this.memory[PROGRESS_KEY] = { ...progress };
	}
}

/** The memory of the context's trigger node: its static data, and this process's decisions for it. */
export function memoryOf(context: Pick<IHookFunctions, 'getWorkflowStaticData' | 'getWorkflow' | 'getNode'>) {
	return new DeliveryMemory(
		context.getWorkflowStaticData('node'),
		`${context.getWorkflow().id} ${context.getNode().name}`,
	);
}

export interface Progress {
	/** When a delivery last came (ms since 1970). */
	deliveredAt?: number;
	/** The highest contact id a delivery named. */
	lastContactId?: number;
}

/** The value with object keys sorted and the ignored field names removed at every depth. */
function comparable(value: unknown, ignored: Set<string>): unknown {
	if (Array.isArray(value)) return value.map((entry) => comparable(entry, ignored));
	if (typeof value !== 'object' || value === null) return value;
	const object = value as IDataObject;
	return Object.fromEntries(
		Object.keys(object)
			.filter((name) => !ignored.has(name))
			.sort()
			.map((name) => [name, comparable(object[name], ignored)]),
	);
}

/**
 * A short digest of the record without the ignored fields (132 bits of SHA-256: a collision, which
 * would hide a change, is out of reach), so the memory stays small whatever the record's size.
 */
export function recordFingerprint(record: unknown, ignoredFields: string[]): string {
	const text = JSON.stringify(comparable(record, new Set(ignoredFields))) ?? 'undefined';
	return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
