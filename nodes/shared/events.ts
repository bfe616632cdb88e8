import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The event types the API delivers to webhooks, as n8n options: named in the users' words, the value
 * (what the API and saved workflows hold) named once in the description. Spec section 6 names the
 * first four; production also sends PRODUCT_DELETE (docs/assumptions.md, "Production evidence").
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Contact Created',
		value: 'CUSTOMER_CREATE',
		description: "A contact is created (the API's CUSTOMER_CREATE)",
	},
	{
		name: 'Contact Updated',
		value: 'CUSTOMER_UPDATE',
		description: "A contact is changed (the API's CUSTOMER_UPDATE)",
	},
	{
		name: 'Property Created',
		value: 'PRODUCT_CREATE',
		description: "A property is created (the API's PRODUCT_CREATE)",
	},
	{
		name: 'Property Deleted',
		value: 'PRODUCT_DELETE',
		description: "A property is deleted (the API's PRODUCT_DELETE): the record is gone, only its ID comes",
	},
	{
		name: 'Property Updated',
		value: 'PRODUCT_UPDATE',
		description: "A property is changed (the API's PRODUCT_UPDATE)",
	},
];

/** The events of each kind of record, for options shown only for the events they concern. */
export const CONTACT_EVENTS = ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'];
/** Property events whose record can be fetched (a deleted one is gone). */
export const PROPERTY_RECORD_EVENTS = ['PRODUCT_CREATE', 'PRODUCT_UPDATE'];

/** The canvas subtitle of a node whose `events` parameter holds event types: their names, not the API's values. */
export function eventsSubtitle(): string {
	const names = Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name]));
	return `={{ $parameter["events"].map((event) => (${JSON.stringify(names)})[event] ?? event).join(", ") }}`;
}

/** Production's event types: what a hook registers and a delivery carries. */
export const EVENT_TYPES: readonly string[] = EVENT_OPTIONS.map((option) => String(option.value));

/** The kind of record a word names, in the spec's words and production's: a contact or customer, a property or product. */
export const RECORD_KIND_OF_WORD: ReadonlyMap<string, 'customer' | 'product'> = new Map([
	['customer', 'customer'],
	['customers', 'customer'],
	['contact', 'customer'],
	['contacts', 'customer'],
	['product', 'product'],
	['products', 'product'],
	['property', 'product'],
	['properties', 'product'],
]);
const DOTTED_CHANGES: Readonly<Record<string, string>> = {
	create: 'CREATE',
	created: 'CREATE',
	update: 'UPDATE',
	updated: 'UPDATE',
	delete: 'DELETE',
	deleted: 'DELETE',
};

/**
 * An event name as production knows it: one of its constants in any case, or a dotted name such as
 * the spec's `property.updated` (section 6, which leaves its relation to PRODUCT_UPDATE unsaid: read
 * as PRODUCT_UPDATE, docs/assumptions.md) and its siblings (`contact.created`, `property.deleted`).
 * Undefined for a name that is no event production sends.
 */
export function productionEventOf(name: unknown): string | undefined {
	if (typeof name !== 'string') return undefined;
	const text = name.trim();
	const [kind, change, ...rest] = text.toLowerCase().split('.');
	const recordKind = RECORD_KIND_OF_WORD.get(kind)?.toUpperCase();
	const dotted = rest.length === 0 && change !== undefined && recordKind && Object.hasOwn(DOTTED_CHANGES, change);
	const event = dotted ? `${recordKind}_${DOTTED_CHANGES[change]}` : text.toUpperCase();
	return EVENT_TYPES.includes(event) ? event : undefined;
}
