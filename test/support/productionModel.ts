import type { IDataObject } from 'n8n-workflow';

import type { Decision, Delivery } from '../../nodes/AgencyCrmTrigger/decision';
import { decide, keyOf, recordNeeded } from '../../nodes/AgencyCrmTrigger/decision';
import { DeliveryMemory } from '../../nodes/AgencyCrmTrigger/deliveryMemory';
import type { Seen } from '../../nodes/AgencyCrmTrigger/memoryStore';
import { applyJournal, pendingJournal } from '../../nodes/AgencyCrmTrigger/journal';
import { ScopeMemory } from '../../nodes/AgencyCrmTrigger/processMemory';
import type { Fetched } from '../../nodes/AgencyCrmTrigger/recordFetch';
import type { TriggerSettings } from '../../nodes/AgencyCrmTrigger/settings';

/**
 * A model of production's delivery contract around the trigger's decision (decision.ts), for
 * generated runs (test/unit/trigger/decisionModel.test.ts): the CRM changes properties; each change
 * is one delivery of `{event_type, resource_id}` only; a delivery not answered 200 within 10 s (n8n
 * answers late, or 5xx when it cannot store the execution, or the trigger answers 503) is sent
 * again, 3 times, then the hook is suspended and nothing more is delivered. Deliveries are handled
 * one at a time, each by one of two n8n processes, which see the static data ("db", written by
 * journals, and erased by a stale whole write) and their own decisions (lost when they restart).
 * The record read is the record as it is when the delivery is handled, not when it changed. The
 * memory is the trigger's own (DeliveryMemory, ScopeMemory, journals); one step is a second.
 */

export type Answer = 'ok' | 'late' | 'fail';
export type Step =
	| { op: 'crm'; kind: 'create' | 'touch' | 'change' | 'remove'; id: number }
	| { op: 'deliver'; pick: number; process: number; answer: Answer }
	/** The catch-up replays a record's current state (catch_up: true), as an update, or a creation when only those are chosen. */
	| { op: 'replay'; id: number; process: number; answer: Answer }
	| { op: 'journal'; process: number }
	| { op: 'restart'; process: number }
	/** Another process's whole write of a copy loaded `back` steps ago erases what was written since. */
	| { op: 'staleWrite'; back: number };

interface Change {
	id: number;
	event: string;
	/** The record's version the change made. */
	version: number;
}

/** One attempt handled: what the process remembered, what the trigger decided, what came of it. */
export interface Handling {
	step: number;
	process: number;
	change: Change;
	attempt: number;
	/** A replay of the catch-up: the trigger's own, never sent again by production. */
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

export class ProductionModel {
	readonly handled: Handling[] = [];
	readonly restarts: Array<{ step: number; process: number }> = [];
	readonly journals: Array<{ step: number; process: number }> = [];
	readonly staleWrites: Array<{ step: number; revertedTo: number }> = [];
	suspended = false;
	private readonly records = new Map<number, ProductRecord>();
	private readonly queue: Array<{ change: Change; attempt: number }> = [];
	/** Each process's own memory of the workflow. */
	private readonly scopes = [new ScopeMemory(), new ScopeMemory()];
	/** The trigger node's static data in the database. */
	private db: IDataObject = {};
	private readonly dbHistory: IDataObject[] = [];
	private step = 0;

	constructor(private readonly settings: TriggerSettings) {}

	async run(steps: Step[]): Promise<this> {
		for (const step of steps) {
			this.dbHistory.push(structuredClone(this.db));
			await this.apply(step);
			this.step++;
		}
		return this;
	}

	private get now() {
		return 1_800_000_000_000 + this.step * 1000;
	}

	private async apply(step: Step): Promise<void> {
		if (step.op === 'crm') this.change(step.kind, step.id);
		else if (step.op === 'deliver') await this.deliver(step.pick, step.process, step.answer);
		else if (step.op === 'replay') await this.replay(step.id, step.process, step.answer);
		else if (step.op === 'journal') this.journal(step.process);
		else if (step.op === 'restart') {
			this.scopes[step.process] = new ScopeMemory();
			this.restarts.push({ step: this.step, process: step.process });
		} else {
			const revertedTo = Math.max(0, this.step - step.back);
			this.db = structuredClone(this.dbHistory[revertedTo]);
			this.staleWrites.push({ step: this.step, revertedTo });
		}
	}

