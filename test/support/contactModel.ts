import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/**
 * A model of production's contact store, written from docs/assumptions.md "Production evidence" and
 * the spec, apart from the node's code: what the generated cases of issue 32 run the node against.
 *
 * - `POST /customers` refuses a contact without an email (422 naming `email`); a contact whose email
 *   or any phone is already on the site is a duplicate: 409 with `check_duplicate`, else that contact
 *   is answered (200, `meta.duplicate`). A new one answers 201 with the record.
 * - `POST /customers/search` is loose and newest first: an email or a number that contains the one
 *   searched is a hit; numbers are matched in their national form only (a search for +33 6… finds
 *   nothing). Cursor paging.
 * - `PATCH /customers/{id}` answers 204 with no body; a phone with fewer than 6 digits is refused
 *   (422) and nothing is written.
 * - `GET /customers/{id}` answers the record, with its origin and groups when `include` asks.
 * - Any request may lose its answer (`faults`, by the request's ordinal): a reset before the API
 *   processed it, a reset or a 502 after, or a 503 (not processed).
 * - `camel` answers production's other spellings: `id`, `mobilePhone`, `createdAt`.
 * - `clockBehindMs`: the API's clock runs behind n8n's, so a contact made now says it was created earlier.
 * - `intruder`: another client of the CRM (a portal, a web form) creates a contact just before the
 *   request of that ordinal: the CRM is shared, so a contact may appear between a search and a create.
 */

export interface ModelContact {
	id: number;
	email: string | null;
	firstname: string | null;
	lastname: string | null;
	phone: string | null;
	mobile_phone: string | null;
	type: string | null;
	origin: number | null;
	agency_id: number;
	created_at: string;
}

export type Fault = 'reset-before' | 'reset-after' | 'gateway-after' | 'unavailable';

export interface Logged {
	method: string;
	path: string;
	body?: IDataObject;
	/** The status the API gave, whether or not its answer reached the node; undefined: not processed. */
	status?: number;
}

/** A number as production matches it: digits, +33 / 0033 folded to the national 0. */
export const national = (number: string) => {
	const digits = number.replace(/\D/g, '');
	if (/^0033\d{9}$/.test(digits)) return `0${digits.slice(4)}`;
	if (/^33\d{9}$/.test(digits)) return `0${digits.slice(2)}`;
	return digits;
};

const numbersOf = (contact: ModelContact) =>
	[contact.phone, contact.mobile_phone].flatMap((number) => (number ? [national(number)] : []));
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
		return contact;
	}

	view(contact: ModelContact, include: string[] = []): IDataObject {
		const { id, mobile_phone: mobile, created_at: created, origin, ...rest } = contact;
		const names = this.camel
			? { id, mobilePhone: mobile, createdAt: created }
			: { customers_id: id, mobile_phone: mobile, created_at: created };
		return {
			...rest,
			...names,
			...(include.includes('origin') ? { origin: origin === null ? null : { id: origin } } : {}),
			...(include.includes('groups') ? { groups: [] } : {}),
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
		return answer(200, { data: page.map((contact) => this.view(contact, include)), meta });
	}

	private duplicateOf(email: string, numbers: string[]): ModelContact | undefined {
		return [...this.contacts.values()].find(
			(contact) => lower(contact.email) === email || numbersOf(contact).some((number) => numbers.includes(number)),
		);
	}

	private create(body: IDataObject, include: string[]): Answer {
		const email = lower(body.email as string | undefined);
		if (!email) return refusal(422, 'VALIDATION_ERROR', 'The email field is required.', 'email');
		const phones = [body.phone, body.mobile_phone].flatMap((number) => (number ? [String(number)] : []));
		const duplicate = this.duplicateOf(email, phones.map(national));
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
				type: (body.type as string) ?? null,
				origin: body.origin === undefined ? null : Number(body.origin),
				agency_id: Number(body.agency_id ?? 1),
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
		if (body.origin !== undefined) contact.origin = Number(body.origin);
		if (body.agency_id !== undefined) contact.agency_id = Number(body.agency_id);
		return answer(204);
	}
}
