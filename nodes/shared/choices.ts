import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The options of an `options` or `multiOptions` property, by label: the value sent, or the value and
 * what the option does; sorted by label as n8n lists them (its linter asks it of a literal list):
 * `choices({ Rental: 'rental', Sale: 'sale' })`, `choices({ Raw: ['raw', 'Every field the API returns'] })`.
 */
export function choices(
	values: Readonly<Record<string, string | readonly [value: string, description: string]>>,
): INodePropertyOptions[] {
	return Object.entries(values)
		.map(([name, given]) =>
			typeof given === 'string' ? { name, value: given } : { name, value: given[0], description: given[1] },
		)
		.sort((a, b) => a.name.localeCompare(b.name));
}
