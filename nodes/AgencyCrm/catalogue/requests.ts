import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../../shared/transport';
import { idText } from '../../shared/transport';
import { listEntries } from '../../shared/values';
import { endpointOf } from './index';
import { refusalGuide } from './refusals';
import { resendPolicyOf } from './resend';
import { pathSegmentProblem } from './rules';
import type { Endpoint } from './types';

/**
 * The one way a request is built from the catalogue: the action node's operations, the dropdowns and
 * searchable lists (methods/), the trigger and the operations of several requests all name a
 * catalogue entry, so that no path is written twice and no request goes out without the entry's
 * resend decision (catalogue/resend.ts).
 */

/** What a request carries besides its endpoint: what the request builder takes. */
export interface RequestParts {
	/** Values of the path's `{placeholders}`, by placeholder name, not yet encoded. */
	pathParams?: IDataObject;
	qs?: IDataObject;
	body?: IDataObject;
}

/**
 * Fills the `{placeholders}` of a path, each value encoded as one path segment. Input was judged
 * before (catalogue/validate.ts); values from the API (an id a search returned) are judged here, so
 * that no value ever addresses another endpoint.
 */
export function fillPath(path: string, params: IDataObject = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === null || value === '') throw new Error(`No value for {${name}} in ${path}`);
		const problem = pathSegmentProblem(value);
		if (problem) throw new Error(`The value ${JSON.stringify(value)} for {${name}} in ${path} ${problem}`);
		return encodeURIComponent(String(value));
	});
}

const unlessEmpty = (object: IDataObject | undefined) => (object && Object.keys(object).length ? object : undefined);

/** The query with the related data the endpoint always loads (`readIncludes`) added to those asked. */
function queryOf(endpoint: Endpoint, qs: IDataObject = {}): IDataObject {
	if (!endpoint.readIncludes) return qs;
	return { ...qs, include: [...new Set([...endpoint.readIncludes, ...listEntries(qs.include)])].join(',') };
}

/**
 * What tells the records of a list apart: the keys of `recordKeys` together (an event's occurrences
 * share its id; a follow-up is its listing's), else the output's id under any of its names, else `id`.
 */
function recordIdentityOf(endpoint: Endpoint): ((record: IDataObject) => string | undefined) | undefined {
	if (endpoint.recordKeys) {
		const keys = endpoint.recordKeys;
		if (keys.length === 1) return (record) => idText(record[keys[0]]);
		return (record) =>
			keys.some((key) => idText(record[key]) === undefined)
				? undefined
				: JSON.stringify(keys.map((key) => record[key]));
	}
	const names = endpoint.outputKeys && [
		endpoint.outputKeys.id,
		...(endpoint.outputKeys.alternatives?.[endpoint.outputKeys.id] ?? []),
	];
	return names && ((record) => names.map((name) => idText(record[name])).find((id) => id !== undefined));
}

/** Whether the request may be sent again when it is unknown whether the API processed it: the entry's policy. */
export function mayResend(endpoint: Endpoint, request: { body: IDataObject }): boolean {
	const { resend } = resendPolicyOf(endpoint);
	return typeof resend === 'boolean' ? resend : resend.when(request);
}

/** The request of one catalogue entry with these parts. */
export function requestFor(endpoint: Endpoint, parts: RequestParts = {}, itemIndex?: number): ApiRequest {
	return {
		method: endpoint.method,
		path: fillPath(endpoint.path, parts.pathParams),
		qs: unlessEmpty(queryOf(endpoint, parts.qs)),
		body: unlessEmpty(parts.body),
		responseType: endpoint.output === 'imageOrRecord' ? 'binary' : 'json',
		pageKeys: endpoint.pageSizeKey ? { size: endpoint.pageSizeKey } : undefined,
		recordIdentity: recordIdentityOf(endpoint),
		idempotent: mayResend(endpoint, { body: parts.body ?? {} }),
		noRetryStatuses: endpoint.noRetryStatuses,
		// A deletion of the record the path names (its last segment, not a part of it such as a user's
		// photo, whose 404 names a missing user): a 404 after a lost answer is its removal (transport).
		removal: endpoint.output === 'deleted' && /\{\w+\}$/.test(endpoint.path) ? { seen: false } : undefined,
		guide: refusalGuide(endpoint),
		itemIndex,
	};
}

/** The request of the entry keyed `resource:operation` (`webhook:update`), e.g. `requestOf('customer:get', {pathParams: {customerId: 7}})`. */
export function requestOf(key: string, parts?: RequestParts, itemIndex?: number): ApiRequest {
	return requestFor(endpointOf(key), parts, itemIndex);
}
