import type { IDataObject, IWebhookFunctions, Logger } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { CatchUpPart } from './catchUpProgress';
import { delivered, progressOf, replayed, writeProgress } from './catchUpProgress';
import { seenLine, storedEntries, writeSeen } from './memoryStore';
import type { Delivered, ScopeMemory } from './processMemory';
import { SECRET_HEADER } from './secret';
import { finiteNumber } from '../shared/values';

/**
 * What a delivery teaches (the states the workflow took, how far deliveries came, a catch-up part
 * replayed) is written into the static data by a delivery of its own, a "journal", that the trigger
 * sends to its own webhook: n8n writes the static data before it answers, so a delivery that wrote
 * its memory itself would make Agency CRM wait for that write. A journal carries every decision of
 * the last REWRITTEN_MS, so that one erased by another process's whole write comes back with the
 * next; whichever process takes it (a queue-mode webhook processor) writes it.
 */

/** The key of a journal in a delivery's body: production sends only `event_type` and `resource_id`. */
export const JOURNAL_KEY = 'agency_crm_trigger_journal';

/** How long after a first decision its journal leaves: the decisions of that time go together. */
const WRITE_DELAY_MS = 500;
/** Decisions this recent are written again with each journal. */
const REWRITTEN_MS = 120_000;
/** A journal n8n did not take is sent again this many times, a delay apart. */
const SEND_ATTEMPTS = 3;

export interface Journal {
	/** States taken, one line each (memoryStore.ts). */
	seen?: string;
	delivered?: Delivered;
	replayed?: { openedAt: number; part: CatchUpPart; lastContactId?: number };
}

/** The journal a notification carries, if it is one. */
export function journalOf(notification: IDataObject): Journal | undefined {
	const body = notification[JOURNAL_KEY];
	if (typeof body !== 'object' || body === null) return undefined;
	const { seen, delivered: progress, replayed: part } = body as IDataObject;
	const journal: Journal = {};
	if (typeof seen === 'string') journal.seen = seen;
	if (typeof progress === 'object' && progress !== null) {
		const { deliveredAt, lastContactId } = progress as IDataObject;
		journal.delivered = { deliveredAt: finiteNumber(deliveredAt), lastContactId: finiteNumber(lastContactId) };
	}
	const done = (part ?? {}) as IDataObject;
	const openedAt = finiteNumber(done.openedAt);
	if (openedAt !== undefined && (done.part === 'properties' || done.part === 'contacts')) {
		journal.replayed = { openedAt, part: done.part, lastContactId: finiteNumber(done.lastContactId) };
	}
	return journal;
}

/** Writes a journal into the static data; whether it changed (so that n8n saves it). */
export function applyJournal(staticData: IDataObject, journal: Journal): boolean {
	const wroteSeen = journal.seen ? writeSeen(staticData, storedEntries(journal.seen), true) : false;
	let progress = progressOf(staticData);
	if (journal.delivered) progress = delivered(progress, journal.delivered);
	if (journal.replayed) progress = replayed(progress, journal.replayed);
	return writeProgress(staticData, progress) || wroteSeen;
}

/** Sends a journal to the trigger's webhook; whether n8n took it. */
export type JournalSender = (journal: Journal) => Promise<boolean>;

/** Sends to `url` with the hook's secret, as Agency CRM delivers. */
export function journalSender(
	helpers: Pick<IWebhookFunctions['helpers'], 'httpRequest'>,
	url: string,
	secret: string,
): JournalSender {
	return async (journal) => {
		const answer = (await helpers.httpRequest({
			method: 'POST',
			url,
			headers: { [SECRET_HEADER]: secret },
			body: { [JOURNAL_KEY]: journal },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as { statusCode: number };
		return answer.statusCode >= 200 && answer.statusCode < 300;
	};
}

/** What this process has to write of a scope now: its decisions of the last REWRITTEN_MS, and its progress. */
export function pendingJournal(scope: ScopeMemory, now: number): Journal | undefined {
	const seen = [...scope.acceptedSince(now - REWRITTEN_MS)].map(([key, entry]) => seenLine(key, entry));
	const progress = scope.delivered;
	const hasProgress = progress.deliveredAt !== undefined || progress.lastContactId !== undefined;
	if (!seen.length && !hasProgress) return undefined;
	return { seen: seen.join('\n') || undefined, delivered: hasProgress ? { ...progress } : undefined };
}

/**
 * Writes what this process learnt of a scope now, and says whether n8n took it: the catch-up writes
 * each replay it took before the next, so that n8n stopping meanwhile replays none twice.
 */
export async function writeNow(scope: ScopeMemory, send: JournalSender): Promise<boolean> {
	const journal = pendingJournal(scope, Date.now());
	return journal === undefined || (await send(journal).catch(() => false));
}

/**
 * Writes what this process learnt of a scope, soon: one journal for the decisions of the next
 * WRITE_DELAY_MS, then another while new ones come. Not taken (n8n cannot reach its own webhook
 * URL, say), it is sent again, then the log says so: the decisions stay in this process, sent
 * with the next journal.
 */
export function writeSoon(scope: ScopeMemory, send: JournalSender, logger: Logger): void {
	scope.changedAt = Date.now();
	if (scope.writing) return;
	scope.writing = true;
	void (async () => {
		let failures = 0;
		try {
			while (failures < SEND_ATTEMPTS) {
				await sleep(WRITE_DELAY_MS * (failures + 1) ** 2);
				const sentAt = Date.now();
				const progress = scope.delivered;
				const journal = pendingJournal(scope, sentAt);
				if (!journal) return;
				const taken = await send(journal).catch(() => false);
				failures = taken ? 0 : failures + 1;
				// Progress moved meanwhile is a new object, left for the next journal.
				if (taken && scope.delivered === progress) scope.delivered = {};
				if (taken && scope.changedAt <= sentAt) return;
			}
			logger.error(
				"Agency CRM Trigger: could not write what it remembers through the workflow's own webhook URL (n8n must reach its WEBHOOK_URL): until it can, a repeat that reaches another n8n process, or comes after a restart, starts the workflow again.",
			);
		} finally {
			scope.writing = false;
		}
	})();
}
