import type { INodePropertyOptions } from 'n8n-workflow';

/** The event types the API delivers to webhooks (spec section 6), as n8n options. */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Customer Created', value: 'CUSTOMER_CREATE' },
	{ name: 'Customer Updated', value: 'CUSTOMER_UPDATE' },
	{ name: 'Product Created', value: 'PRODUCT_CREATE' },
	{ name: 'Product Updated', value: 'PRODUCT_UPDATE' },
];
