import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listEntries } from '../catalogue/convert';
import type { Endpoint, PreparedRequest } from '../catalogue/types';

/** Related data asked for by name (`include=stopSms`) may come back under its snake_case key (`stop_sms`). */
function relationKeys(request: PreparedRequest, parameter: string | undefined): string[] {
	if (!parameter) return [];
	return listEntries(request.qs[parameter]).flatMap((name) => [
		name,
		name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
	]);
}

/**
 * One record as the Output option asks: Simplified (the main keys), Raw, or the Selected Fields,
 * always with the record's identifier and every relation the user asked for with `include` or
 * `fetch` (asking for it is choosing it). Operations without the option output the record as it is.
 */
export function outputRecord(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	record: IDataObject,
	itemIndex: number,
): IDataObject {
	const keys = endpoint.outputKeys;
	if (!keys) return record;
	const mode = context.getNodeParameter('output', itemIndex, 'simple') as string;
	if (mode === 'raw') return record;
	const chosen = mode === 'fields' ? listEntries(context.getNodeParameter('fields', itemIndex, [])) : keys.simple;
	const wanted = [keys.id, ...chosen, ...relationKeys(request, keys.relationsParameter)];
	return Object.fromEntries(wanted.filter((key) => key in record).map((key) => [key, record[key]]));
}
