import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Small builders of the n8n property literals the catalogue would otherwise write again and again.
 * The fields' own builders are fields.ts's.
 */

/**
 * The options of an `options` or `multiOptions` property, by label and the value sent, sorted by
 * label as n8n lists them (its linter asks it of a literal list): `choices({ Rental: 'rental', Sale: 'sale' })`.
 */
export function choices(values: Readonly<Record<string, string>>): INodePropertyOptions[] {
	return Object.entries(values)
		.map(([name, value]) => ({ name, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
