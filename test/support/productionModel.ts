import type { IDataObject } from 'n8n-workflow';

import type { Decision, Fetched } from '../../nodes/AgencyCrmTrigger/decision';
import { decide, keyOf, recordNeeded } from '../../nodes/AgencyCrmTrigger/decision';
import { TriggerMemory } from '../../nodes/AgencyCrmTrigger/memory';
import { ScopeMemory, applyJournal } from '../../nodes/AgencyCrmTrigger/memory/scope';
import type { Seen } from '../../nodes/AgencyCrmTrigger/memory/store';
import type { Delivery } from '../../nodes/AgencyCrmTrigger/notification';
import type { TriggerSettings } from '../../nodes/AgencyCrmTrigger/settings';

/**
 * A model of production's delivery contract around the trigger's decision (decision.ts) and memory,
 * for generated runs (test/unit/trigger/decisionModel.test.ts), written from docs/assumptions.md
 * "Production evidence": the CRM changes properties; each change is one delivery of
 * `{event_type, resource_id}` only, with no id; a delivery not answered 200 within 10 s is sent
 * again 3 times, after growing delays, then the hook is suspended and nothing more is delivered.
 * A change the record read does not show (a follow-up, an action: `unseen`) is delivered like any
 * other. The trigger answers 200 as soon as n8n runs it (answer-first); an answer can still reach
 * production late (a busy n8n, the network), or n8n not run at all (down). Deliveries are handled
 * one at a time, each by one of two n8n processes, which see the static data ("db", written by
 * journals, and erased by a stale whole write) and their own memory (lost when they restart). The
 * record read is the record as it is when the delivery is handled, not when it changed. Replays the
 * trigger sends itself are answered by n8n once it has stored their execution (`fail`: it could
 * not). Time passes a second a step, and by `wait` steps.
 */

export type Answer = 'ok' | 'late' | 'down';
export type Step =
	| { op: 'crm'; kind: 'create' | 'touch' | 'change' | 'unseen' | 'remove'; id: number }
	/** `readFails`: the record's read fails past its patience (5xx, 429s) when this delivery is handled. */
	| { op: 'deliver'; pick: number; process: number; answer: Answer; readFails?: boolean }
	/** The trigger replays the deliveries whose read failed (a minute later, or at an activation). */
	| { op: 'replayOwed'; process: number }
	/** The replay sends a record's current state (catch_up: true), as an update, or a creation when only those are chosen. */
	| { op: 'replay'; id: number; process: number; answer: 'ok' | 'fail' }
	| { op: 'journal'; process: number }
	| { op: 'restart'; process: number }
	/**
	 * Another process's whole write of a copy loaded `back` steps ago erases what was written since:
	 * an activation's, a copy loaded seconds before (no delivery writes the static data itself).
	 */
	| { op: 'staleWrite'; back: number }
	| { op: 'wait'; minutes: number };

/** Production's growing delays before each retry: the evidence gives none; the sandbox's guess. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000];

interface Change {
	id: number;
	event: string;
	/** The record's version the change made (an `unseen` change keeps it). */
	version: number;
	/** When the change was made (ms). */
	at: number;
}

/** One attempt handled: what the process remembered, what the trigger decided, what came of it. */
export interface Handling {
	step: number;
	/** When it was handled (ms). */
	at: number;
	process: number;
	change: Change;
	attempt: number;
	/** A replay of the trigger's own, never sent again by production. */
	replay: boolean;
	/** The record's version and content as read (or gone). */
	read: { version: number; content: number } | 'gone' | 'not read';
	remembered?: Seen;
	decision: Decision;
	/** n8n stored the execution this decision started (or the state was noted at once). */
	taken: boolean;
	/** Production counts the delivery acknowledged. */
	acknowledged: boolean;
}

interface ProductRecord {
	exists: boolean;
	version: number;
	content: number;
}

export const KEY = (id: number) => `product:${id}`;
const EVENT_OF = { create: 'PRODUCT_CREATE', remove: 'PRODUCT_DELETE' } as Record<string, string>;

export class ProductionModel {
	readonly handled: Handling[] = [];
	readonly restarts: Array<{ step: number; process: number }> = [];
	readonly journals: Array<{ step: number; process: number; at: number }> = [];
	readonly staleWrites: Array<{ step: number; revertedTo: number }> = [];
	suspended = false;
	/** Deliveries answered whose record could not be read: owed until a replay takes them. */
	readonly owed: Change[] = [];
	/** Each owed delivery a replay took (started, or found taken), with that replay's handling. */
	readonly replayedOwed = new Map<Change, Handling>();
	private readonly records = new Map<number, ProductRecord>();
	private readonly queue: Array<{ change: Change; attempt: number; dueAt: number }> = [];
	/** Each process's own memory of the workflow. */
	private readonly scopes = [new ScopeMemory(), new ScopeMemory()];
	/** The trigger node's static data in the database. */
	private db: IDataObject = {};
	private readonly dbHistory: Array<{ at: number; db: IDataObject }> = [];
	private step = 0;
	now = 1_800_000_000_000;

	constructor(private readonly settings: TriggerSettings) {}

	async run(steps: Step[]): Promise<this> {
		for (const step of steps) {
			this.dbHistory.push({ at: this.now, db: structuredClone(this.db) });
			await this.apply(step);
			this.step++;
			this.now += 1000;
		}
		return this;
	}

