import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { convertField } from '../../nodes/AgencyCrm/catalogue/parts';
import { isEmpty } from '../../nodes/AgencyCrm/catalogue/rules';
import type { NodeVersion, Place } from '../../nodes/AgencyCrm/catalogue/form';
import { formOf } from '../../nodes/AgencyCrm/catalogue/form';
import type { FieldSpec } from '../../nodes/AgencyCrm/catalogue/types';

/**
 * The same inputs as a node of another version holds them: each moved from where version 1 keeps it
 * to where the form of `version` does (catalogue/form.ts), so that one table of cases runs through
 * both forms. A version 1 field sent as a criterion (Price, Rooms, Status…) is, in a version without
 * it, the criterion row a user would add there, its option value as the code it stands for (none
 * where version 1 sends nothing: left empty, or a price left at 0); such rows come before the rows
 * the case gives, as version 1 sends them. Only the parameters move: the request
 * each case expects stays as written.
 */

type Parameters = Record<string, unknown>;

function readAt(parameters: Parameters, place: Place, name: string): unknown {
	if (place === 'top') return parameters[name];
	return (parameters[place] as Parameters | undefined)?.[name];
}

function writeAt(parameters: Parameters, place: Place, name: string, value: unknown) {
	if (place === 'top') parameters[name] = value;
	else parameters[place] = { ...(parameters[place] as Parameters | undefined), [name]: value };
}

/** Whether version 1 sends nothing for this value of a field: it converts to nothing. */
function sendsNothing(field: FieldSpec, value: unknown): boolean {
	const converted = convertField(field, value, { timezone: 'UTC' });
	return 'value' in converted && isEmpty(converted.value);
}

export function asVersion(parameters: Parameters, version: NodeVersion): Parameters {
	const endpoint = findEndpoint(String(parameters.resource), String(parameters.operation));
	if (version === 1 || !endpoint) return parameters;
	const before = formOf(endpoint, 1);
	const after = new Map(formOf(endpoint, version).map((entry) => [entry.field, entry.place]));
	// A parameter that moved in this version is a field of its own there, under the same name (First Name).
	const afterByName = new Map(formOf(endpoint, version).map((entry) => [entry.field.property.name, entry.place]));
	// What the form does not place (Resource, Operation) stays as it is.
	const placed = new Set(before.map(({ field, place }) => (place === 'top' ? field.property.name : place)));
	const result = Object.fromEntries(Object.entries(parameters).filter(([name]) => !placed.has(name)));
	const rowsOfFields: Parameters[] = [];
	for (const { field, place } of before) {
		const value = readAt(parameters, place, field.property.name);
		const shortcut = field.criterion;
		if (value !== undefined && shortcut && !after.has(field)) {
			if (sendsNothing(field, value)) continue;
			const code = shortcut.codes?.[String(value)]?.[0] ?? value;
			rowsOfFields.push({
				id: shortcut.keys[0],
				...(shortcut.operator ? { operator: shortcut.operator } : {}),
				value: code,
			});
			continue;
		}
		const moved = after.get(field) ?? afterByName.get(field.property.name);
		if (value !== undefined && moved) writeAt(result, moved, field.property.name, value);
	}
	const rows = formOf(endpoint, version).find((entry) => entry.field.in === 'criteria' && !entry.field.criterion);
	if (rowsOfFields.length && rows) {
		const name = rows.field.property.name;
		const given = (readAt(result, rows.place, name) as { criterion?: Parameters[] } | undefined)?.criterion ?? [];
		writeAt(result, rows.place, name, { criterion: [...rowsOfFields, ...given] });
	}
	return result;
}
