import type { IDataObject } from 'n8n-workflow';

import {
	contactIdOf,
	contradictions,
	emailOf,
	mostRecent,
	nationalPhone,
	phoneOf,
	phonesOf,
} from '../../catalogue/contacts';
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

/** Contacts that have the phone but say they are someone else, in words: the hints, or the failure, say it. */
export const leftAlone = (differing: Array<{ contact: IDataObject; reasons: string[] }>) =>
	differing.map(
		({ contact, reasons }) =>
			`Contact ${String(contactIdOf(contact))} has the phone but ${reasons.join(' and ')}: a shared phone (a switchboard, a portal relay, a partner) does not make it the same person`,
	);

/** Contacts found by phone, judged against the item: those nothing contradicts, and the others with why. */
export function judged(found: IDataObject[], body: IDataObject) {
	const judgements = found.map((contact) => ({ contact, reasons: contradictions(contact, body) }));
	return {
		agreeing: mostRecent(judgements.filter(({ reasons }) => !reasons.length).map(({ contact }) => contact)),
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
): ContactPlan<{ record?: IDataObject; by: string; leftAlone: string[] }> {
	const email = emailOf(body.email);
	const exact = email ? yield* byEmail(email) : [];
	if (exact.length) return { record: mostRecent(exact), by: `its email ${email}`, leftAlone: [] };
	const phones = phonesToSearch(body);
	const { agreeing, differing } = judged(yield* byPhones(phones), body);
	const by = `its phone ${phones.map((phone) => phone.searched).join(' or ')}`;
	return { record: agreeing, by, leftAlone: leftAlone(differing) };
}
