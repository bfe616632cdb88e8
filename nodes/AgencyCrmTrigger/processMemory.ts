import type { IHookFunctions } from 'n8n-workflow';

import type { Seen } from './memoryStore';
import { REMEMBERED_RECORDS } from './memoryStore';

/**
 * What this n8n process keeps of one trigger node of one workflow (a "scope"), beside the static
 * data: the decisions it took (the static data may not hold them yet, or another process's whole
 * write may have erased them), what it still has to write, and the deliveries it dropped, counted
 * for the log. Released when the workflow is deactivated; the least recently used scopes are
 * forgotten beyond REMEMBERED_WORKFLOWS (a queue-mode webhook processor never hears of deactivations).
 */

/** The workflows whose memory one process keeps; each holds REMEMBERED_RECORDS decisions at most. */
export const REMEMBERED_WORKFLOWS = 100;

type Outcome = 'accepted' | 'failed';

/** A state this process decided to start the workflow for, with n8n's answer once it came. */
export interface Decision extends Seen {
	outcome?: Outcome;
	settled: Promise<Outcome>;
}

export type Dropped = 'repeats' | 'unchanged' | 'gone';

/** How far deliveries came, for the catch-up after a suspension or a restart (catchUpProgress.ts). */
export interface Delivered {
	/** When a delivery last came (ms since 1970). */
	deliveredAt?: number;
	/** The highest contact id a delivery named. */
	lastContactId?: number;
}

export class ScopeMemory {
	/** Decisions of this process, least recently taken first. */
	readonly decisions = new Map<string, Decision>();
	readonly dropped: Record<Dropped, number> = { repeats: 0, unchanged: 0, gone: 0 };
	/** How far this process's deliveries came, not written yet. */
	delivered: Delivered = {};
	/** Whether a write of this scope's journal is under way (journal.ts). */
	writing = false;
	/** When a decision or the progress last changed what the journal must write (ms). */
	changedAt = 0;
	/** The catch-up window (its `openedAt`) this process last resumed at a delivery (resume.ts). */
	resumedWindow?: number;

	/** Records a decision as the most recent; beyond the bound, the oldest one n8n has answered is forgotten. */
	decide(key: string, decision: Decision): void {
		this.decisions.delete(key);
		this.decisions.set(key, decision);
		if (this.decisions.size <= REMEMBERED_RECORDS) return;
		for (const [oldest, { outcome }] of this.decisions) {
			if (outcome === undefined) continue;
			this.decisions.delete(oldest);
			return;
		}
	}

	/** The decisions n8n accepted since `sinceMs`, as the static data keeps them. */
	acceptedSince(sinceMs: number): Map<string, Seen> {
		const accepted = new Map<string, Seen>();
		for (const [key, { state, compared, events, at, outcome }] of this.decisions) {
			if (outcome === 'accepted' && at >= sinceMs) accepted.set(key, { state, compared, events, at });
		}
		return accepted;
	}

	/** Moves the progress on: the last delivery's time (once a minute at most) and the highest contact id. */
	advance({ deliveredAt, lastContactId }: Delivered, written: Delivered): boolean {
		const next = { ...this.delivered };
		const since = Math.max(next.deliveredAt ?? 0, written.deliveredAt ?? 0);
		if (deliveredAt !== undefined && deliveredAt - since >= 60_000) next.deliveredAt = deliveredAt;
		const highest = Math.max(next.lastContactId ?? 0, written.lastContactId ?? 0);
		if (lastContactId !== undefined && lastContactId > highest) next.lastContactId = lastContactId;
		const moved =
			next.deliveredAt !== this.delivered.deliveredAt || next.lastContactId !== this.delivered.lastContactId;
		if (moved) this.delivered = next;
		return moved;
	}
}

const scopes = new Map<string, ScopeMemory>();

/** When this process loaded the node (ms): n8n's start, for what the process itself could not have begun. */
export const PROCESS_STARTED_AT = Date.now();

/** The scope of the context's trigger node: `workflowId nodeName` (n8n keys static data by node name). */
export function scopeName(context: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>): string {
	return `${context.getWorkflow().id} ${context.getNode().name}`;
}

/** This process's memory of a scope, made the most recently used. */
export function scopeMemory(scope: string): ScopeMemory {
	const memory = scopes.get(scope) ?? new ScopeMemory();
	scopes.delete(scope);
	scopes.set(scope, memory);
	for (const [oldest] of scopes) {
		if (scopes.size <= REMEMBERED_WORKFLOWS) break;
		scopes.delete(oldest);
	}
	return memory;
}

/** Forgets a scope: its workflow was deactivated (or removed) in this process. */
export function releaseScope(scope: string): void {
	scopes.delete(scope);
}

/** How many scopes this process keeps (tests of the bound). */
export const keptScopes = () => scopes.size;
