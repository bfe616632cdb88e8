import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/**
 * A model of production's contact store, written from docs/assumptions.md "Production evidence" and
 * the spec, apart from the node's code: what the generated cases of issue 32 run the node against.
 *
 * - A contact's numbers are its `phone`, its `mobile_phone` and each of its `phones` (`[{type,
 *   number}]`, the spec's "phones", written as returned).
 * - `POST /customers` refuses a contact without an email (422 naming `email`); a contact whose email
 *   or any number is already on the site is a duplicate: 409 with `check_duplicate`, else that
 *   contact is answered (200, `meta.duplicate`). A new one answers 201 with the record.
 * - `POST /customers/search` is loose and newest first: an email or a number that contains the one
 *   searched is a hit; numbers are matched in their national form only (a search for +33 6… finds
 *   nothing; a number stored as +33 6…, +33 (0)6… or 0033 6… is found by 06…). Cursor paging. Its
 *   results carry no consent, asked or not (the router reads a contact back for it).
 * - `PATCH /customers/{id}` answers 204 with no body; a phone with fewer than 6 digits is refused
 *   (422) and nothing is written; `phones` replaces the contact's list (as it is written as returned).
 * - `GET /customers/{id}` answers the record, with its origin and groups when `include` asks, and its
 *   consent with `include=consent`: `{reason, consentDate, acceptOutsideHours, proofs, revokedAt}`, or
 *   null when it has none.
 * - Any request may lose its answer (`faults`, by the request's ordinal): a reset before the API
 *   processed it, a reset or a 502 after, or a 503 (not processed).
 * - `camel` answers production's other spellings: `id`, `mobilePhone`, `createdAt`.
 * - `clockBehindMs`: the API's clock runs behind n8n's, so a contact made now says it was created earlier.
 * - `intruder`: another client of the CRM (a portal, a web form) creates a contact just before the
 *   request of that ordinal: the CRM is shared, so a contact may appear between a search and a create.
 */

export interface ModelPhone {
	type: string;
	number: string;
}

export interface ModelConsent {
	reason: string;
	consentDate: string;
	acceptOutsideHours: boolean;
	proofs: Array<{ name: string }>;
	revokedAt: string | null;
}

export interface ModelContact {
	id: number;
	email: string | null;
	firstname: string | null;
	lastname: string | null;
	phone: string | null;
	mobile_phone: string | null;
	phones: ModelPhone[];
	type: string | null;
	origin: number | null;
	agency_id: number;
	consent: ModelConsent | null;
	created_at: string;
}

/** A contact as it stood after a write: what the run's invariants read its history from. */
export interface Snapshot {
	/** The ordinal of the request that left it so (the create, or a PATCH). */
	ordinal: number;
	contact: ModelContact;
	/** The fields the PATCH carried (none for a create). */
	sent?: IDataObject;
}

export type Fault = 'reset-before' | 'reset-after' | 'gateway-after' | 'unavailable';

export interface Logged {
	method: string;
	path: string;
	body?: IDataObject;
	/** The status the API gave, whether or not its answer reached the node; undefined: not processed. */
	status?: number;
}

/** A number as production matches it: digits, +33, +33 (0) and 0033 folded to the national 0. */
export const national = (number: string) => {
	const digits = number.replace(/\D/g, '');
	const french = /^(?:00)?330?(\d{9})$/.exec(digits);
	return french ? `0${french[1]}` : digits;
};

/** Every number of a contact, in its national form. */
export const numbersOf = (contact: Pick<ModelContact, 'phone' | 'mobile_phone' | 'phones'>) =>
	[contact.phone, contact.mobile_phone, ...contact.phones.map((entry) => entry.number)].flatMap((number) =>
		number ? [national(number)] : [],
	);
const lower = (email: string | null | undefined) => (email ?? '').trim().toLowerCase();

type Answer = { statusCode: number; body?: unknown; headers: IDataObject };
const answer = (statusCode: number, body?: unknown): Answer => ({ statusCode, body, headers: {} });
const refusal = (statusCode: number, code: string, message: string, field?: string) =>
	answer(statusCode, {
		error: { code, message, ...(field ? { details: [{ field, message }] } : {}) },
		request_id: 'model',
	});

