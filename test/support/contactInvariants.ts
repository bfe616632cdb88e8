import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { byId } from '../../tools/n8n/workflows';
import type { ContactCase, Lead } from './contactCases';
import { PLACEHOLDER_DOMAIN } from './contactCases';
import type { ModelContact } from './contactModel';
import { ContactModel, national } from './contactModel';
import { compared, realEmail, someoneElse } from './contactOracle';
import { fakeContext } from './fakeN8n';

/**
 * Contact → Create or Update run on one generated case (contactCases.ts) through the node's real
 * router, against the model of production's store (contactModel.ts), and the invariants of
 * docs/contacts.md checked after it. Whose each contact is comes from the generator; what the docs
 * allow from contactOracle.ts; nothing from the node's code.
 */

export interface Ran {
	before: Map<number, ModelContact>;
	model: ContactModel;
	output: INodeExecutionData[];
	hints: string[];
}

/** The lead as Create or Update's parameters (node version 2). */
function parameters(lead: Lead, run: ContactCase): Record<string, unknown> {
	const otherPhones = lead.phones ? { phones: { phone: lead.phones } } : {};
	return {
		resource: 'customer',
		operation: 'upsert',
		agencyId: byId(1),
		email: lead.email ?? '',
		phone: lead.phone ?? '',
		mobilePhone: lead.mobile_phone ?? '',
		firstname: lead.firstname ?? '',
		lastname: lead.lastname ?? '',
		additionalFields: { type: lead.type, ...(lead.origin ? { originId: String(lead.origin) } : {}), ...otherPhones },
		options: { ...run.policy, concurrency: run.concurrency, output: 'raw' },
	};
}

export async function run(generated: ContactCase): Promise<Ran> {
	const { faults, camel, clockBehindMs } = generated;
	// Another client creates a contact only for an email the CRM does not hold yet, as production would.
	const known = new Set(generated.existing.map((held) => lower(held.contact.email)));
	const intruder =
		generated.intruder && !known.has(lower(generated.intruder.contact.email)) ? generated.intruder : undefined;
	const model = new ContactModel(
		generated.existing.map((held) => held.contact),
		{ faults, camel, clockBehindMs, intruder },
	);
	const before = new Map([...model.contacts].map(([id, contact]) => [id, structuredClone(contact)]));
	const fake = fakeContext({
		typeVersion: 2,
		continueOnFail: true,
		itemParameters: generated.leads.map((lead) => parameters(lead, generated)),
		items: generated.leads.map(() => ({ json: {} })),
		httpRequestWithAuthentication: model.handle,
	});
	const [output] = await route.call(fake.execute);
	return { before, model, output, hints: fake.hints.map((hint) => hint.message) };
}

