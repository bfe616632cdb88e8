import { itemOptionsOf } from './nodeOptions';
import type { Endpoint, FieldSpec } from './types';

/**
 * The form of an operation in each version of the node: which inputs are parameters of their own,
 * which are options of a collection, and in what order the editor shows them. describe.ts generates
 * the parameters from it and actions/ reads the inputs back through it, so the two cannot disagree.
 *
 * - Version 1, 0.1.0's form and what was added to it since, kept for the workflows saved with it:
 *   the optional fields in Additional Fields (writes), Filters (lists) or Options (reads), the escape
 *   hatches, Concurrency and Page Size with them (a list's under Options), Output and its Fields on
 *   top, and 0.1.0's Simplify switch that Output replaced, hidden.
 * - Version 2 keeps data apart from settings: Additional Fields (writes) and Filters (reads) hold what
 *   is sent about the record; Options hold what shapes the node's work or its output (related data to
 *   load, Check Duplicate, Output, Page Size, the escape hatches, Concurrency). The keys an operation
 *   finds an existing record by come first, each a parameter of its own.
 */

export type NodeVersion = 1 | 2;

export const NODE_VERSIONS: readonly NodeVersion[] = [1, 2];

/** The version the editor gives a new node. */
export const LATEST_VERSION: NodeVersion = 2;

/** The form a node of this `typeVersion` is read with. */
export function versionOf(typeVersion: number): NodeVersion {
	return typeVersion >= 2 ? 2 : 1;
}

export type CollectionName = 'filters' | 'options' | 'additionalFields';

/** Where an input is: `top`, a parameter of its own, or an option of a collection. */
export type Place = 'top' | CollectionName;

export interface FormEntry {
	field: FieldSpec;
	place: Place;
}

/** Version 1: the collection of an operation's optional fields. */
export function optionalGroupOf(endpoint: Endpoint): CollectionName {
	if (endpoint.pagination) return 'filters';
	if (endpoint.method === 'GET') return 'options';
	return 'additionalFields';
}

/** Version 1: the collection of the escape hatches, Concurrency and paging options; a list's Filters are for filtering. */
export function extrasGroupOf(endpoint: Endpoint): CollectionName {
	return endpoint.pagination ? 'options' : optionalGroupOf(endpoint);
}

/** The inputs that are there, each at one place. */
function placed(place: Place, ...fields: Array<FieldSpec | undefined>): FormEntry[] {
	return fields.flatMap((field) => (field ? [{ field, place }] : []));
}

const onTop = (field: FieldSpec) => field.placement === 'top';
const optional = (field: FieldSpec) => field.placement === 'collection';

/** The endpoint's fields that this version's form has. */
const fieldsOf = (endpoint: Endpoint, version: NodeVersion) =>
	endpoint.fields.filter((field) => !field.versions || field.versions.includes(version));

function firstVersion(endpoint: Endpoint): FormEntry[] {
	const options = itemOptionsOf(endpoint);
	const fields = fieldsOf(endpoint, 1);
	return [
		...placed('top', ...fields.filter(onTop), options.returnAll, options.limit),
		...placed('top', options.output, options.legacySimplify, options.selectedFields),
		...placed(optionalGroupOf(endpoint), ...fields.filter(optional)),
		...placed(
			extrasGroupOf(endpoint),
			options.pageSize,
			options.paginationMode,
			options.extraQuery,
			options.extraBody,
			options.concurrency,
		),
	];
}

/** The fields an existing record is found by, in the order the operation tries them. */
function matchKeysOf(endpoint: Endpoint, fields: FieldSpec[]): FieldSpec[] {
	return (endpoint.match?.keys ?? []).map((name) => {
		const key = fields.find((field) => field.property.name === name);
		if (!key)
			throw new Error(`${endpoint.resource}:${endpoint.operation.value} matches by "${name}", not one of its fields`);
		return key;
	});
}

function secondVersion(endpoint: Endpoint): FormEntry[] {
	const options = itemOptionsOf(endpoint);
	const fields = fieldsOf(endpoint, 2);
	const keys = matchKeysOf(endpoint, fields);
	const rest = fields.filter((field) => !keys.includes(field));
	const data = endpoint.pagination || endpoint.method === 'GET' ? 'filters' : 'additionalFields';
	return [
		...placed('top', ...keys, ...rest.filter(onTop), options.returnAll, options.limit),
		...placed(data, ...rest.filter((field) => optional(field) && !field.setting)),
		...placed(
			'options',
			...rest.filter((field) => optional(field) && field.setting),
			options.output,
			options.selectedFields,
			options.pageSize,
			options.paginationMode,
			options.extraQuery,
			options.extraBody,
			options.concurrency,
		),
	];
}

const forms = new WeakMap<Endpoint, Record<NodeVersion, FormEntry[]>>();

/** Every input of the operation in the form of this version, in the order the editor shows them. */
export function formOf(endpoint: Endpoint, version: NodeVersion): readonly FormEntry[] {
	let both = forms.get(endpoint);
	if (!both) {
		both = { 1: firstVersion(endpoint), 2: secondVersion(endpoint) };
		forms.set(endpoint, both);
	}
	return both[version];
}

/** Where the form of this version has the input; one it does not have is a defect of the node. */
export function placeOf(endpoint: Endpoint, version: NodeVersion, field: FieldSpec): Place {
	const entry = formOf(endpoint, version).find((candidate) => candidate.field === field);
	if (!entry)
		throw new Error(`"${field.property.name}" is not an input of ${endpoint.resource}:${endpoint.operation.value}`);
	return entry.place;
}
