import type { INodeProperties } from 'n8n-workflow';

import { entriesOf } from './convert';
import { keyOf } from './fields';
import { isEmpty } from './rules';
import type { ConvertEnv, Converted, FieldSpec } from './types';

/**
 * Fields made of parts (`FieldSpec.parts`: a recurrence rule, a point), each part read, converted
 * and judged as a field of its own: their descriptor, and what the user entered as one object.
 */

/** The name of the one group of a fixedCollection whose parts make an object (`rule`, `point`). */
function groupOf(field: FieldSpec): string {
	return (field.property.options?.[0] as { name: string }).name;
}

/**
 * What the user entered for a field, converted: by its converter, or, for a field with parts, its
 * object of converted parts (each part's result kept for validation).
 */
export function convertField(field: FieldSpec, raw: unknown, env: ConvertEnv): Converted {
	if (!field.parts) return field.convert ? field.convert(raw, env) : { value: raw };
	const entry = entriesOf(raw, groupOf(field))[0];
	if (!entry) return { value: undefined };
	const parts = new Map(field.parts.map((part) => [part, convertField(part, entry[part.property.name], env)]));
	const given = [...parts].flatMap(([part, converted]) =>
		'value' in converted && !isEmpty(converted.value) ? [[keyOf(part), converted.value]] : [],
	);
	return { value: Object.fromEntries(given), parts };
}

/** The descriptor of a field with parts: one group holding the parts, sorted by name as the editor lists them. */
export function withParts(
	property: Omit<INodeProperties, 'options'>,
	group: { displayName: string; name: string },
	parts: FieldSpec[],
): INodeProperties {
	const values = parts.map((part) => part.property).sort((a, b) => a.displayName.localeCompare(b.displayName));
	return { ...property, options: [{ ...group, values }] } as INodeProperties;
}
