import type { IDataObject } from 'n8n-workflow';

import type { NotTaken } from './changes';
import { holdsAll, notHeld } from './changes';
import { expected } from './find';
import type { ContactId, ContactPlan, Failure } from './steps';

/**
 * What a write left on the contact, as production's own client confirms it (docs/assumptions.md
 * "Production evidence": "only a read-back confirms what was taken"): the record the answer carried,
 * when it holds every field sent; otherwise the contact read back, and the fields it does not hold.
 * A read-back that fails leaves the write done: the output is what was sent, and a notice says so.
 */
export function* confirmed(
	id: ContactId,
	inHand: IDataObject | undefined,
	sent: IDataObject,
	answered: string,
	notices: string[],
): ContactPlan<{ record: IDataObject; notTaken: NotTaken; how: string }> {
	if (inHand && holdsAll(inHand, sent)) {
		return { record: inHand, notTaken: {}, how: `${answered} with the contact` };
	}
	const read = yield { kind: 'read', id };
	if (read.kind === 'read') {
		return { record: read.record, notTaken: notHeld(sent, read.record, answered), how: `${answered}, then read back` };
	}
	const why = expected(read, 'unread').message;
	notices.push(
		`The API accepted the write of contact ${String(id)}, but reading it back failed (${why}): check it in Agency CRM`,
	);
	return { record: { ...inHand, ...sent, customers_id: id }, notTaken: {}, how: `${answered}; not read back` };
}

export function failure(message: string, description: string, notices: string[], cause?: unknown): Failure {
	return { outcome: 'failed', message, description, evidence: message, cause, notices };
}
