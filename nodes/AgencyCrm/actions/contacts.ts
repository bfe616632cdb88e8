import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiResponse } from '../../shared/transport';
import { answerOrRefusal, apiRequest, collectPages } from '../../shared/transport';
import { endpointOf } from '../catalogue';
import {
	contactIdOf,
	contradictions,
	createdAtOf,
	emailOf,
	mostRecent,
	nationalPhone,
	phoneOf,
	phonesOf,
} from '../catalogue/contacts';
import { requestFor, requestOf } from '../catalogue/requests';
import type { Endpoint, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';
import { OUTCOME, OUTCOME_EVIDENCE, outputShaper } from './output';
import { writtenRecords } from './writtenRecord';

/**
 * Customer Create and Create or Update (reference use case 1), as production takes them
 * (docs/assumptions.md "Production evidence"): searches by email, then by each phone in its national
 * form; hits that are not exact are left alone; a phone match never counts when the contact has
 * another email or name; a new contact is created with its email first and its phones added after,
 * so that production's duplicate rule (email or phone) cannot attach it to a switchboard's or a
 * partner's contact. Both operations say what happened under `outcome`, and what decided it under
 * `outcome_evidence`: an answer of the API, never a guess from the fields.
 */

type Outcome = 'created' | 'existing' | 'updated' | 'unknown';

interface Decided {
	record: IDataObject;
	outcome: Outcome;
	evidence: string;
}

/** Search hits looked at per key: production's search is not exact and newest first, so the contact may not lead. */
const SEARCH_PAGE_SIZE = 100;
const SEARCH_HITS_LOOKED_AT = 500;

/** A created_at this long before the request was sent is another contact's: the API's clock and n8n's differ by less. */
const CLOCK_SKEW_MS = 60_000;

const CHECK_DUPLICATE = 'check_duplicate';
const PHONE_KEYS = ['phone', 'mobile_phone', 'phones'] as const;

/** The contact's id, which an update needs: a record without one cannot be the contact meant. */
function contactId(context: IExecuteFunctions, record: IDataObject, item: ItemRun): string | number {
	const id = contactIdOf(record);
	if (id !== undefined) return id;
	throw new NodeOperationError(
		context.getNode(),
		`The contact the API returned has no customers_id or id, so the node cannot update it (keys found: ${Object.keys(record).join(', ') || 'none'})`,
		{ itemIndex: item.index },
	);
}

/** The hits of one contact search, up to SEARCH_HITS_LOOKED_AT; each read with what the contact's output shows. */
async function search(context: IExecuteFunctions, filter: IDataObject, item: ItemRun): Promise<IDataObject[]> {
	const request = requestOf('customer:getAll', { body: filter }, item.index);
	return await collectPages(context, request, 'cursor', SEARCH_HITS_LOOKED_AT, SEARCH_PAGE_SIZE);
}

/** The key a contact has in the run's write order (actions/writeOrder.ts). */
const contactKey = (record: IDataObject) => `contact:${String(contactIdOf(record))}`;

/**
 * The contact searched for: by email (an exact match, case aside; the most recent of several), then
 * by each phone (a match on the last 9 digits whose email and names do not say it is someone else).
 * Hits that are neither are left alone, with a hint. The contacts it may write are the item's in the
 * run's write order (writeOrder.ts) before it decides: earlier items of the run that write them (a
 * first name set by an item found by email) have then ended, and contacts found by phone are searched
 * again when they did, so that they are judged as those items left them.
 */
async function findContact(
	context: IExecuteFunctions,
	body: IDataObject,
	item: ItemRun,
): Promise<{ record: IDataObject; by: string } | undefined> {
	let strangers = false;
	const email = emailOf(body.email);
	if (email) {
		const hits = await search(context, { email: String(body.email).trim() }, item);
		const exact = hits.filter((hit) => emailOf(hit.email) === email);
		if (exact.length) {
			const record = mostRecent(exact)!;
			await item.turn.resolved([contactKey(record)]);
			return { record, by: `its email ${email}` };
		}
		strangers ||= hits.length > 0;
	}
	const phones = [body.phone, body.mobile_phone].flatMap((phone) => {
		const searched = nationalPhone(phone);
		return searched ? [{ searched, compared: phoneOf(phone)! }] : [];
	});
	const sharing = async ({ searched, compared }: (typeof phones)[number]) => {
		const hits = await search(context, { phone: searched }, item);
		strangers ||= hits.some((hit) => !phonesOf(hit).includes(compared));
		return hits.filter((hit) => phonesOf(hit).includes(compared));
	};
	const found = await Promise.all(phones.map(sharing));
	const candidates = found.flat();
	if (candidates.length) {
		const written = await item.turn.resolved(candidates.map(contactKey));
		for (const [index, phone] of phones.entries()) {
			const current = written ? await sharing(phone) : found[index];
			const agreeing = current.filter((hit) => contradictions(hit, body).length === 0);
			for (const other of current.filter((hit) => !agreeing.includes(hit))) {
				item.notices.push(
					`Contact ${String(contactIdOf(other))} has the phone ${phone.searched} but another ${contradictions(other, body).join(' and ')}: it was left alone, as a shared phone (a switchboard, a portal relay, a partner) does not make it the same person`,
				);
			}
			if (agreeing.length) return { record: mostRecent(agreeing)!, by: `its phone ${phone.searched}` };
		}
	}
	if (strangers) {
		item.notices.push(
			"The contact search returned contacts whose email and phones are not those searched: they were left alone (production's search is not exact)",
		);
	}
	return undefined;
}

/** Applies the item's fields to a contact; the agency is where a new contact is created, a contact found keeps its own. */
async function updateContact(
	context: IExecuteFunctions,
	request: PreparedRequest,
	id: string | number,
	changes: IDataObject,
	item: ItemRun,
): Promise<IDataObject> {
	const update = endpointOf('customer:update');
	const prepared: PreparedRequest = { ...request, pathParams: { customerId: id }, body: changes };
	const response = await apiRequest(context, requestFor(update, prepared, item.index));
	return (await writtenRecords(context, update, prepared, response, item))[0];
}

/** The item's fields for a contact found: not its agency (it keeps its own), nor the create's option. */
function changesOf(body: IDataObject): IDataObject {
	const changes = { ...body };
	delete changes.agency_id;
	delete changes[CHECK_DUPLICATE];
	return changes;
}

/**
 * Whether the create carries its own answer to "is it new": the answer's flag (`meta.duplicate`), a
 * `created_at` from before the request, or the status (201 Created, 200 for a contact it had).
 */
function createdByTheRequest(response: ApiResponse, record: IDataObject, sentAt: number): Omit<Decided, 'record'> {
	const meta = (response.body as IDataObject | undefined)?.meta as IDataObject | undefined;
	const flag = meta?.duplicate ?? meta?.duplicate_customer;
	if (typeof flag === 'boolean') {
		return flag
			? { outcome: 'existing', evidence: 'the answer flags the contact as a duplicate (meta.duplicate)' }
			: { outcome: 'created', evidence: 'the answer flags the contact as new (meta.duplicate false)' };
	}
	const createdAt = createdAtOf(record);
	if (createdAt !== undefined && createdAt < sentAt - CLOCK_SKEW_MS) {
		return {
			outcome: 'existing',
			evidence: `its created_at (${new Date(createdAt).toISOString()}) is before this request`,
		};
	}
	if (response.statusCode === 201) return { outcome: 'created', evidence: 'HTTP 201 Created' };
	if (response.statusCode === 200) {
		return { outcome: 'existing', evidence: 'HTTP 200 rather than 201 Created: the API returned a contact it had' };
	}
	if (createdAt !== undefined) return { outcome: 'created', evidence: 'its created_at is the time of this request' };
	return { outcome: 'unknown', evidence: `HTTP ${response.statusCode}, with no flag and no created_at to tell` };
}

/**
 * The contact a create answered 409 (Check Duplicate) for: the one with that email (the most recent
 * exact match), else with that phone. None the node can be sure of (a shared phone's contact, whose
 * email or names differ): the 409 stands, saying which contacts were left alone and why.
 */
async function existingAfterConflict(
	context: IExecuteFunctions,
	body: IDataObject,
	item: ItemRun,
	conflict: NodeApiError,
): Promise<{ record: IDataObject; by: string }> {
	const noticed = item.notices.length;
	const found = await findContact(context, body, item);
	if (found) return found;
	const leftAlone = item.notices.slice(noticed);
	conflict.description = [
		conflict.description,
		'The node then searched for that contact by its email and phones, and found none it could be sure of.',
		...leftAlone,
	]
		.filter(Boolean)
		.join('<br>');
	throw conflict;
}

function outputOf(endpoint: Endpoint, request: PreparedRequest, item: ItemRun, decided: Decided): INodeExecutionData[] {
	const shaped = outputShaper(endpoint, request, item)(decided.record);
	return [{ json: { ...shaped, [OUTCOME]: decided.outcome, [OUTCOME_EVIDENCE]: decided.evidence } }];
}

/**
 * Customer Create: the contact the API answers with, and whether it is new (`created`) or one the API
 * already had (`existing`, returned unchanged: the item's fields were not applied, and the execution
 * gets a hint saying so), on the evidence of the answer. With Check Duplicate on, the API's 409 is
 * that evidence: the contact with that email is output as `existing`.
 */
export async function createCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const create = endpointOf('customer:create');
	const sentAt = Date.now();
	let decided: Decided;
	const answer = await answerOrRefusal(this, requestFor(create, request, item.index), 409);
	if ('refused' in answer) {
		// Without Check Duplicate the API uses the contact it has (spec section 4): a 409 is not that answer.
		if (request.body[CHECK_DUPLICATE] !== true) throw answer.refused;
		const { record, by } = await existingAfterConflict(this, request.body, item, answer.refused);
		decided = { record, outcome: 'existing', evidence: `HTTP 409 to Check Duplicate; found by ${by}` };
	} else {
		const [record] = await writtenRecords(this, create, request, answer, item);
		decided = { record, ...createdByTheRequest(answer, record, sentAt) };
	}
	if (decided.outcome === 'existing') {
		item.notices.push(
			'The API answered the create with a contact it already had (same email or phone), unchanged: this item\'s fields were not applied. "Create or Update" applies them',
		);
	}
	return outputOf(endpoint, request, item, decided);
}

