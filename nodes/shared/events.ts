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
