import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { RefusalGuide } from './errors';

// The shapes the transport's files share (request.ts sends, pagination.ts pages on top of it), apart
// from both so that neither imports the other's types.

/** Every n8n context our nodes send requests from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Relative to `{domain}/api/v2/site`, path parameters already filled in. */
	path: string;
	qs?: IDataObject;
	/** A JSON object, or a ready body (multipart) with its content type in `headers`. */
	body?: IDataObject | Buffer;
	headers?: IDataObject;
	/** What tells a list's records apart (pagination.ts); by default their `id`. Undefined for a record without one. */
	recordIdentity?: (record: IDataObject) => string | undefined;
	/** Told of each record an offset-paged list gave again (pagination.ts), which is dropped. */
	repeatedRecord?: (id: string) => void;
	/** For a list whose answer holds more than was asked: the records kept; the others are neither output nor counted. */
	keepRecord?: (record: IDataObject) => boolean;
	/** For a list whose paging parameters are not the spec's `per_page`, `cursor` and `offset` (pagination.ts). */
	pageKeys?: Partial<PageKeys>;
	/** `binary` for endpoints that may answer with an image instead of JSON. */
	responseType?: 'json' | 'binary';
	/**
	 * Whether sending the request twice changes nothing more than sending it once. Only such requests
	 * (and those with `lookUpOutcome`) are resent after a connection reset, a 502 or a 504; others
	 * only after a 429 or a 503, which say the request was not processed. Required: a request without
	 * a decision would silently lose its retries. The catalogue's request builder sets it from the
	 * entry's resend policy (catalogue/requests.ts).
	 */
	idempotent: boolean;
	/**
	 * For a request that is not idempotent but whose effect can be looked for: after a lost answer
	 * (a connection reset, a 502 or a 504), looks for what the request would have made. Found, it
	 * stands for the lost answer; not found, the request was not processed and is sent again.
	 */
	lookUpOutcome?: () => Promise<ApiResponse | undefined>;
	/**
	 * For a DELETE that removes the record its path names (not a consent's revocation, whose 404 names
	 * a missing contact): a 404 after an attempt whose answer was lost is that attempt's removal, and the
	 * request succeeds. `seen`: whether the record was seen just before (read, or found in its list);
	 * unseen, the answer says the removal could not be verified (`ApiResponse.removalAfterLostAnswer`).
	 */
	removal?: { seen: boolean };
	/** Statuses that carry a business meaning for this endpoint, so they are never retried. */
	noRetryStatuses?: number[];
	/** What to tell users who get a refusal: the access the endpoint needs, its fields' labels, what to check. */
	guide?: RefusalGuide;
	itemIndex?: number;
}

export interface ApiResponse {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
	/** A removal (`ApiRequest.removal`) answered 404 after a lost answer: taken as done, `verified` when the record was seen before. */
	removalAfterLostAnswer?: { verified: boolean };
}

/**
 * What a list calls its paging parameters: the spec's `per_page`, `cursor` and `offset` (and `page`,
 * for a list that numbers its pages), unless its catalogue entry names another page size (`count` on
 * product search, `perPage` on the calendar's).
 */
export interface PageKeys {
	size: string;
	cursor: string;
	offset: string;
	page: string;
}
