import type { IDataObject } from 'n8n-workflow';

import type { NotTaken } from './changes';

/**
 * The conversation between the contact decision (decide.ts, no I/O) and the code that sends its
 * requests (upsert.ts): the decision yields the next request as a Step, and is given back what the
 * API answered as an Answer, until it returns the item's outcome.
 */

export type ContactId = string | number;

export type Step =
	/** A contact search; the decision keeps the exact hits itself. */
	| { kind: 'search'; filter: { email: string } | { phone: string } }
	/** The contacts the item may write, told to the run's write order (writeOrder.ts); answered whether an earlier item wrote one meanwhile. */
	| { kind: 'claim'; ids: ContactId[] }
	/** A create: after a lost answer it is looked for by its email, which every create carries. */
	| { kind: 'create'; body: IDataObject & { email: string } }
	| { kind: 'update'; id: ContactId; changes: IDataObject }
	/** A read-back of the contact, with what every read of a contact loads. */
	| { kind: 'read'; id: ContactId };

export type Answer =
	| { kind: 'hits'; records: IDataObject[] }
	/** A search that failed (after its retries): `cause` is what was thrown. */
	| { kind: 'unsearched'; message: string; cause: unknown }
	| { kind: 'claimed'; writtenMeanwhile: boolean }
	/**
	 * A write the API accepted: the record when the answer carries it whole; for a create, `existed`
	 * says why the contact it answered with was there before (the answer flags a duplicate), and
	 * `lookedUp` that its answer was lost and the contact is the one found by its email.
	 */
	| { kind: 'written'; status: number; record?: IDataObject; existed?: string; lookedUp?: boolean }
	/** A write refused or lost (`cause` is what was thrown, which a failure gives back). */
	| { kind: 'refused'; status?: number; message: string; cause: unknown }
	| { kind: 'read'; record: IDataObject }
	| { kind: 'unread'; message: string };

/** How the contact was found: by its email, by its phone, or none (a new contact). */
export type MatchedBy = 'email' | 'phone';

/** The item's outcome when it succeeds. */
export interface Decision {
	outcome: 'created' | 'updated' | 'unchanged';
	record: IDataObject;
	matchedBy?: MatchedBy;
	/** What decided it, in words: the search, the API's answers. */
	evidence: string;
	/** Fields given that the contact does not hold, by key, with why. */
	notTaken: NotTaken;
	/** What the execution's hints should say of this item. */
	notices: string[];
}

/** The item's outcome when it fails: what to say, and what was thrown, when the failure is the API's. */
export interface Failure {
	outcome: 'failed';
	message: string;
	description: string;
	evidence: string;
	cause?: unknown;
	notices: string[];
}

export type ContactPlan<T> = Generator<Step, T, Answer>;
