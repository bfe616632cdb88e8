import type { IDataObject } from 'n8n-workflow';

import type { PhoneMatchJudgement } from '../../catalogue/contacts';
import {
	contactIdOf,
	emailOf,
	judgePhoneMatch,
	mostRecent,
	nationalPhone,
	phoneOf,
	phonesOf,
} from '../../catalogue/contacts';
import type { ContactPolicy } from '../../catalogue/resources/contact/matching';
import type { Answer, ContactPlan } from './steps';

/**
 * The searches of the contact decision, without I/O: each yields its search and keeps the exact hits,
 * as production's own clients do with its loose search (docs/assumptions.md "Production evidence":
 * emails case aside, phones by their last 9 digits).
 */

/** What the decision expects the API to have answered; anything else is a defect of the code that sends. */
export function expected<K extends Answer['kind']>(answer: Answer, kind: K): Extract<Answer, { kind: K }> {
	if (answer.kind !== kind) throw new Error(`The contact decision expected "${kind}", got "${answer.kind}"`);
	return answer as Extract<Answer, { kind: K }>;
}

/** The hits of a search that has an id; a search that failed throws what it failed with. */
function hitsOf(answer: Answer): IDataObject[] {
	if (answer.kind === 'unsearched') throw answer.cause;
	return expected(answer, 'hits').records.filter((hit) => contactIdOf(hit) !== undefined);
}

/** The contacts whose email is this one (case and spaces aside). */
export function* byEmail(email: string): ContactPlan<IDataObject[]> {
	const hits = hitsOf(yield { kind: 'search', filter: { email } });
	return hits.filter((hit) => emailOf(hit.email) === emailOf(email));
}

/** A phone of the item: as production's search takes it, and as numbers are compared. */
export interface SearchedPhone {
	searched: string;
	compared: string;
}

/** The item's Phone and Mobile Phone, each once, as searched and compared. */
export function phonesToSearch(body: IDataObject): SearchedPhone[] {
	const phones = [body.phone, body.mobile_phone].flatMap((value) => {
		const searched = nationalPhone(value);
		const compared = phoneOf(value);
		return searched && compared ? [{ searched, compared }] : [];
	});
	return phones.filter((phone, index) => phones.findIndex((other) => other.compared === phone.compared) === index);
}

/** The contacts that hold one of the phones, each once. */
export function* byPhones(phones: SearchedPhone[]): ContactPlan<IDataObject[]> {
	const found = new Map<string, IDataObject>();
	for (const phone of phones) {
		const hits = hitsOf(yield { kind: 'search', filter: { phone: phone.searched } });
		for (const hit of hits) if (phonesOf(hit).includes(phone.compared)) found.set(String(contactIdOf(hit)), hit);
	}
	return [...found.values()];
}

/**
 * Contacts found, told to the run's write order as those the item may write (actions/writeOrder.ts):
 * when an earlier item of the run wrote one of them meanwhile, they are searched again (`again`), so
 * that they are judged as that item left them.
 */
export function* claimed(found: IDataObject[], again: () => ContactPlan<IDataObject[]>): ContactPlan<IDataObject[]> {
	if (!found.length) return found;
	const answer = expected(yield { kind: 'claim', ids: found.map((hit) => contactIdOf(hit)!) }, 'claimed');
	return answer.writtenMeanwhile ? yield* again() : found;
}

/** A contact found by phone, and what of it says it is someone else. */
export type Judged = PhoneMatchJudgement & { contact: IDataObject };

/** What of a contact found by phone says it is someone else, in words, with both values. */
export const differences = ({ contact, reasons }: Judged) =>
	`Contact ${String(contactIdOf(contact))} has the phone but ${reasons.join(' and ')}`;

/** Contacts that have the phone but say they are someone else, left alone: the hints, or the failure, say it. */
export const leftAlone = (differing: Judged[]) =>
	differing.map(
		(judged) =>
			`${differences(judged)}: a shared phone (a switchboard, a portal relay, a partner) does not make it the same person`,
	);

/**
 * Contacts found by phone, judged against the item as the policy says: the most recent that nothing
 * contradicts (with the typo taken for its first name, if one was), and the others with why.
 */
export function judged(found: IDataObject[], body: IDataObject, policy: ContactPolicy) {
	const typos = policy.firstNameTypo === 'samePerson';
	const judgements: Judged[] = found.map((contact) => ({ contact, ...judgePhoneMatch(contact, body, typos) }));
	const agreeing = mostRecent(judgements.filter(({ reasons }) => !reasons.length).map(({ contact }) => contact));
	return {
		agreeing: judgements.find(({ contact }) => contact === agreeing),
		differing: judgements.filter(({ reasons }) => reasons.length > 0),
	};
}

/**
 * The contact a create refused with 409 (Check Duplicate) names: the one with its email, else one
 * with its phone that nothing contradicts; `leftAlone` says which others have the phone and why they
 * are not it.
 */
export function* existingContact(
	body: IDataObject,
	policy: ContactPolicy,
): ContactPlan<{ record?: IDataObject; by: string; leftAlone: string[] }> {
	const email = emailOf(body.email);
	const exact = email ? yield* byEmail(email) : [];
	if (exact.length) return { record: mostRecent(exact), by: `its email ${email}`, leftAlone: [] };
	const phones = phonesToSearch(body);
	const { agreeing, differing } = judged(yield* byPhones(phones), body, policy);
	const by = `its phone ${phones.map((phone) => phone.searched).join(' or ')}${agreeing?.typo ? `; ${agreeing.typo}` : ''}`;
	return { record: agreeing?.contact, by, leftAlone: leftAlone(differing) };
}