/** What a lead gives, under the API's keys. */
export function given(lead: Lead): IDataObject {
	const { person: _person, ...fields } = lead;
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export const lower = (value: unknown) =>
	String(value ?? '')
		.trim()
		.toLowerCase();
const lastDigits = (value: unknown) => national(String(value ?? '')).slice(-9);
export const idOf = (json: IDataObject) => Number(json.id ?? json.customers_id);

/** Every number a contact holds (the model's record, or the node's output of one), as compared. */
export function numbersHeld(contact: IDataObject): string[] {
	const list = Array.isArray(contact.phones) ? (contact.phones as IDataObject[]) : [];
	const numbers = [contact.phone, contact.mobile_phone, contact.mobilePhone, ...list.map((entry) => entry?.number)];
	return numbers.flatMap((number) => (number ? [lastDigits(number)] : []));
}

/** The numbers of a lead that its policy looks for: its Phone and Mobile Phone (Other Phones are not searched). */
const searchedNumbers = (lead: Lead) => [lead.phone, lead.mobile_phone].flatMap((number) => compared(number) ?? []);

/** The email given, as the placeholder of one of the lead's numbers (`<national digits>.<name>@…`, docs/contacts.md), if it is one. */
function placeholderOf(lead: Lead, email: string): string | undefined {
	const numbers = [lead.phone, lead.mobile_phone].flatMap((number) => (number ? [national(number)] : []));
	const placeholder = email.endsWith(`@${PLACEHOLDER_DOMAIN}`) && numbers.some((digits) => email.startsWith(digits));
	return placeholder ? email : undefined;
}

/** Whether a contact holds a value given: this test's own reading. */
function holdsGiven(contact: IDataObject, key: string, value: unknown): boolean {
	switch (key) {
		case 'email':
			return lower(contact.email) === lower(value);
		case 'phone':
		case 'mobile_phone':
			return numbersHeld(contact).includes(lastDigits(value));
		case 'phones':
			return (value as IDataObject[]).every((entry) => numbersHeld(contact).includes(lastDigits(entry.number)));
		case 'origin': {
			const origin = contact.origin as IDataObject | number | null;
			return String(typeof origin === 'object' && origin !== null ? origin.id : origin) === String(value);
		}
		default:
			return String(contact[key] ?? '').trim() === String(value).trim();
	}
}

/** Whose each contact is, by the generator: a person's for those held before, the other client's, and those the run created. */
function owners(generated: ContactCase, { model, output }: Ran): Map<number, number | undefined> {
	const owned = new Map<number, number | undefined>();
	generated.existing.forEach((held, index) => owned.set(1000 + index, held.person));
	if (model.intruderId !== undefined) owned.set(model.intruderId, generated.intruder!.person);
	generated.leads.forEach((lead, index) => {
		if (output[index].json.outcome === 'created') owned.set(idOf(output[index].json), lead.person);
	});
	return owned;
}

/** The item that created each contact the run created. */
function creators({ output }: Ran): Map<number, number> {
	const made = new Map<number, number>();
	output.forEach((item, index) => {
		if (item.json.outcome === 'created') made.set(idOf(item.json), index);
	});
	return made;
}

const holds = (state: ModelContact, number: string) => numbersHeld(state as unknown as IDataObject).includes(number);

/** Each state a contact was in during the run, as written: as held before (or created), then after each write. */
export const statesOf = (model: ContactModel, id: number) =>
	(model.history.get(id) ?? []).map((snapshot) => snapshot.contact);

/** The email each contact but `except` held just before the request `ordinal` (those existing then). */
const emailsHeldBefore = (model: ContactModel, ordinal: number, except: number) =>
	[...model.history].flatMap(([id, snapshots]) => {
		const held = snapshots.filter((snapshot) => snapshot.ordinal < ordinal).pop();
		return id === except || !held ? [] : [lower(held.contact.email)];
	});

/** The outputs in input order; no orphan; nothing changed that no item names; no email created twice. */
function nothingLostOrDoubled(generated: ContactCase, { before, model, output }: Ran) {
	expect(output.map((item) => item.pairedItem)).toEqual(generated.leads.map((_, index) => ({ item: index })));
	const created = [...model.contacts.keys()].filter((id) => !before.has(id) && id !== model.intruderId);
	const outputIds = new Set(output.filter((item) => !item.json.error).map((item) => idOf(item.json)));
	// A lost answer leaves no orphan: every contact the run created is some item's output.
	expect(created.filter((id) => !outputIds.has(id))).toEqual([]);
	// No contact is changed unless an item says it is its own.
	const patched = model.log.filter((request) => request.method === 'PATCH' && request.status === 204);
	const changed = [...new Set(patched.map((request) => Number(request.path.split('/').pop())))];
	expect(changed.filter((id) => !outputIds.has(id))).toEqual([]);
	// No two contacts created with one email (placeholders included), none with an email another contact held then
	// (production finds a duplicate by the emails contacts hold, not by those they held before the run).
	const createdEmails = created.map((id) => lower(model.contacts.get(id)!.email));
	expect(createdEmails.filter((email, index) => createdEmails.indexOf(email) !== index)).toEqual([]);
	const heldWhenCreated = created.filter((id) => {
		const [{ ordinal, contact }] = model.history.get(id)!;
		return emailsHeldBefore(model, ordinal, id).includes(lower(contact.email));
	});
	expect(heldWhenCreated.map((id) => lower(model.contacts.get(id)!.email))).toEqual([]);
	// The other client's contact, once it exists, is never created again by the run.
	const intruder = model.intruderId === undefined ? undefined : model.contacts.get(model.intruderId)!;
	const createdAfter = created.filter((id) => intruder && id > intruder.id).map((id) => model.contacts.get(id)!);
	expect(createdAfter.filter((contact) => lower(contact.email) === lower(intruder?.email))).toEqual([]);
	// Create or Update writes no consent: every contact's stays as it was.
	for (const [id, contact] of before)
		expect({ id, consent: model.contacts.get(id)!.consent }).toEqual({ id, consent: contact.consent });
}

/**
 * The states of a contact an item could have found, one after the other: all of them for one held
 * before the run; for one an earlier item created, those from its creator's own first update (which
 * gives it its phones), as items sharing a number run one after the other.
 */
function statesSeenBy(model: ContactModel, id: number, createdInTheRun: boolean): ModelContact[] {
	const snapshots = model.history.get(id) ?? [];
	if (!createdInTheRun) return snapshots.map((snapshot) => snapshot.contact);
	const firstUpdate = model.log.findIndex(
		(request) => request.method === 'PATCH' && request.path === `/customers/${id}`,
	);
	const from = snapshots.findIndex((snapshot) => snapshot.ordinal === firstUpdate);
	return from < 0 ? [] : snapshots.slice(from).map((snapshot) => snapshot.contact);
}

/**
 * Never a second copy: an item creates no contact while one its policy takes exists — one with its
 * email, or, when the policy looks at phones, one that holds its number throughout and that nothing
 * says is someone else (placeholder emails counting as none). A contact an earlier item made counts
 * when that item shares the number and its own update gave it the number.
 */
function noSecondCopy(generated: ContactCase, ran: Ran) {
	const { leads, policy } = generated;
	const typos = policy.firstNameTypo === 'samePerson';
	const made = creators(ran);
	leads.forEach((lead, index) => {
		const json = ran.output[index].json;
		if (json.outcome !== 'created') return;
		if (lead.email !== undefined) {
			const sameEmail = [...ran.before.values()].filter((contact) => lower(contact.email) === lower(lead.email));
			expect({ item: index, sameEmail: sameEmail.map((contact) => contact.id) }).toEqual({
				item: index,
				sameEmail: [],
			});
			if (policy.matchBy === 'emailElsePhones') return;
		}
		const numbers = searchedNumbers(lead);
		const takenFor = [...ran.model.contacts.keys()].filter((id) => {
			const creator = made.get(id);
			if (id === idOf(json) || (!ran.before.has(id) && (creator === undefined || creator > index))) return false;
			const shared =
				creator === undefined ? numbers : numbers.filter((number) => searchedNumbers(leads[creator]).includes(number));
			const states = statesSeenBy(ran.model, id, creator !== undefined);
			return shared.some(
				(number) =>
					states.length > 0 && states.every((state) => holds(state, number) && !someoneElse(state, lead, typos)),
			);
		});
		expect({ item: index, created: idOf(json), whileTaken: takenFor }).toEqual({
			item: index,
			created: idOf(json),
			whileTaken: [],
		});
	});
}

/**
 * Never another person's record: an item with an email is output only as the contact with it (or one
 * it created); a contact found by phone holds the item's number and, unless the user chose to update
 * one that differs, nothing says it is someone else (in some state it was in during the run).
 */
function neverAnotherPersonsRecord(generated: ContactCase, ran: Ran) {
	const { leads, policy } = generated;
	const owned = owners(generated, ran);
	const typos = policy.firstNameTypo === 'samePerson';
	leads.forEach((lead, index) => {
		const json = ran.output[index].json;
		if (json.error || json.outcome === 'created') return;
		if (json.matched_by === 'email') {
			// A lead without an email is found by its email only as the placeholder of one of its numbers (a 409).
			const itsOwn = lead.email === undefined ? placeholderOf(lead, lower(json.email)) : lower(lead.email);
			expect({ item: index, email: lower(json.email) }).toEqual({ item: index, email: itsOwn });
			// Whose the contact was: the lead's person's, or nobody's, unless it had no email of its own and the
			// run gave it this one (a phone match the checks below judge). A placeholder names a phone and a
			// name, which two people of one name on one phone share.
			const [first] = statesOf(ran.model, idOf(json));
			const owner = owned.get(idOf(json));
			const givenInTheRun = !realEmail(first.email) && lower(first.email) !== itsOwn;
			const whose = givenInTheRun || lead.email === undefined ? lead.person : (owner ?? lead.person);
			expect({ item: index, person: lead.person, contactOf: whose }).toEqual({
				item: index,
				person: lead.person,
				contactOf: lead.person,
			});
			return;
		}
		const states = statesOf(ran.model, idOf(json));
		const numbers = searchedNumbers(lead);
		const holding = states.filter((state) => numbers.some((number) => holds(state, number)));
		const judged = holding.filter(
			(state) => policy.whenPhoneMatchDiffers === 'update' || !someoneElse(state, lead, typos),
		);
		expect({ item: index, matchedBy: json.matched_by, foundAs: judged.length > 0 }).toEqual({
			item: index,
			matchedBy: 'phone',
			foundAs: true,
		});
	});
}

/**
 * A contact found by phone keeps its name and email: a real email is never replaced, and a first or
 * last name only by an item that found the contact by its email, giving that name. A placeholder, or
 * no value, may be filled.
 */
function identityKept(generated: ContactCase, { model, output }: Ran) {
	const foundByEmail = (id: number, key: 'firstname' | 'lastname', value: string | null) =>
		generated.leads.some(
			(lead, index) =>
				output[index].json.matched_by === 'email' && idOf(output[index].json) === id && lead[key] === value,
		);
	for (const [id, snapshots] of model.history) {
		snapshots.forEach(({ contact: now, sent }, step) => {
			const previous = snapshots[step - 1]?.contact;
			if (!previous || !sent) return;
			if (realEmail(previous.email))
				expect({ contact: id, email: lower(now.email) }).toEqual({ contact: id, email: lower(previous.email) });
			for (const key of ['firstname', 'lastname'] as const) {
				if (!previous[key] || now[key] === previous[key]) continue;
				const change = { contact: id, [key]: now[key], was: previous[key] };
				expect({ ...change, byAnItemFoundByEmail: foundByEmail(id, key, now[key]) }).toEqual({
					...change,
					byAnItemFoundByEmail: true,
				});
			}
		});
	}
}

/** Every field given is on the contact output, or named with why; the contact ends as the last item naming it left it. */
function fieldsTaken(generated: ContactCase, { model, output }: Ran) {
	const lastItemOf = new Map<number, number>();
	generated.leads.forEach((lead, index) => {
		const json = output[index].json;
		if (json.error) {
			expect(json.outcome).toBe('failed');
			return;
		}
		const id = idOf(json);
		lastItemOf.set(id, index);
		const notTaken = (json.fields_not_taken ?? {}) as IDataObject;
		const missing = Object.entries(given(lead)).filter(
			([key, value]) => !holdsGiven(json, key, value) && !notTaken[key],
		);
		expect({ item: index, missing }).toEqual({ item: index, missing: [] });
	});
	for (const [id, index] of lastItemOf) {
		const stored = model.contacts.get(id)! as unknown as IDataObject;
		const notTaken = (output[index].json.fields_not_taken ?? {}) as IDataObject;
		const lost = Object.entries(given(generated.leads[index])).filter(
			([key, value]) => !notTaken[key] && !holdsGiven(stored, key, value),
		);
		expect({ contact: id, item: index, lost }).toEqual({ contact: id, item: index, lost: [] });
	}
}

/** When exactly one contact had the item's email before the run, the item is that one. */
function theOneWithItsEmail(generated: ContactCase, { before, output }: Ran) {
	generated.leads.forEach((lead, index) => {
		const json = output[index].json;
		if (json.error || lead.email === undefined) return;
		const sameEmail = [...before.values()].filter((contact) => lower(contact.email) === lower(lead.email));
		if (sameEmail.length === 1) expect({ item: index, id: idOf(json) }).toEqual({ item: index, id: sameEmail[0].id });
	});
}

/** Match By holds: under Email, Else Phones an item with an email is never taken for a contact found by phone. */
function matchedAsChosen({ leads, policy }: ContactCase, { output }: Ran) {
	if (policy.matchBy !== 'emailElsePhones') return;
	leads.forEach((lead, index) => {
		if (lead.email === undefined) return;
		expect({ item: index, matchedBy: output[index].json.matched_by }).not.toEqual({ item: index, matchedBy: 'phone' });
	});
}

/** Every invariant of issues 32 and 39; each failure names the item or the contact and what it saw. */
export function invariantsHold(generated: ContactCase, ran: Ran) {
	nothingLostOrDoubled(generated, ran);
	generated.leads.forEach((_, index) => {
		const json = ran.output[index].json;
		// Created only when the contact did not exist before the run.
		if (json.outcome === 'created')
			expect({ item: index, existed: ran.before.has(idOf(json)) }).toEqual({ item: index, existed: false });
	});
	theOneWithItsEmail(generated, ran);
	matchedAsChosen(generated, ran);
	noSecondCopy(generated, ran);
	neverAnotherPersonsRecord(generated, ran);
	identityKept(generated, ran);
	fieldsTaken(generated, ran);
}