	private async apply(step: Step): Promise<void> {
		if (step.op === 'crm') this.change(step.kind, step.id);
		else if (step.op === 'deliver') await this.deliver(step.pick, step.process, step.answer, step.readFails);
		else if (step.op === 'replayOwed') await this.replayOwed(step.process);
		else if (step.op === 'replay') await this.replay(step.id, step.process, step.answer);
		else if (step.op === 'journal') this.journal(step.process);
		else if (step.op === 'wait') this.now += step.minutes * 60_000;
		else if (step.op === 'restart') {
			this.scopes[step.process] = new ScopeMemory();
			this.restarts.push({ step: this.step, process: step.process });
		} else {
			// A copy loaded at most 10 s before.
			let revertedTo = Math.max(0, this.step - step.back);
			while (this.dbHistory[revertedTo].at < this.now - 10_000) revertedTo++;
			this.db = structuredClone(this.dbHistory[revertedTo].db);
			this.staleWrites.push({ step: this.step, revertedTo });
		}
	}

	private change(kind: Step & { op: 'crm' } extends { kind: infer K } ? K : never, id: number): void {
		const current = this.records.get(id) ?? { exists: false, version: 0, content: 0 };
		// The CRM never gives an id twice: a record deleted is not created again.
		if (kind === 'create' ? this.records.has(id) : !current.exists) return;
		const next =
			kind === 'unseen'
				? current
				: {
						exists: kind !== 'remove',
						version: current.version + 1,
						content: kind === 'touch' ? current.content : current.content + 1,
					};
		this.records.set(id, next);
		const event = EVENT_OF[kind] ?? 'PRODUCT_UPDATE';
		const change = { id, event, version: next.version, at: this.now };
		if (!this.suspended) this.queue.push({ change, attempt: 1, dueAt: this.now });
	}

	/** The record as the API answers its read now: production's fields, `last_modified` moving with every write. */
	private read(id: number): Fetched {
		const current = this.records.get(id);
		if (!current?.exists) return { kind: 'gone' };
		const record: IDataObject = { id, model: `M${current.content}`, last_modified: `t${current.version}` };
		return { kind: 'found', record };
	}

	private async deliver(pick: number, process: number, answer: Answer, readFails = false): Promise<void> {
		const due = this.queue.filter((entry) => entry.dueAt <= this.now);
		if (this.suspended || !due.length) return;
		const entry = due[pick % due.length];
		this.queue.splice(this.queue.indexOf(entry), 1);
		const { change, attempt } = entry;
		const acknowledged = answer === 'ok';
		if (answer !== 'down') await this.handle(change, attempt, process, { replay: false, acknowledged, readFails });
		if (acknowledged) return;
		const delay = RETRY_DELAYS_MS[attempt - 1];
		if (delay === undefined) this.suspended = true;
		else this.queue.push({ change, attempt: attempt + 1, dueAt: this.now + delay });
	}

	/** Each owed delivery replayed by its event and id: its record's current state. */
	private async replayOwed(process: number): Promise<void> {
		for (const change of this.owed.splice(0)) {
			const current = this.records.get(change.id);
			const now = { ...change, version: current?.version ?? change.version, at: this.now };
			const handling = await this.handle(now, 1, process, { replay: true, acknowledged: false });
			if (handling.decision.action === 'owe') this.owed.push(change);
			else this.replayedOwed.set(change, handling);
		}
	}

	private async replay(id: number, process: number, answer: 'ok' | 'fail'): Promise<void> {
		const current = this.records.get(id);
		const event = ['PRODUCT_UPDATE', 'PRODUCT_CREATE'].find((candidate) => this.settings.events.includes(candidate));
		if (!current?.exists || !event) return;
		const change = { id, event, version: current.version, at: this.now };
		await this.handle(change, 1, process, { replay: true, acknowledged: false, stored: answer === 'ok' });
	}

	/** One attempt through the trigger's memory and decision, as receive.ts runs them. */
	private async handle(
		change: Change,
		attempt: number,
		process: number,
		{
			replay,
			acknowledged,
			stored = true,
			readFails = false,
		}: { replay: boolean; acknowledged: boolean; stored?: boolean; readFails?: boolean },
	): Promise<Handling> {
		const delivery: Delivery = {
			notification: { event_type: change.event, resource_id: change.id, ...(replay ? { catch_up: true } : {}) },
			subject: { eventType: change.event, resourceType: 'product', resourceId: change.id },
			receivedAt: new Date(this.now).toISOString(),
			replay,
			test: false,
		};
		const unavailable = { kind: 'unavailable' as const, message: 'Could not fetch', error: new Error('5xx') as never };
		const fetched: Fetched = !recordNeeded(this.settings, delivery)
			? { kind: 'notFetched' }
			: readFails
				? unavailable
				: this.read(change.id);
		// n8n loads the static data for each delivery: a copy of what the database holds.
		const memory = new TriggerMemory(structuredClone(this.db), this.scopes[process], () => {}, { now: this.now });
		const remembered = await memory.lastTaken(keyOf(delivery)!);
		const decision = decide(this.settings, remembered, delivery, fetched, this.now);
		memory.settled(decision, replay).settle(stored ? 200 : 500);
		const taken = (decision.action === 'start' && stored) || (decision.action === 'drop' && !!decision.note);
		if (decision.action === 'owe' && !replay) this.owed.push(change);
		const current = this.records.get(change.id)!;
		const read =
			fetched.kind === 'found'
				? { version: current.version, content: current.content }
				: fetched.kind === 'gone'
					? 'gone'
					: 'not read';
		const handling: Handling = {
			step: this.step,
			at: this.now,
			process,
			change,
			attempt,
			replay,
			read,
			remembered,
			decision,
			taken,
			acknowledged,
		};
		this.handled.push(handling);
		return handling;
	}

	/** A journal of the process (scope.ts), taken by whichever process: written into the database. */
	private journal(process: number): void {
		const { journal, written } = this.scopes[process].journal(this.now);
		applyJournal(this.db, journal);
		written();
		this.journals.push({ step: this.step, process, at: this.now });
	}
}
