import type { IDataObject } from 'n8n-workflow';

import { contactIdOf, emailOf, mostRecent, placeholderEmail } from '../../catalogue/contacts';
import type { ContactPolicy } from '../../catalogue/resources/contact/matching';
import type { NotTaken } from './changes';
import { AFTER_CREATE_KEYS, holdsAll, split } from './changes';
import { byEmail, claimed, expected, phonesToSearch } from './find';
import { confirmed, failure } from './readBack';
import type { ContactPlan, Decision, Failure } from './steps';

/**
 * A new contact, as production's own client makes one (docs/assumptions.md "Production evidence"):
 * with its email (or a placeholder one: production creates no contact without) and its names first,
 * Check Duplicate on, so that only its email can make it someone else's; its phones (and GDPR
 * conformity) once it exists (changes.ts AFTER_CREATE_KEYS).
 * After a lost answer the create is looked for by that email (upsert's sender), never sent blind.
 */

/** Every field of a body not taken, for the same reason. */
const allNotTaken = (body: IDataObject, reason: string): NotTaken =>
	Object.fromEntries(Object.keys(body).map((key) => [key, reason]));

/** The email a new contact is created with: the item's, or a placeholder; none: the item fails naming Email. */
function emailForCreate(body: IDataObject, policy: ContactPolicy, notices: string[]): string | Failure {
	if (emailOf(body.email)) return String(body.email).trim();
	const [phone] = phonesToSearch(body);
	if (policy.withoutEmail === 'fail' || !phone) {
		const description =
			'Give the item an Email, or set Options → New Contact Without Email to "Create With a Placeholder Email".';
		return failure(
			'No contact has this phone, and Agency CRM creates no contact without an email',
			description,
			notices,
		);
	}
	const placeholder = placeholderEmail(phone.searched, body);
	notices.push(
		`Created with the placeholder email ${placeholder}: the item has none, and Agency CRM creates no contact without one`,
	);
	return placeholder;
}

/**
 * The contact the create refused with 409 names: the one with its email, updated by `found`; none
 * any search returns: the item fails with the API's answer.
 */
function* refusedAsDuplicate(
	email: string,
	refusal: { message: string; cause: unknown },
	found: (contact: IDataObject, evidence: string) => ContactPlan<Decision | Failure>,
	notices: string[],
): ContactPlan<Decision | Failure> {
	const existing = mostRecent(yield* claimed(yield* byEmail(email), () => byEmail(email)));
	if (existing)
		return yield* found(
			existing,
			`the create was refused with HTTP 409 (${refusal.message}); found by its email ${email}`,
		);
	return failure(
		`${refusal.message} No contact search returns it.`,
		'Check the contacts with this email in Agency CRM.',
		notices,
		refusal.cause,
	);
}

/** What a new contact is given once it exists, in words: its phones, its GDPR conformity. */
const given = (later: IDataObject) =>
	[
		Object.keys(later).some((key) => key !== 'conformity') ? 'phones' : undefined,
		'conformity' in later ? 'GDPR conformity' : undefined,
	]
		.filter(Boolean)
		.join(' and ');

/** A new contact given its phones (and conformity) once it exists: what was sent in all, the record in hand, and what was refused. */
function* givenLater(
	id: string | number,
	made: IDataObject,
	first: IDataObject,
	later: IDataObject,
): ContactPlan<{ sent: IDataObject; inHand?: IDataObject; refused: NotTaken }> {
	if (!Object.keys(later).length) return { sent: first, inHand: made, refused: {} };
	const added = yield { kind: 'update', id, changes: later };
	if (added.kind === 'refused') {
		const reason = `the contact was created, but the API refused its ${given(later)}: ${added.message}`;
		return { sent: first, inHand: made, refused: allNotTaken(later, reason) };
	}
	return { sent: { ...first, ...later }, inHand: expected(added, 'written').record, refused: {} };
}

/**
 * A create refused (by the API: nothing was made), or whose answer stayed lost whatever the node did
 * (no status: it may have been made, and running again is safe, as the contact is searched first).
 */
function refusedCreate(refusal: { status?: number; message: string; cause: unknown }, notices: string[]): Failure {
	const description =
		refusal.status === undefined
			? 'The contact may have been created. Run again: the node looks for it by its email before creating it.'
			: 'Nothing was created. Fix what the API names and run again.';
	return failure(refusal.message, description, notices, refusal.cause);
}

/**
 * The contact a create made, by its email, when the answer gave no ID. When that search fails the
 * create stands, and why the contact could not be found is kept for the fields it was to be given.
 */
function* foundByEmail(email: string): ContactPlan<{ made?: IDataObject; unfound?: string }> {
	try {
		return { made: mostRecent(yield* byEmail(email)) };
	} catch (error) {
		return { unfound: `the search by its email failed: ${(error as Error).message}` };
	}
}

/** `searched`: what the searches found, for the evidence; `found`: how a contact that turns out to exist is updated. */
export function* newContact(
	body: IDataObject,
	policy: ContactPolicy,
	searched: string,
	notices: string[],
	found: (contact: IDataObject, evidence: string) => ContactPlan<Decision | Failure>,
): ContactPlan<Decision | Failure> {
	const email = emailForCreate(body, policy, notices);
	if (typeof email !== 'string') return email;
	const [later, rest] = split(body, AFTER_CREATE_KEYS);
	const first = { ...rest, email, check_duplicate: true };
	const answer = yield { kind: 'create', body: first };
	if (answer.kind === 'refused' && answer.status === 409)
		return yield* refusedAsDuplicate(email, answer, found, notices);
	if (answer.kind === 'refused') return refusedCreate(answer, notices);
	const written = expected(answer, 'written');
	const inAnswer = written.record && contactIdOf(written.record) !== undefined ? written.record : undefined;
	const { made, unfound } = inAnswer ? { made: inAnswer, unfound: undefined } : yield* foundByEmail(email);
	if (written.existed && made) return yield* found(made, written.existed);
	// A lost answer's look-up found a contact with the email that does not hold what the create sent:
	// another client made it meanwhile, and this create was refused. It is the contact: updated.
	if (written.lookedUp && made && !holdsAll(made, rest)) {
		const evidence = `the create's answer was lost, and the contact with its email ${email} does not hold what it sent`;
		return yield* found(made, evidence);
	}
	const then = Object.keys(later).length ? `, then given its ${given(later)}` : '';
	const evidence = `${searched}; created with its email${then} (HTTP ${written.status})`;
	const id = made && contactIdOf(made);
	if (!made || id === undefined) {
		const reason = `the contact was created, but neither the answer nor a search gave its ID to add it${unfound ? ` (${unfound})` : ''}`;
		return {
			outcome: 'created',
			record: written.record ?? { ...rest, email },
			evidence,
			notTaken: allNotTaken(later, reason),
			notices,
		};
	}
	yield { kind: 'claim', ids: [id] };
	const { sent, inHand, refused } = yield* givenLater(id, made, first, later);
	const after = yield* confirmed(id, inHand, sent, `HTTP ${written.status}`, notices);
	return {
		outcome: 'created',
		record: after.record,
		evidence,
		notTaken: { ...after.notTaken, ...refused },
		notices,
	};
}
