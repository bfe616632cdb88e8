import type { IDataObject, IHookFunctions, Logger } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { finiteNumber } from '../../shared/values';
import { SECRET_HEADER } from '../registration';
import type { OwedDelivery, Seen } from './store';
import {
	REMEMBERED_RECORDS,
	followed,
	owe,
	owedOf,
	progressOf,
	seenLine,
	settle,
	storedEntries,
	windowReplayed,
	writeProgress,
	writeSeen,
} from './store';

/**
 * What this n8n process keeps of one trigger node of one workflow (a "scope"), beside the static
 * data: the states it took (the static data may not hold them yet, or another process's whole
 * write may have erased them), the deliveries it has answered and not yet taken, what it still has
 * to write, and the deliveries it dropped, counted for the log; and the journals that write it.
 */

/** The workflows whose memory one process keeps; each holds REMEMBERED_RECORDS states at most. */
export const REMEMBERED_WORKFLOWS = 100;
/** How long after a first change its journal leaves: the changes of that time go together. */
const WRITE_DELAY_MS = 500;
/** States are written again with each journal for this long after the first wrote them. */
export const REWRITTEN_MS = 120_000;
/** A journal n8n did not take is sent again this many times, a delay apart. */
const SEND_ATTEMPTS = 3;

export type Outcome = 'accepted' | 'failed';

/** A state this process took, with n8n's answer once it came (a replay's: the storing of its execution). */
export interface Taking extends Seen {
	outcome?: Outcome;
	settled: Promise<Outcome>;
	/** When a journal n8n took first wrote it (ms). */
	journaledAt?: number;
}

/** A delivery under way in this process: owed in the static data once a journal wrote it, until it is taken. */
interface UnderWay {
	at: number;
	delivery?: OwedDelivery;
	written: boolean;
	/** The record's memory key, and when its decision is made. */
	key?: string;
	decided?: Promise<void>;
}

export class ScopeMemory {
	/** States this process took, least recently taken first. */
	readonly takings = new Map<string, Taking>();
	/** The deliveries this process dropped, counted for the log. */
	readonly dropped = { repeat: 0, unchanged: 0, gone: 0 };
	readonly underWay = new Map<symbol, UnderWay>();
	/** Deliveries owed that this process took since (their arrival was written): to write as settled. */
	settled: OwedDelivery[] = [];
	/** Deliveries whose record could not be read: to write as such (replayed a minute later). */
	failed: OwedDelivery[] = [];
	/** Whether a write of this scope's journal is under way. */
	writing = false;
	/** When something the journal must write last changed (ms). */
	changedAt = 0;
	/** Whether this process has looked for what changed before it started (its first journal, or an activation). */
	lookedBeforeStart = false;

	/** Records a state as the most recent; beyond the bound, the oldest one n8n has answered is forgotten. */
	take(key: string, taking: Taking): void {
		this.takings.delete(key);
		this.takings.set(key, taking);
		if (this.takings.size <= REMEMBERED_RECORDS) return;
		for (const [oldest, { outcome }] of this.takings) {
			if (outcome === undefined) continue;
			this.takings.delete(oldest);
			return;
		}
	}

	/** A delivery is done: settled once its arrival was written; one not taken stays owed, said failed. */
	done(arrival: symbol, taken: boolean): void {
		const underWay = this.underWay.get(arrival);
		this.underWay.delete(arrival);
		if (!underWay?.delivery) return;
		if (!taken) this.failed = [...this.failed, underWay.delivery];
		else if (underWay.written) this.settled = [...this.settled, underWay.delivery];
	}

	/**
	 * What this process has to write now, and what to forget once it is written: the states taken not
	 * written yet, and those first written less than REWRITTEN_MS ago (another process's whole write
	 * may have erased them), the deliveries under way (owed until taken: n8n may stop meanwhile),
	 * those settled or failed since, and the time before which every delivery it answered was taken
	 * or is owed (the oldest under way bounds it).
	 */
	journal(now: number): { journal: Journal; written: () => void } {
		const seen: Array<[string, Taking]> = [];
		for (const [key, taking] of this.takings) {
			if (taking.outcome === 'accepted' && now - (taking.journaledAt ?? now) < REWRITTEN_MS) seen.push([key, taking]);
		}
		const arrivals = [...this.underWay.values()].filter((entry) => entry.delivery && !entry.written);
		const { settled, failed } = this;
		const lines = seen.map(([key, { state, compared, events, at }]) => seenLine(key, { state, compared, events, at }));
		const owed = arrivals.map((entry) => entry.delivery as OwedDelivery);
		const journal: Journal = {
			seen: lines.join('\n') || undefined,
			takenUpTo: Math.min(now, ...[...this.underWay.values()].map((entry) => entry.at)),
			...(owed.length ? { owed } : {}),
			...(settled.length ? { settled } : {}),
			...(failed.length ? { failed } : {}),
		};
		const written = () => {
			for (const [, taking] of seen) taking.journaledAt ??= now;
			for (const entry of arrivals) entry.written = true;
			// Those noted meanwhile are new arrays, left for the next journal.
			if (this.settled === settled) this.settled = [];
			if (this.failed === failed) this.failed = [];
		};
		return { journal, written };
	}
}

const scopes = new Map<string, ScopeMemory>();
const scopeKey = (context: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>) =>
	`${context.getWorkflow().id} ${context.getNode().name}`;

/** When this process loaded the node (ms): n8n's start, for what the process itself could not have taken. */
export const PROCESS_STARTED_AT = Date.now();