export class ContactModel {
	readonly contacts = new Map<number, ModelContact>();
	readonly log: Logged[] = [];
	private nextId = 1000;
	private clock = Date.UTC(2026, 10, 1);

	private readonly faults: ReadonlyMap<number, Fault>;
	private readonly camel: boolean;
	private readonly clockBehindMs: number;
	private readonly intruder?: { at: number; contact: Omit<ModelContact, 'id' | 'created_at'> };
	/** The id of the contact the other client created, once it has. */
	intruderId?: number;
	/** Each contact as every write left it, in order: as held before the run (ordinal -1), created, then each PATCH. */
	readonly history = new Map<number, Snapshot[]>();

	constructor(
		existing: Array<Omit<ModelContact, 'id' | 'created_at'>>,
		options: {
			faults?: ReadonlyMap<number, Fault>;
			camel?: boolean;
			clockBehindMs?: number;
			intruder?: { at: number; contact: Omit<ModelContact, 'id' | 'created_at'> };
		} = {},
	) {
		this.faults = options.faults ?? new Map();
		this.camel = options.camel ?? false;
		this.clockBehindMs = options.clockBehindMs ?? 0;
		this.intruder = options.intruder;
		for (const contact of existing) this.add(contact);
	}

	/** A contact held before the run was created a minute after the one before it, long ago; one the run creates, now. */
	private add(fields: Omit<ModelContact, 'id' | 'created_at'>, now?: number): ModelContact {
		this.clock += 60_000;
		const contact = { ...fields, id: this.nextId++, created_at: new Date(now ?? this.clock).toISOString() };
		this.contacts.set(contact.id, contact);
		this.remember(contact, now === undefined ? -1 : this.log.length - 1);
		return contact;
	}

	private remember(contact: ModelContact, ordinal: number, sent?: IDataObject) {
		const snapshot = { ordinal, contact: structuredClone(contact), ...(sent ? { sent } : {}) };
		this.history.set(contact.id, [...(this.history.get(contact.id) ?? []), snapshot]);
	}

	/** A contact as the API answers it: with its origin and groups, and its consent (a read only), when `include` asks. */
	view(contact: ModelContact, include: string[] = [], read = true): IDataObject {
		const { id, mobile_phone: mobile, created_at: created, origin, consent, ...rest } = contact;
		const names = this.camel
			? { id, mobilePhone: mobile, createdAt: created }
			: { customers_id: id, mobile_phone: mobile, created_at: created };
		return {
			...rest,
			...names,
			...(include.includes('origin') ? { origin: origin === null ? null : { id: origin } } : {}),
			...(include.includes('groups') ? { groups: [] } : {}),
			...(read && include.includes('consent') ? { consent } : {}),
		};
	}

	/** The node's `httpRequestWithAuthentication`, as n8n answers it (full responses, status errors returned). */
	readonly handle = async (_credential: string, options: IHttpRequestOptions): Promise<Answer> => {
		const ordinal = this.log.length;
		if (this.intruder && ordinal === this.intruder.at && !this.duplicateOf(lower(this.intruder.contact.email), [])) {
			// Production's duplicate rule holds for every client: no second contact with that email.
			this.intruderId = this.add(this.intruder.contact, Date.now()).id;
		}
		const entry: Logged = { method: options.method ?? 'GET', path: options.url, body: options.body as IDataObject };
		this.log.push(entry);
		const fault = this.faults.get(ordinal);
		if (fault === 'reset-before') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		if (fault === 'unavailable') return answer(503);
		const result = this.answer(entry, options);
		entry.status = result.statusCode;
		if (fault === 'reset-after') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		if (fault === 'gateway-after') return answer(502);
		return result;
	};

