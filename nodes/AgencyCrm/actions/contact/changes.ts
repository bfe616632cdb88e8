import type { IDataObject } from 'n8n-workflow';

import { emailOf, phoneOf, phonesOf, realEmailOf } from '../../catalogue/contacts';

/**
 * What of an item a contact already holds, what to send it, and what it did not take: pure
 * comparisons of the fields the item gives with a contact record, as production's own client reads a
 * contact back to tell what a write took (docs/assumptions.md "Production evidence": PATCH answers
 * 204, "only a read-back confirms what was taken").
 */

/** Fields, by their key in the request, and the reason each was not taken. */
export type NotTaken = Record<string, string>;

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());
const idOf = (value: unknown) => text(typeof value === 'object' && value !== null ? (value as IDataObject).id : value);

/** The ids of a record's groups: `groups` as objects or ids (`include=groups`), or `group`. */
function groupIdsOf(record: IDataObject): string[] {
	const groups = record.groups ?? record.group;
	return (Array.isArray(groups) ? groups : groups === undefined || groups === null ? [] : [groups]).map(idOf);
}

/** The numbers of an item's Other Phones (`[{number, type}]`). */
const numbersOf = (value: unknown) =>
	(Array.isArray(value) ? (value as IDataObject[]) : []).flatMap((entry) => phoneOf(entry?.number) ?? []);

/**
 * Whether the record holds the value sent under `key`: true, false, or undefined when the record does
 * not show it (a key the answer leaves out, a write-only field) and so cannot tell.
 */
type Holds = (record: IDataObject, value: unknown) => boolean | undefined;

const scalar =
	(...names: string[]): Holds =>
	(record, value) => {
		const name = names.find((candidate) => record[candidate] !== undefined);
		return name === undefined ? undefined : idOf(record[name]) === text(value);
	};

const HOLDS: Record<string, Holds> = {
	email: (record, value) => emailOf(record.email) === emailOf(value),
	firstname: (record, value) => text(record.firstname) === text(value),
	lastname: (record, value) => text(record.lastname) === text(value),
	phone: (record, value) => phonesOf(record).includes(phoneOf(value) ?? ''),
	mobile_phone: (record, value) => phonesOf(record).includes(phoneOf(value) ?? ''),
	phones: (record, value) => numbersOf(value).every((number) => phonesOf(record).includes(number)),
	origin: (record, value) =>
		'origin' in record || 'origin_id' in record ? idOf(record.origin ?? record.origin_id) === text(value) : undefined,
	group: (record, value) =>
		'groups' in record || 'group' in record ? groupIdsOf(record).includes(text(value)) : undefined,
	agency_id: scalar('agency_id', 'agency'),
	user_id: scalar('user_id', 'user'),
	type: scalar('type'),
	stop_sms: scalar('stop_sms', 'stopSms'),
	gender_code: scalar('gender_code', 'genderCode'),
};

export function holds(record: IDataObject, key: string, value: unknown): boolean | undefined {
	return HOLDS[key]?.(record, value);
}

/** The fields that say who the contact is: a contact found by its phone keeps its own. */
const IDENTITY = ['firstname', 'lastname', 'email'];

/**
 * The Other Phones sent to a contact: its own list with the item's numbers added. The API writes the
 * list as it is returned (spec section 4 "Customer"), so the item's list alone would take the
 * contact's other numbers away, the one it was found by among them.
 */
function phonesAdded(contact: IDataObject, value: unknown): IDataObject[] {
	const own = Array.isArray(contact.phones) ? (contact.phones as IDataObject[]) : [];
	const given = Array.isArray(value) ? (value as IDataObject[]) : [];
	const numbers = own.map((entry) => phoneOf(entry?.number));
	return [...own, ...given.filter((entry) => !numbers.includes(phoneOf(entry?.number)))];
}

/** What the item gives besides how to create it: the agency a new contact is created in, the create's option. */
const NOT_CHANGES = ['agency_id', 'check_duplicate'];

/**
 * What to send a contact found so that it holds the item's fields: those it does not hold yet. A
 * contact found by its phone keeps the name and email it has (a phone is weaker evidence than an
 * email); a contact found keeps its agency. What is left out for those reasons is `notTaken`.
 */
export function changesFor(
	contact: IDataObject,
	body: IDataObject,
	foundByPhone: boolean,
): { changes: IDataObject; notTaken: NotTaken } {
	const changes: IDataObject = {};
	const notTaken: NotTaken = {};
	for (const [key, value] of Object.entries(body)) {
		if (key === 'check_duplicate' || holds(contact, key, value) === true) continue;
		if (key === 'agency_id') {
			if (holds(contact, key, value) === false) notTaken[key] = 'a contact found keeps its own agency';
			continue;
		}
		const own = key === 'email' ? realEmailOf(contact.email) : text(contact[key]) || undefined;
		if (foundByPhone && IDENTITY.includes(key) && own !== undefined) {
			notTaken[key] = `the contact was found by its phone and keeps its own ${key} (${own})`;
			continue;
		}
		changes[key] = key === 'phones' ? phonesAdded(contact, value) : value;
	}
	return { changes, notTaken };
}

/**
 * The fields a read of a contact always shows (every read loads its origin and groups): one it lacks
 * is not on the contact. Others a record may simply not show (a type, a write-only field).
 */
const SHOWN = ['email', 'firstname', 'lastname', 'phone', 'mobile_phone', 'phones', 'origin', 'group'];

/**
 * The fields sent that a contact record does not hold, each with why: production answers an update
 * without the record, and may leave out what it does not take.
 */
export function notHeld(sent: IDataObject, record: IDataObject, answered: string): NotTaken {
	const missing: NotTaken = {};
	for (const [key, value] of Object.entries(sent)) {
		if (NOT_CHANGES.includes(key)) continue;
		const held = holds(record, key, value);
		if (held === false || (held === undefined && SHOWN.includes(key))) {
			missing[key] = `the API answered ${answered}, but the contact read back does not hold it`;
		}
	}
	return missing;
}

/** Whether a record holds every field sent (those it does not show aside). */
export const holdsAll = (record: IDataObject, sent: IDataObject) => !Object.keys(notHeld(sent, record, '')).length;

/**
 * What a new contact is given once it exists, by an update: its phones (production's duplicate rule
 * would otherwise attach it to whoever shares them), and its GDPR conformity, which production is
 * seen taking by PATCH only (docs/assumptions.md "Production evidence").
 */
export const AFTER_CREATE_KEYS = ['phone', 'mobile_phone', 'phones', 'conformity'];

export function split(body: IDataObject, keys: string[]): [IDataObject, IDataObject] {
	const taken = Object.entries(body).filter(([key]) => keys.includes(key));
	const rest = Object.entries(body).filter(([key]) => !keys.includes(key));
	return [Object.fromEntries(taken), Object.fromEntries(rest)];
}