/**
 * This process's memory of a trigger node (n8n keys static data by node name), made the most
 * recently used; beyond REMEMBERED_WORKFLOWS the least recently used is forgotten (a queue-mode
 * webhook processor never hears of deactivations).
 */
export function scopeMemory(context: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>): ScopeMemory {
	const name = scopeKey(context);
	const memory = scopes.get(name) ?? new ScopeMemory();
	scopes.delete(name);
	scopes.set(name, memory);
	for (const [oldest] of scopes) {
		if (scopes.size <= REMEMBERED_WORKFLOWS) break;
		scopes.delete(oldest);
	}
	return memory;
}

/** Forgets what this process kept of a trigger node: its workflow was deactivated (or removed) there. */
export const forgetInThisProcess = (context: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>) =>
	scopes.delete(scopeKey(context));

/** An activation in this process replays what changed before it started: its first journal need not look again. */
export const replayingSinceStart = (context: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>) =>
	void (scopeMemory(context).lookedBeforeStart = true);

/** How many scopes this process keeps (tests of the bound). */
export const keptScopes = () => scopes.size;

/** Writes what this process learnt of a trigger node now (with what a replay adds), through its webhook: whether n8n took it. */
export type JournalWriter = (extra?: Journal) => Promise<boolean>;

/**
 * The writer of a trigger node's journals: what this process has to write (with what a replay
 * adds), sent to `url` with the hook's secret, as Agency CRM delivers. n8n answers 200 once it has
 * saved it; what a journal n8n did not take carried stays in this process, for the next.
 */
export function journalWriter(
	context: Pick<IHookFunctions, 'helpers' | 'getWorkflow' | 'getNode'>,
	url: string,
	secret: string,
): JournalWriter {
	const scope = scopeMemory(context);
	return async (extra = {}) => {
		const { journal, written } = scope.journal(Date.now());
		const answer = (await context.helpers
			.httpRequest({
				method: 'POST',
				url,
				headers: { [SECRET_HEADER]: secret },
				body: { [JOURNAL_KEY]: { ...journal, ...extra } },
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})
			.catch(() => ({ statusCode: 0 }))) as { statusCode: number };
		const taken = answer.statusCode >= 200 && answer.statusCode < 300;
		if (taken) written();
		return taken;
	};
}

/**
 * Writes what this process learnt of a scope, soon: one journal for the changes of the next
 * WRITE_DELAY_MS, then another while new ones come. Not taken (n8n cannot reach its own webhook
 * URL, say), it is sent again, then the log says so: what it carried stays in this process, sent
 * with the next journal.
 */
export function writeSoon(scope: ScopeMemory, write: JournalWriter, logger: Logger): void {
	scope.changedAt = Date.now();
	if (scope.writing) return;
	scope.writing = true;
	void (async () => {
		let failures = 0;
		try {
			while (failures < SEND_ATTEMPTS) {
				await sleep(WRITE_DELAY_MS * (failures + 1) ** 2);
				const sentAt = Date.now();
				failures = (await write()) ? 0 : failures + 1;
				if (failures === 0 && scope.changedAt <= sentAt) return;
			}
			logger.error(
				"Agency CRM Trigger: could not write what it remembers through the workflow's own webhook URL (n8n must reach its WEBHOOK_URL): until it can, a repeat that reaches another n8n process, or comes after a restart, starts the workflow again, and changes it took may be replayed.",
			);
		} finally {
			scope.writing = false;
		}
	})();
}

/**
 * The key of a journal in a delivery's body (production sends only `event_type` and `resource_id`):
 * what deliveries teach is written by a delivery the trigger sends its own webhook (scope.ts), whose
 * copy of the static data is loaded, changed and saved at once; a delivery's own copy is stale once
 * its record is read, and its whole write would erase what others wrote meanwhile.
 */
export const JOURNAL_KEY = 'agency_crm_trigger_journal';

export interface Journal {
	/** States taken, one line each. */
	seen?: string;
	/** Every delivery the process answered before this time (ms) was taken or is owed. */
	takenUpTo?: number;
	owed?: OwedDelivery[];
	settled?: OwedDelivery[];
	/** Deliveries whose record could not be read, to try again soon. */
	failed?: OwedDelivery[];
	/** A replay window completed up to this time (ms). */
	replayedUntil?: number;
}

/** The journal a notification carries, if it is one. */
export function journalOf(notification: IDataObject): Journal | undefined {
	const body = notification[JOURNAL_KEY];
	if (typeof body !== 'object' || body === null) return undefined;
	const { seen, takenUpTo, owed, settled, failed, replayedUntil } = body as IDataObject;
	return {
		seen: typeof seen === 'string' ? seen : undefined,
		takenUpTo: finiteNumber(takenUpTo),
		owed: owedOf(owed),
		settled: owedOf(settled),
		failed: owedOf(failed),
		replayedUntil: finiteNumber(replayedUntil),
	};
}

/** Writes a journal into the static data; whether it changed (so that n8n saves it). */
export function applyJournal(staticData: IDataObject, journal: Journal): boolean {
	const wroteSeen = journal.seen ? writeSeen(staticData, storedEntries(journal.seen), true) : false;
	let progress = progressOf(staticData);
	if (journal.owed?.length) progress = owe(progress, journal.owed);
	if (journal.failed?.length)
		progress = owe(
			progress,
			journal.failed.map((delivery) => ({ ...delivery, failed: true })),
		);
	if (journal.settled?.length) progress = settle(progress, journal.settled);
	if (journal.replayedUntil !== undefined) progress = windowReplayed(progress, journal.replayedUntil);
	if (journal.takenUpTo !== undefined) progress = followed(progress, journal.takenUpTo);
	return writeProgress(staticData, progress) || wroteSeen;
}
