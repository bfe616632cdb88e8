import type { IDataObject } from 'n8n-workflow';

import { listEntries } from '../../shared/values';
import type { Endpoint, OutputKeys, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';

/** The output keys that say what a create did (created, existing, updated), and on what evidence. */
export const OUTCOME = 'outcome';
export const OUTCOME_EVIDENCE = 'outcome_evidence';

/**
 * Related data the output keeps: what the record's reads always load (`OutputKeys.related`: a
 * contact's origin and groups, whichever operation gave the record) and what was asked by name
 * (`include=stopSms`), which may come back under its snake_case key (`stop_sms`).
 */
function relationKeys(keys: OutputKeys, request: PreparedRequest): string[] {
	const asked = keys.relationsParameter ? listEntries(request.qs[keys.relationsParameter]) : [];
	const names = [...(keys.related ?? []), ...asked];
	return names.flatMap((name) => [name, name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()]);
}

const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A record's criteria groups (`criteres_text`…, or their camelCase forms) as one object of
 * `name: value` pairs; a name two criteria share is told apart by the criterion's id. None: undefined.
 */
function criteriaByName(record: IDataObject, groups: string[]): IDataObject | undefined {
	const items = groups.flatMap((group) => {
		const list = record[group] ?? record[camelCase(group)];
		return Array.isArray(list) ? (list as IDataObject[]) : [];
	});
	if (!items.length) return undefined;
	const criteria: IDataObject = {};
	for (const item of items) {
		const id = item.critere_id ?? item.critereId;
		const name = String(item.critere_name ?? item.critereName ?? id);
		criteria[name in criteria ? `${name} (${String(id)})` : name] = item.critere_value ?? item.critereValue;
	}
	return criteria;
}

/**
 * Whether a record is what the Simplified keys expect: it has its identifier and at least half of
 * the other keys. Most of those keys are guesses (docs/assumptions.md "Records"): against an API that
 * names them otherwise, Simplified would keep almost nothing.
 */
export function looksAsExpected(record: IDataObject, keys: OutputKeys): boolean {
	return expectedShape(keys)(record);
}

/** looksAsExpected for many records: each key's names worked out once. */
function expectedShape(keys: OutputKeys): (record: IDataObject) => boolean {
	const idNames = namesOf(keys.id, keys);
	const simple = keys.simple.map((key) => namesOf(key, keys));
	const has = (record: IDataObject, names: string[]) => names.some((name) => name in record);
	return (record) =>
		has(record, idNames) && simple.filter((names) => has(record, names)).length * 2 >= keys.simple.length;
}

/** The names a key may come under: its own, then its alternatives (`id` for `customers_id`). */
function namesOf(key: string, keys: OutputKeys): string[] {
	return [key, ...(keys.alternatives?.[key] ?? [])];
}

/**
 * How records come out as the Output option asked (`PreparedRequest.output`, read and judged with the
 * item's other inputs): Simplified (the main keys), Raw, or the Selected Fields, always with the
 * record's identifier and every relation the user asked for with `include` or `fetch` (asking for it
 * is choosing it). A record without most of the Simplified keys comes out whole, and the execution
 * gets a hint: no data is lost because a guessed key was absent. Operations without the option
 * output records as they are.
 */
export function outputShaper(
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): (record: IDataObject) => IDataObject {
	const keys = endpoint.outputKeys;
	const choice = request.output;
	if (!keys || !choice || choice.mode === 'raw') return (record) => record;
	const simplified = choice.mode === 'simple';
	const chosen = choice.mode === 'fields' ? choice.fields : keys.simple;
	// Simplified shows criteria groups as one object of name: value pairs, not as they came.
	const groups = simplified ? (keys.criteriaGroups ?? []) : [];
	const relations = relationKeys(keys, request).filter((key) => !groups.includes(key));
	// Each key with the names it may come under, worked out once: a Return All shapes thousands of records.
	const idNames = namesOf(keys.id, keys);
	const wanted = [...chosen, ...relations].map((key) => namesOf(key, keys));
	const looksWhole = expectedShape(keys);
	let toldWhole = false;
	return (record) => {
		if (simplified && !looksWhole(record)) {
			if (!toldWhole) {
				item.notices.push(
					`Output "Simplified": records came without most of the keys it keeps (${[keys.id, ...keys.simple].join(', ')}), so they are output whole`,
				);
				toldWhole = true;
			}
			return record;
		}
		// The identifier under every name it came with: a workflow reading production's `id` works on an
		// API that also sends the spec's `customers_id`.
		const shaped: IDataObject = {};
		for (const name of idNames) if (name in record) shaped[name] = record[name];
		for (const names of wanted) {
			const name = names.find((candidate) => candidate in record);
			if (name !== undefined) shaped[name] = record[name];
		}
		const criteria = groups.length ? criteriaByName(record, groups) : undefined;
		if (criteria) shaped.criteria = criteria;
		return shaped;
	};
}
