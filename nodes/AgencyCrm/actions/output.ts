import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listEntries } from '../catalogue/convert';
import { versionOf } from '../catalogue/form';
import { itemOptionsOf } from '../catalogue/nodeOptions';
import type { Endpoint, OutputKeys, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';
import { parameterReader } from './parameters';

/** Related data asked for by name (`include=stopSms`) may come back under its snake_case key (`stop_sms`). */
function relationKeys(request: PreparedRequest, parameter: string | undefined): string[] {
	if (!parameter) return [];
	return listEntries(request.qs[parameter]).flatMap((name) => [
		name,
		name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
	]);
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
function looksAsExpected(record: IDataObject, keys: OutputKeys): boolean {
	const present = keys.simple.filter((key) => key in record).length;
	return keys.id in record && present * 2 >= keys.simple.length;
}

/**
 * How records come out as the Output option asks: Simplified (the main keys), Raw, or the Selected
 * Fields, always with the record's identifier and every relation the user asked for with `include`
 * or `fetch` (asking for it is choosing it). A record without most of the Simplified keys comes out
 * whole, and the execution gets a hint: no data is lost because a guessed key was absent.
 * Operations without the option output records as they are. The option is read once per item, not
 * per record: a Return All shapes thousands of records, and each n8n parameter read costs more than
 * the shaping itself.
 */
export function outputShaper(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	item: ItemRun,
): (record: IDataObject) => IDataObject {
	const keys = endpoint.outputKeys;
	const { output, legacySimplify, selectedFields } = itemOptionsOf(endpoint);
	if (!keys || !output || !selectedFields) return (record) => record;
	const read = parameterReader(context, endpoint, item.index);
	const asked = read(output) ?? output.property.default;
	// Saved under 0.1.0 with Simplify off (catalogue/nodeOptions.ts, version 1 only): whole records, as then.
	const legacyRaw =
		asked === 'simple' &&
		legacySimplify !== undefined &&
		versionOf(context.getNode().typeVersion) === 1 &&
		read(legacySimplify) === false;
	const mode = legacyRaw ? 'raw' : asked;
	if (mode === 'raw') return (record) => record;
	const simplified = mode !== 'fields';
	const chosen = simplified ? keys.simple : listEntries(read(selectedFields));
	// Simplified shows criteria groups as one object of name: value pairs, not as they came.
	const groups = simplified ? (keys.criteriaGroups ?? []) : [];
	const relations = relationKeys(request, keys.relationsParameter).filter((key) => !groups.includes(key));
	const wanted = [keys.id, ...chosen, ...relations];
	let toldWhole = false;
	return (record) => {
		if (simplified && !looksAsExpected(record, keys)) {
			if (!toldWhole) {
				item.notices.push(
					`Output "Simplified": records came without most of the keys it keeps (${[keys.id, ...keys.simple].join(', ')}), so they are output whole`,
				);
				toldWhole = true;
			}
			return record;
		}
		const shaped: IDataObject = {};
		for (const key of wanted) if (key in record) shaped[key] = record[key];
		const criteria = groups.length ? criteriaByName(record, groups) : undefined;
		if (criteria) shaped.criteria = criteria;
		return shaped;
	};
}
