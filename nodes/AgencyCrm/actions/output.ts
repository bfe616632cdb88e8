import type { IDataObject } from 'n8n-workflow';

import { listEntries } from '../catalogue/convert';
import type { Endpoint, OutputKeys, PreparedRequest } from '../catalogue/types';
import type { ItemRun } from './itemRun';

/** Related data asked for by name (`include=stopSms`) may come back under its snake_case key (`stop_sms`). */
function relationKeys(request: PreparedRequest, parameter: string | undefined): string[] {
	if (!parameter) return [];
	return listEntries(request.qs[parameter]).flatMap((name) => [
		name,
		name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
	]);
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
	const wanted = [keys.id, ...chosen, ...relationKeys(request, keys.relationsParameter)];
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
		return shaped;
	};
}