	private change(kind: 'create' | 'touch' | 'change' | 'remove', id: number): void {
		const current = this.records.get(id) ?? { exists: false, version: 0, content: 0 };
		if ((kind === 'create') === current.exists) return;
		const next = {
			exists: kind !== 'remove',
			version: current.version + 1,
			content: kind === 'touch' ? current.content : current.content + 1,
		};
		this.records.set(id, next);
		const event = kind === 'create' ? 'PRODUCT_CREATE' : kind === 'remove' ? 'PRODUCT_DELETE' : 'PRODUCT_UPDATE';
		if (!this.suspended) this.queue.push({ change: { id, event, version: next.version }, attempt: 1 });
	}

	/** The record as the API answers its read now: production's fields, `last_modified` moving with every write. */
	private read(id: number): Fetched {
		const current = this.records.get(id);
		if (!current?.exists) return { kind: 'gone' };
		const record: IDataObject = { id, model: `M${current.content}`, last_modified: `t${current.version}` };
		return { kind: 'found', record };
	}

	private async deliver(pick: number, process: number, answer: Answer): Promise<void> {
		if (this.suspended || !this.queue.length) return;
		const [{ change, attempt }] = this.queue.splice(pick % this.queue.length, 1);
		const acknowledged = await this.handle(change, attempt, process, answer, false);
		if (acknowledged) return;
		if (attempt < 4) this.queue.push({ change, attempt: attempt + 1 });
		else this.suspended = true;
	}

	private async replay(id: number, process: number, answer: Answer): Promise<void> {
		const current = this.records.get(id);
		const event = ['PRODUCT_UPDATE', 'PRODUCT_CREATE'].find((candidate) => this.settings.events.includes(candidate));
		if (!current?.exists || !event) return;
		await this.handle({ id, event, version: current.version }, 1, process, answer, true);
	}

	/** One attempt through the trigger's memory and decision; whether production counts it acknowledged. */
	private async handle(change: Change, attempt: number, process: number, answer: Answer, replay: boolean) {
		const delivery: Delivery = {
			notification: { event_type: change.event, resource_id: change.id, ...(replay ? { catch_up: true } : {}) },
			subject: { eventType: change.event, resourceType: 'product', resourceId: change.id },
			receivedAt: 'now',
			test: false,
		};
		const fetched: Fetched = recordNeeded(this.settings, delivery) ? this.read(change.id) : { kind: 'notFetched' };
		// n8n loads the static data for each delivery: a copy of what the database holds.
		const memory = new DeliveryMemory(structuredClone(this.db), this.scopes[process], () => {});
		const remembered = await memory.lastTaken(keyOf(delivery)!);
		const decision = decide(this.settings, remembered, delivery, fetched, this.now);
		const started = decision.action === 'start';
		const taken = (started && answer !== 'fail') || (decision.action === 'drop' && decision.note !== undefined);
		if (started && decision.take) {
			memory.take(decision.take.key, decision.take.seen).settle(answer === 'fail' ? 500 : 200);
		}
		if (decision.action === 'drop' && decision.note) memory.note(decision.note.key, decision.note.seen);
		const acknowledged = decision.action !== 'retry' && answer === 'ok';
		const current = this.records.get(change.id)!;
		const read =
			fetched.kind === 'found'
				? { version: current.version, content: current.content }
				: fetched.kind === 'gone'
					? 'gone'
					: 'not read';
		this.handled.push({
			step: this.step,
			process,
			change,
			attempt,
			replay,
			read,
			remembered,
			decision,
			taken,
			acknowledged,
		});
		return acknowledged;
	}

	/** A journal of the process (journal.ts), taken by whichever process: written into the database. */
	private journal(process: number): void {
		const journal = pendingJournal(this.scopes[process], this.now);
		if (journal) applyJournal(this.db, journal);
		this.journals.push({ step: this.step, process });
	}
}
