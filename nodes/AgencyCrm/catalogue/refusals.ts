import type { RefusalGuide } from '../../shared/transport';
import { keyOf, labelOf } from './fields';
import { RESOURCES } from './index';
import type { Endpoint, FieldSpec } from './types';

/**
 * What a refusal of an endpoint's request tells users, in the words of the form: the access the
 * endpoint needs (403), each field the API names by its label (422), the values to check and how
 * to find them again (404), the operation to use instead of a create (409).
 */

/**
 * "the Customers pack (or Full)", "the Properties or Websites pack (or Full)"; for the calendar, its
 * permission and the site's agenda module, which production also requires (docs/assumptions.md
 * "Production evidence"), so that a 403 from a missing module says so.
 */
function accessNeeded(endpoint: Endpoint): string | undefined {
	const packs = endpoint.packs.filter((pack) => pack !== 'Any');
	if (!packs.length) return undefined;
	const names = packs.join(' or ');
	return packs.every((pack) => pack.startsWith('SITE_CALENDAR'))
		? `the ${names} permission, and the agenda module enabled for the site`
		: `the ${names} pack (or Full)`;
}

/**
 * A field the API names, as the form labels it: `"Email" (email)`, a part `"Recurrence" Start
 * (recurrence.dtstart)`; an item of a list field by the list's label, `"Other Phones" (phones[0].number)`.
 */
function apiFieldLabels(endpoint: Endpoint): (apiField: string) => string | undefined {
	const sent = endpoint.fields.filter((field) => field.in !== 'node');
	const labels = new Map<string, string>();
	for (const field of sent) {
		labels.set(keyOf(field), labelOf(field));
		for (const part of field.parts ?? []) labels.set(`${keyOf(field)}.${keyOf(part)}`, labelOf(part, field));
	}
	return (apiField) => {
		const exact = labels.get(apiField);
		if (exact) return exact;
		const owner = sent
			.filter((field) => apiField.startsWith(`${keyOf(field)}.`) || apiField.startsWith(`${keyOf(field)}[`))
			.sort((a, b) => keyOf(b).length - keyOf(a).length)[0];
		return owner && `"${owner.property.displayName}" (${apiField})`;
	};
}

/** How a value of the path is picked again: from the list the form offers, or with the operation that finds it. */
function findAgain(field: FieldSpec): string {
	const fromList = field.property.modes?.some((mode) => mode.type === 'list')
		? 'pick it From List'
		: field.property.typeOptions?.loadOptionsMethod && 'pick it from the list';
	const ways = [fromList, field.findWith && `find its ID with ${field.findWith}`].filter(Boolean);
	return `Check the ${field.property.displayName}${ways.length ? `: ${ways.join(', or ')}` : ''}.`;
}

function notFound(endpoint: Endpoint): string | undefined {
	const ids = endpoint.fields.filter((field) => field.in === 'path');
	return ids.length ? ids.map(findAgain).join(' ') : undefined;
}

/** A create refused because the record exists: the resource's Create or Update, else its Update. */
function conflict(endpoint: Endpoint): string | undefined {
	const resource = RESOURCES.find((candidate) => candidate.value === endpoint.resource);
	const others = resource?.endpoints.filter((candidate) => candidate !== endpoint) ?? [];
	const instead =
		others.find((candidate) => candidate.operation.value === 'upsert') ??
		others.find((candidate) => candidate.operation.value === 'update');
	return instead && `It already exists: use ${resource?.name} → ${instead.operation.name} instead.`;
}

const guides = new WeakMap<Endpoint, RefusalGuide>();

export function refusalGuide(endpoint: Endpoint): RefusalGuide {
	let guide = guides.get(endpoint);
	if (!guide) {
		guide = {
			accessNeeded: accessNeeded(endpoint),
			rightsNeeded: endpoint.rights,
			labelOf: apiFieldLabels(endpoint),
			notFound: notFound(endpoint),
			conflict: conflict(endpoint),
		};
		guides.set(endpoint, guide);
	}
	return guide;
}
