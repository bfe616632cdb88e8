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
 * How records come out as the Output option asks: Simplified (the main keys), Raw, or the Selected
 * Fields, always with the record's identifier and every relation the user asked for with `include`
 * or `fetch` (asking for it is choosing it). Operations without the option output records as they
 * are. The option is read once per item, not per record: a Return All shapes thousands of records,
 * and each n8n parameter read costs more than the shaping itself.
 */
export function outputShaper(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
	itemIndex: number,
): (record: IDataObject) => IDataObject {
	const keys = endpoint.outputKeys;
	if (!keys) return (record) => record;
	// The choices are the catalogue's: n8n's check against the node's description is skipped.
	const parameter = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback, { skipValidation: true });
	const mode = parameter('output', 'simple') as string;
	if (mode === 'raw') return (record) => record;
	const chosen = mode === 'fields' ? listEntries(parameter('fields', [])) : keys.simple;
	const wanted = [keys.id, ...chosen, ...relationKeys(request, keys.relationsParameter)];
	return (record) => {
		const shaped: IDataObject = {};
		for (const key of wanted) if (key in record) shaped[key] = record[key];
		return shaped;
	};
}