	private answer({ method, path, body = {} }: Logged, options: IHttpRequestOptions): Answer {
		const include = String((options.qs as IDataObject | undefined)?.include ?? '').split(',');
		const byId = /^\/customers\/(\d+)$/.exec(path);
		if (method === 'POST' && path === '/customers/search') return this.search(body, include);
		if (method === 'POST' && path === '/customers') return this.create(body, include);
		const contact = byId ? this.contacts.get(Number(byId[1])) : undefined;
		if (byId && !contact) return refusal(404, 'NOT_FOUND', `Customer ${byId[1]} not found.`);
		if (method === 'PATCH' && contact) return this.update(contact, body);
		if (method === 'GET' && contact) return answer(200, { data: this.view(contact, include) });
		return refusal(404, 'NOT_FOUND', `No route ${method} ${path}`);
	}

	private search(body: IDataObject, include: string[]): Answer {
		const email = lower(body.email as string | undefined);
		const phone = body.phone === undefined ? '' : String(body.phone).replace(/\D/g, '');
		const hits = [...this.contacts.values()]
			.filter((contact) => !email || lower(contact.email).includes(email))
			.filter((contact) => !phone || numbersOf(contact).some((number) => number.includes(phone)))
			.sort((a, b) => b.id - a.id);
		const start = Number(body.cursor ?? 0);
		const size = Number(body.per_page ?? 20);
		const page = hits.slice(start, start + size);
		const more = start + size < hits.length;
		const meta = { next_cursor: more ? String(start + size) : null, has_more: more };
		return answer(200, { data: page.map((contact) => this.view(contact, include, false)), meta });
	}

	private duplicateOf(email: string, numbers: string[]): ModelContact | undefined {
		return [...this.contacts.values()].find(
			(contact) => lower(contact.email) === email || numbersOf(contact).some((number) => numbers.includes(number)),
		);
	}

	private create(body: IDataObject, include: string[]): Answer {
		const email = lower(body.email as string | undefined);
		if (!email) return refusal(422, 'VALIDATION_ERROR', 'The email field is required.', 'email');
		const phones = (body.phones as ModelPhone[] | undefined) ?? [];
		const numbers = numbersOf({ phone: body.phone as string, mobile_phone: body.mobile_phone as string, phones });
		const duplicate = this.duplicateOf(email, numbers);
		if (duplicate && body.check_duplicate === true) {
			return refusal(409, 'DUPLICATE_CUSTOMER', `Customer ${duplicate.id} already exists.`);
		}
		if (duplicate) return answer(200, { data: this.view(duplicate, include), meta: { duplicate: true } });
		const contact = this.add(
			{
				email: String(body.email).trim(),
				firstname: (body.firstname as string) ?? null,
				lastname: (body.lastname as string) ?? null,
				phone: (body.phone as string) ?? null,
				mobile_phone: (body.mobile_phone as string) ?? null,
				phones: phones.map((entry) => ({ type: entry.type, number: entry.number })),
				type: (body.type as string) ?? null,
				origin: body.origin === undefined ? null : Number(body.origin),
				agency_id: Number(body.agency_id ?? 1),
				consent: null,
			},
			Date.now() - this.clockBehindMs,
		);
		return answer(201, { data: this.view(contact, include) });
	}

	private update(contact: ModelContact, body: IDataObject): Answer {
		for (const key of ['phone', 'mobile_phone']) {
			const number = body[key];
			if (number && String(number).replace(/\D/g, '').length < 6) {
				return refusal(422, 'VALIDATION_ERROR', `The ${key} is not a phone number.`, key);
			}
		}
		for (const key of ['email', 'firstname', 'lastname', 'phone', 'mobile_phone', 'type'] as const) {
			if (body[key] !== undefined) contact[key] = body[key] as string;
		}
		if (Array.isArray(body.phones)) {
			contact.phones = (body.phones as ModelPhone[]).map((entry) => ({ type: entry.type, number: entry.number }));
		}
		if (body.origin !== undefined) contact.origin = Number(body.origin);
		if (body.agency_id !== undefined) contact.agency_id = Number(body.agency_id);
		this.remember(contact, this.log.length - 1, body);
		return answer(204);
	}
}