/**
 * The contact a create answered with, with its id: an answer that gave none (a bare acknowledgement
 * without a `Location`) is completed by a search for what was created, so that its phones can be
 * added; the create succeeded either way.
 */
async function withItsId(context: IExecuteFunctions, [created]: IDataObject[], sent: IDataObject, item: ItemRun) {
	if (contactIdOf(created) !== undefined) return created;
	const found = await findContact(context, sent, item);
	return found ? { ...created, ...found.record } : created;
}

/**
 * The create of Create or Update, for a contact no search found: with its email and names first and
 * Check Duplicate on, so that only an email can make it someone else's (a 409, then searched and
 * updated); its phones are added by an update once it exists. Without an email or a last name to
 * create it by, the phones go with the create.
 */
async function createThenAddPhones(
	context: IExecuteFunctions,
	request: PreparedRequest,
	item: ItemRun,
): Promise<Decided> {
	const create = endpointOf('customer:create');
	const body = request.body;
	const phones = Object.fromEntries(PHONE_KEYS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));
	const phonesLater = Object.keys(phones).length > 0 && (emailOf(body.email) || body.lastname);
	const first: IDataObject = { ...body, [CHECK_DUPLICATE]: true };
	if (phonesLater) for (const key of PHONE_KEYS) delete first[key];
	const prepared: PreparedRequest = { ...request, body: first };
	// After a lost answer the create is looked for before it is sent again: found, it is this item's.
	const lookUp = async () => {
		const found = await findContact(context, body, item);
		return found && { statusCode: 201, body: { data: found.record }, headers: {} };
	};
	const answer = await answerOrRefusal(
		context,
		{ ...requestFor(create, prepared, item.index), lookUpOutcome: lookUp },
		409,
	);
	if ('refused' in answer) {
		const { record, by } = await existingAfterConflict(context, body, item, answer.refused);
		const id = contactId(context, record, item);
		const updated = await updateContact(context, request, id, changesOf(body), item);
		return { record: updated, outcome: 'updated', evidence: `HTTP 409 to the create; found by ${by}, then updated` };
	}
	const evidence = 'created with Check Duplicate on, which the API refuses with 409 for a known email or phone';
	const created = await withItsId(context, await writtenRecords(context, create, prepared, answer, item), first, item);
	if (!phonesLater) return { record: created, outcome: 'created', evidence };
	const id = contactIdOf(created);
	if (id === undefined) {
		item.notices.push(
			'The contact was created, but neither the answer nor a search gave its ID: its phones could not be added. Add them with Contact → Update',
		);
		return { record: created, outcome: 'created', evidence };
	}
	// A contact just made: no earlier item writes it; later ones may now find it.
	await item.turn.resolved([contactKey(created)]);
	try {
		const withPhones = await updateContact(context, request, id, phones, item);
		return { record: withPhones, outcome: 'created', evidence: `${evidence}; its phones added after` };
	} catch (error) {
		// The contact exists: its item does not fail, and says what it could not add.
		item.notices.push(
			`The contact ${String(id)} was created, but adding its phones failed (${(error as Error).message}): the output is the contact without them`,
		);
		return { record: created, outcome: 'created', evidence };
	}
}

/**
 * Reference use case 1, steps 1-2: search by email, then by phone; update the contact found with the
 * fields given, or create it. The contact found is the item's record in the run's write order from
 * then on, so that two items naming it two ways keep their input order.
 */
export async function upsertCustomer(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): Promise<INodeExecutionData[]> {
	const found = await findContact(this, request.body, item);
	if (!found) return outputOf(endpoint, request, item, await createThenAddPhones(this, request, item));
	const id = contactId(this, found.record, item);
	const record = await updateContact(this, request, id, changesOf(request.body), item);
	return outputOf(endpoint, request, item, { record, outcome: 'updated', evidence: `found by ${found.by}` });
}
