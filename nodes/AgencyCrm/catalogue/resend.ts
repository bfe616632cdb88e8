import type { IHttpRequestMethods } from 'n8n-workflow';

import type { Endpoint, ResendPolicy } from './types';

/**
 * Which requests may be sent again when their answer is lost (a connection reset, a 502 or a 504,
 * after which nobody knows whether the API did the work), and why, from the spec. By default, by
 * method; endpoints whose spec says otherwise declare their own policy (`Endpoint.resend`).
 * docs/reliability.md lists every operation's decision (scripts/reliability-doc.ts).
 */

/** The decision by method, for endpoints that declare none. */
const RESEND_BY_METHOD: Partial<Record<IHttpRequestMethods, ResendPolicy>> = {
	GET: {
		resend: true,
		reason:
			'A read (spec section 1: the API "uses standard HTTP methods"): it changes nothing, so a second one answers the same.',
	},
	PUT: {
		resend: true,
		reason:
			'A PUT (spec section 1: "standard HTTP methods") sets what it names to the values it carries: sent twice, the same values.',
	},
	PATCH: {
		resend: true,
		reason:
			'A partial update (spec section 4: "only supplied fields change"): sent twice, the same fields get the same values.',
	},
	DELETE: {
		resend: true,
		reason:
			'A removal (spec section 3: a DELETE removes "Always"): a second one finds the record already gone, and may answer 404 for it.',
	},
	POST: {
		resend: false,
		reason:
			'A create: sent twice, it makes two records. The spec names no key that would let the API recognise the second one.',
	},
};

/** POST searches: the spec's "read" direction with the filters in the body. */
export const SEARCH_RESEND: ResendPolicy = {
	resend: true,
	reason:
		'A search (spec section 1: the "read" direction; the filters travel in a POST body): it writes nothing, so a second one answers the same.',
};

export function resendPolicyOf(endpoint: Endpoint): ResendPolicy {
	const policy = endpoint.resend ?? RESEND_BY_METHOD[endpoint.method];
	if (!policy) throw new Error(`No resend policy for ${endpoint.method} ${endpoint.path}`);
	return policy;
}

/** The decision in words, as the docs show it: "yes", "no", or "yes, when …"; statuses never retried follow. */
export function resendSummary(endpoint: Endpoint): string {
	const { resend } = resendPolicyOf(endpoint);
	const answer = typeof resend === 'boolean' ? (resend ? 'yes' : 'no') : `yes, ${resend.condition}`;
	const never = endpoint.noRetryStatuses?.length ? `; never after ${endpoint.noRetryStatuses.join(', ')}` : '';
	return `${answer}${never}`;
}
