import { json, stringList } from './convert';
import { choices } from '../../shared/choices';
import { maxPageSizeOf, pageSizeKeyOf } from './fields';
import { guard, integer, isObject, rule } from './rules';
import type { Endpoint, FieldSpec, OutputKeys } from './types';

/**
 * The options the node reads itself rather than sending them as they are (`in: 'node'`): Return All,
 * Limit, Page Size and Pagination Mode of a list, Output, the escape hatches, Concurrency. Each is a
 * field with its own rules and their authority, judged by catalogue/validate.ts like any field of a
 * request; catalogue/form.ts places them in the form of each node version.
 */

/** The node turns the escape hatches' text into the request's JSON. */
export const JSON_FIELD = guard('the request carries JSON');
export const PAGING = guard('the node pages the results itself');

export const EXTRA_QUERY = 'extraQueryJson';
export const EXTRA_BODY = 'extraBodyJson';

/** Requests in flight for one node by default: measured and explained in the README ("Concurrency"). */
export const DEFAULT_CONCURRENCY = 10;

/** An escape hatch: JSON the node sends as it is (query parameters, or body fields), an object. */
function extraJson(name: string, displayName: string, description: string): FieldSpec {
	return {
		in: 'node',
		placement: 'collection',
		convert: json,
		rules: [rule(JSON_FIELD, isObject)],
		property: { displayName, name, type: 'json', default: '{}', description },
	};
}

const extraQuery = extraJson(
	EXTRA_QUERY,
	'Extra Query Parameters (JSON)',
	'Query parameters the node has no input for, sent as they are, e.g. {"lang": "fr"}. A parameter set above wins over the same name here.',
);

const extraBody = extraJson(
	EXTRA_BODY,
	'Extra Body Fields (JSON)',
	'Fields the node has no input for, sent as they are in the request body, e.g. {"notary": null}; null is sent as null. A field set above wins over the same key here.',
);

const returnAll: FieldSpec = {
	in: 'node',
	placement: 'top',
	property: {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
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
		displayOptions: { show: { returnAll: [false] } },
	},
};

/**
 * n8n's UX guidelines for records of more than 10 fields used by AI agents: Simplified (at most 10
 * fields), Raw, or the fields chosen, so that a tool hands the model only what it needs.
 */
const output: FieldSpec = {
	in: 'node',
	placement: 'top',
	values: guard('the node shapes its output as Simplified, Raw or Selected Fields'),
	property: {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		// Simplified first, the default, rather than by name.
		options: [
			{
				name: 'Simplified',
				value: 'simple',
				description: 'At most 10 main fields of each record, plus the related data asked for',
			},
			{ name: 'Raw', value: 'raw', description: 'Every field the API returns' },
			{
				name: 'Selected Fields',
				value: 'fields',
				description: 'Only the fields you choose, plus the record ID and the related data asked for',
			},
		],
		default: 'simple',
		description: 'How much of each record to output. Keep it small when an AI agent reads it.',
	},
};

/**
 * 0.1.0's switch, which Output replaced, kept hidden in version 1: a workflow saved under 0.1.0 with
 * Simplify off still gets whole records (n8n drops the stored parameters a node no longer describes).
 */
const legacySimplify: FieldSpec = {
	in: 'node',
	placement: 'top',
	property: { displayName: 'Simplify', name: 'simplify', type: 'hidden', default: true },
};

/** The fields Output's "Selected Fields" keeps: every key of the record we know, an expression may name others. */
function selectedFields(keys: OutputKeys): FieldSpec {
	return {
		in: 'node',
		placement: 'top',
		convert: stringList,
		property: {
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			options: [...keys.fields].sort().map((key) => ({ name: key, value: key })),
			default: [],
			description: `The fields to output; ${keys.id} always comes out. An expression may name other fields, comma-separated.`,
			displayOptions: { show: { output: ['fields'] } },
		},
	};
}

/** A size beyond the list's largest page is asked as that page, with a notice (actions/prepareRequest.ts). */
function pageSize(endpoint: Endpoint): FieldSpec {
	const { size } = maxPageSizeOf(endpoint);
	return {
		in: 'node',
		placement: 'collection',
		key: pageSizeKeyOf(endpoint),
		rules: [rule(PAGING, integer({ min: 1 }))],
		property: {
			displayName: 'Page Size',
			name: 'perPage',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: size },
			default: size,
			description: `How many records each request asks for, at most ${size} (the most the API serves). Fewer, larger pages are faster.`,
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
		options: choices({
			'Cursor (Recommended)': ['cursor', 'Pages follow the cursor the API returns'],
			Offset: ['offset', 'Pages are counted by record position'],
		}),
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
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_CONCURRENCY,
		description:
			'How many input items this node sends requests for at once, hence how many requests it keeps in flight. Output order stays the input order. Lower it if the API answers "too many requests".',
	},
};

/** The options an item of this operation is read with; each spec is the same object on every call. */
export interface ItemOptions {
	returnAll?: FieldSpec;
	limit?: FieldSpec;
	output?: FieldSpec;
	/** Version 1 only (catalogue/form.ts). */
	legacySimplify?: FieldSpec;
	selectedFields?: FieldSpec;
	pageSize?: FieldSpec;
	paginationMode?: FieldSpec;
	extraQuery: FieldSpec;
	extraBody?: FieldSpec;
	concurrency: FieldSpec;
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
			returnAll: paged ? returnAll : undefined,
			limit: paged ? limit : undefined,
			output: endpoint.outputKeys ? output : undefined,
			legacySimplify: endpoint.outputKeys ? legacySimplify : undefined,
			selectedFields: endpoint.outputKeys ? selectedFields(endpoint.outputKeys) : undefined,
			pageSize: paged ? pageSize(endpoint) : undefined,
			paginationMode: (endpoint.paginationModes?.length ?? 0) > 1 ? paginationMode : undefined,
			extraQuery,
			extraBody: takesBody(endpoint) ? extraBody : undefined,
			concurrency: concurrencyOption,
		};
		optionsByEndpoint.set(endpoint, options);
	}
	return options;
}
