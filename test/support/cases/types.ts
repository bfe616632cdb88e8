import type { IDataObject } from 'n8n-workflow';

import type { Binary } from '../fakeN8n';
import type { RunResult } from '../inprocess/runner';

/**
 * One in-process case: the node parameters a user would set for one operation, and the one request
 * the sandbox must then see. The tables are plain data, read by several tests: the endpoint runner,
 * the escape-hatch table and the bad-input table use them as baselines.
 */

/** Ids one case creates and a later case of the same run uses (a search request created, then updated). */
export interface SharedIds {
	searchRequestId: number;
	userId: number;
	hookId: number;
}

/** A value, or one computed from the ids earlier cases kept. */
export type Later<T> = T | ((ids: SharedIds) => T);

export interface ExpectedRequest {
	method: string;
	/** Relative to the API base, as sent (placeholders filled in). */
	path: string;
	/** The whole query; none when left out. */
	query?: Record<string, string>;
	/** The whole JSON body; not checked when left out (multipart uploads, body-less requests). */
	body?: unknown;
	/** The text parts of a multipart body, as the client sent them (the request log keeps no parts). */
	form?: Record<string, string>;
	/** The exact status the sandbox answers; any success (< 300) when left out. */
	status?: number;
	/** Requests the operation sends before this one, as `METHOD /route` of the sandbox (an upsert searches first). */
	after?: string[];
}

export interface EndpointCase {
	/** The spec endpoint covered, written as `test/support/spec/endpoints.ts` writes it: `GET /agencies/{agencyId}`. */
	endpoint: string;
	/** What the case shows beyond the endpoint. */
	title?: string;
	/** Every node parameter of the one item, `resource` and `operation` included. */
	parameters: Later<Record<string, unknown>>;
	binary?: Record<string, Binary>;
	request: Later<ExpectedRequest>;
	/** Further assertions on the run: the output, or every request sent. */
	verify?: (result: RunResult) => void;
	/** Keeps an id of the output for a later case. */
	keep?: (output: IDataObject, ids: SharedIds) => void;
}

export function resolve<T>(value: Later<T>, ids: SharedIds): T {
	return typeof value === 'function' ? (value as (ids: SharedIds) => T)(ids) : value;
}

/** A GET for which the user sets nothing but the operation: the spec's path, sent as it is. */
export const plainGet = (resource: string, operation: string, path: string): EndpointCase => ({
	endpoint: `GET ${path}`,
	parameters: { resource, operation },
	request: { method: 'GET', path },
});
