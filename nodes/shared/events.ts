import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The event types the API delivers to webhooks (spec section 6), as n8n options: named in the users'
 * words, the value (what the API and saved workflows hold) named once in the description.
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
		name: 'Property Updated',
		value: 'PRODUCT_UPDATE',
		description: "A property is changed (the API's PRODUCT_UPDATE)",
	},
];

/** The canvas subtitle of a node whose `events` parameter holds event types: their names, not the API's values. */
export function eventsSubtitle(): string {
	const names = Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name]));
	return `={{ $parameter["events"].map((event) => (${JSON.stringify(names)})[event] ?? event).join(", ") }}`;
}
