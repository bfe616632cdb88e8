import { json } from './convert';
import { maxPageSizeOf } from './fields';
import { guard, integer, isObject, rule } from './rules';
import type { Endpoint, FieldSpec } from './types';

/**
 * The options the node reads itself rather than sending them as they are (`in: 'node'`): Limit, Page
 * Size and Pagination Mode of a list, the escape hatches, Concurrency. Each is a field with its own
 * rules and their authority, judged by catalogue/validate.ts like any field of a request.
 */

/** The node turns the escape hatches' text into the request's JSON. */
export const JSON_FIELD = guard('the request carries JSON');
export const PAGING = guard('the node pages the results itself');

export const EXTRA_QUERY = 'extraQueryJson';
export const EXTRA_BODY = 'extraBodyJson';
export const CONCURRENCY = 'concurrency';

/** Requests in flight for one node by default: measured and explained in the README ("Concurrency"). */
export const DEFAULT_CONCURRENCY = 10;

const extraQuery: FieldSpec = {
	in: 'node',
	placement: 'collection',
	convert: json,
	rules: [rule(JSON_FIELD, isObject)],
	property: {
		displayName: 'Extra Query Parameters (JSON)',
		name: EXTRA_QUERY,
		type: 'json',
		default: '{}',
		description:
			'Query parameters the node has no input for, sent as they are, e.g. {"lang": "fr"}. A parameter set above wins over the same name here.',
	},
};

const extraBody: FieldSpec = {
	in: 'node',
	placement: 'collection',
	convert: json,
	rules: [rule(JSON_FIELD, isObject)],
	property: {
		displayName: 'Extra Body Fields (JSON)',
		name: EXTRA_BODY,
		type: 'json',
		default: '{}',
		description:
			'Fields the node has no input for, sent as they are in the request body, e.g. {"notary": null}; null is sent as null. A field set above wins over the same key here.',
	},
};

const limit: FieldSpec = {
	in: 'node',
	placement: 'top',
	required: PAGING,
	rules: [rule(PAGING, integer({ min: 1 }))],
	property: {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
};

function pageSize(endpoint: Endpoint): FieldSpec {
	const largest = endpoint.maxPageSize?.size;
	const { size, source } = maxPageSizeOf(endpoint);
	const aSize = integer({ min: 1 });
	return {
		in: 'node',
		placement: 'collection',
		key: 'per_page',
		rules: [
			rule(PAGING, aSize),
			// Only a size is compared with the largest page: text would be reported twice as "not a whole number".
			rule(source, (value) => (aSize(value) === undefined ? integer({ max: size })(value) : undefined)),
		],
		property: {
			displayName: 'Page Size',
			name: 'perPage',
			type: 'number',
			typeOptions: largest ? { minValue: 1, maxValue: largest } : { minValue: 1 },
			default: size,
			description: largest
				? `How many records each request asks for (the API allows at most ${largest}). Fewer, larger pages are faster.`
				: 'How many records each request asks for. Fewer, larger pages are faster; lower it if the API refuses the size.',
		},
	};
}

const paginationMode: FieldSpec = {
	in: 'node',
	placement: 'collection',
	values: PAGING,
	property: {
		displayName: 'Pagination Mode',
		name: 'paginationMode',
		type: 'options',
		options: [
			{ name: 'Cursor (Recommended)', value: 'cursor', description: 'Pages follow the cursor the API returns' },
			{ name: 'Offset', value: 'offset', description: 'Pages are counted by record position' },
		],
		default: 'cursor',
		description: 'How the API pages the results. Agency CRM recommends the cursor.',
	},
};

/** Read once per run, from the first item: the bound on items (hence requests) in flight. */
export const concurrencyOption: FieldSpec = {
	in: 'node',
	placement: 'collection',
	rules: [
		rule(guard('requests go out a whole number of items at a time'), (value) =>
			integer({ min: 1 })(value) ? `must be a whole number of at least 1, not ${JSON.stringify(value)}` : undefined,
		),
	],
	property: {
		displayName: 'Concurrency',
		name: CONCURRENCY,
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_CONCURRENCY,
		description:
			'How many input items this node sends requests for at once, hence how many requests it keeps in flight. Output order stays the input order. Lower it if the API answers "too many requests".',
	},
};

/** The options an item of this operation is read with; each spec is the same object on every call. */
export interface ItemOptions {
	extraQuery: FieldSpec;
	extraBody?: FieldSpec;
	limit?: FieldSpec;
	pageSize?: FieldSpec;
	paginationMode?: FieldSpec;
}

const optionsByEndpoint = new WeakMap<Endpoint, ItemOptions>();

/** Whether the endpoint sends a body, so that extra body fields make sense. */
export function takesBody(endpoint: Endpoint): boolean {
	return (
		endpoint.method !== 'GET' &&
		(endpoint.method !== 'DELETE' || endpoint.fields.some((field) => field.in === 'body' || field.in === 'file'))
	);
}

export function itemOptionsOf(endpoint: Endpoint): ItemOptions {
	let options = optionsByEndpoint.get(endpoint);
	if (!options) {
		const paged = endpoint.pagination !== undefined;
		options = {
			extraQuery,
			extraBody: takesBody(endpoint) ? extraBody : undefined,
			limit: paged ? limit : undefined,
			pageSize: paged ? pageSize(endpoint) : undefined,
			paginationMode: (endpoint.paginationModes?.length ?? 0) > 1 ? paginationMode : undefined,
		};
		optionsByEndpoint.set(endpoint, options);
	}
	return options;
}
