/**
 * Answer profiles: the sandbox answering as the spec also allows, where it leaves the answer open
 * ("not shown"). Each profile changes one detail, so that a client (the node's tests, or a user who
 * wants to see how a workflow copes) can be tried against it; `default` is the sandbox as
 * docs/assumptions.md describes it. A profile is chosen per API client (one credential) or for every
 * client, like the faults (admin `POST /_admin/answer-profile`, CLI `--answer-profile`).
 */
import type { ApiRequest } from './api';
import type { Reply } from './http';
import { FieldReader, objectBody } from './validation';

export const ANSWER_PROFILES = [
	'default',
	'offset-meta',
	'short-pages',
	'empty-writes',
	'reused-contact',
	'header-request-id',
	'loose-search',
	'envelope-extras',
] as const;

export type AnswerProfileName = (typeof ANSWER_PROFILES)[number];

/** What a profile sees of an API request: its method and route key (`PATCH /customers/{customerId}`). */
export interface Exchanged {
	method: string;
	route: string | undefined;
}

interface AnswerProfile {
	/** What it changes, as docs/sandbox.md says. */
	summary: string;
	/** Changes the request before its handler reads it. */
	request?: (request: ApiRequest) => void;
	/** Changes the answer before it is written. */
	reply?: (reply: Reply, exchanged: Exchanged) => Reply;
}

/** The largest page `short-pages` serves, whatever `per_page` asked. */
export const SHORT_PAGE_SIZE = 7;

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON body of an answer as an object, when it is one. */
const bodyOf = (reply: Reply) => (isObject(reply.body) ? reply.body : undefined);

const PROFILES: Record<AnswerProfileName, AnswerProfile> = {
	default: { summary: 'the answers of docs/assumptions.md' },
	'offset-meta': {
		summary:
			'pages without `has_more`: cursor lists keep `next_cursor`, product search in offset mode keeps `offset`, `count` and `total`, the customer action history only `offset` and `per_page`',
		reply: (reply) => {
			const meta = bodyOf(reply)?.meta;
			if (isObject(meta)) delete meta.has_more;
			return reply;
		},
	},
	'short-pages': {
		summary: `pages of at most ${SHORT_PAGE_SIZE} records whatever \`per_page\` (product search: \`count\`) asks (the meta says more follow as usual)`,
		request: (request) => {
			const body = isObject(request.body) ? request.body : undefined;
			const key = request.method === 'POST' && request.path === '/products/search' ? 'count' : 'per_page';
			const asked = Number(request.query.get(key) ?? body?.[key] ?? Number.POSITIVE_INFINITY);
			if (!(asked > SHORT_PAGE_SIZE)) return;
			if (request.query.has(key)) request.query.set(key, String(SHORT_PAGE_SIZE));
			if (body && key in body) body[key] = SHORT_PAGE_SIZE;
			else if (request.method === 'GET') request.query.set(key, String(SHORT_PAGE_SIZE));
			else if (body) body[key] = SHORT_PAGE_SIZE;
		},
	},
	'empty-writes': {
		summary:
			'writes answered without the record: a create `201` with an empty body and a `Location` header, a `PATCH` `204`, a `PUT` other than the webhook update (whose body the spec shows) `{"success": true}`',
		reply: (reply, { method, route }) => {
			if (reply.status === 201) return { status: 201, headers: reply.headers };
			if (reply.status !== 200) return reply;
			if (method === 'PATCH') return { status: 204, headers: reply.headers };
			if (method === 'PUT' && route !== 'PUT /hooks/{hookId}') {
				return { status: 200, headers: reply.headers, body: { success: true } };
			}
			return reply;
		},
	},
	'reused-contact': {
		summary:
			'a customer create that finds a duplicate answers `201` with the existing contact and no `meta.duplicate`, as a create',
		reply: (reply, { route }) => {
			const body = bodyOf(reply);
			if (route !== 'POST /customers' || !isObject(body?.meta) || body.meta.duplicate !== true) return reply;
			return { ...reply, status: 201, body: { data: body.data } };
		},
	},
	'header-request-id': {
		summary: 'error bodies without `request_id`: the request id is only in the `X-Request-Id` header',
		reply: (reply) => {
			const body = bodyOf(reply);
			if (reply.status >= 400 && body) delete body.request_id;
			return reply;
		},
	},
	'loose-search': {
		summary:
			'the customer search ignores `email` and `phone` (a filter the API names otherwise): it answers with the newest contacts',
		request: (request) => {
			if (request.method !== 'POST' || request.path !== '/customers/search' || !isObject(request.body)) return;
			delete request.body.email;
			delete request.body.phone;
		},
	},
	'envelope-extras': {
		summary:
			'successful answers carry keys the spec does not name beside `data`: `api_version`, `warnings` and a `requestId` (the spec leaves answer payloads open)',
		reply: (reply) => {
			const body = bodyOf(reply);
			if (reply.status >= 300 || !body || !('data' in body)) return reply;
			return { ...reply, body: { ...body, api_version: '1.5.0', warnings: [], requestId: 'envelope-extras' } };
		},
	},
};

export function describeProfiles(): Record<AnswerProfileName, string> {
	return Object.fromEntries(ANSWER_PROFILES.map((name) => [name, PROFILES[name].summary])) as Record<
		AnswerProfileName,
		string
	>;
}

/** The profiles in force: one for every client, and one per client, which takes precedence. */
export class AnswerProfiles {
	private global: AnswerProfileName;
	private readonly byClient = new Map<string, AnswerProfileName>();

	constructor(initial: AnswerProfileName = 'default') {
		this.global = initial;
	}

	/** `{client_id?, profile}`: sets the profile of one client, or of every client. */
	configure(body: unknown, knownClient: (clientId: string) => boolean): { scope: string; profile: AnswerProfileName } {
		const reader = new FieldReader(objectBody(body));
		const clientId = reader.optionalString('client_id', { nullable: true }) ?? undefined;
		if (clientId !== undefined && !knownClient(clientId)) reader.fail('client_id', `unknown client ${clientId}`);
		const profile = reader.requiredOneOf('profile', ANSWER_PROFILES);
		reader.throwIfInvalid();
		if (clientId === undefined) this.global = profile;
		else this.byClient.set(clientId, profile);
		return { scope: clientId ?? 'global', profile };
	}

	clear(): void {
		this.global = 'default';
		this.byClient.clear();
	}

	describe(): { global: AnswerProfileName; clients: Record<string, AnswerProfileName> } {
		return { global: this.global, clients: Object.fromEntries(this.byClient) };
	}

	private of(clientId: string | undefined): AnswerProfile {
		return PROFILES[(clientId !== undefined ? this.byClient.get(clientId) : undefined) ?? this.global];
	}

	adaptRequest(clientId: string | undefined, request: ApiRequest): void {
		this.of(clientId).request?.(request);
	}

	adaptReply(clientId: string | undefined, reply: Reply, exchanged: Exchanged): Reply {
		return this.of(clientId).reply?.(reply, exchanged) ?? reply;
	}
}

export function isAnswerProfile(name: string): name is AnswerProfileName {
	return (ANSWER_PROFILES as readonly string[]).includes(name);
}
