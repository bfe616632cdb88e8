import type { EndpointCase } from './types';
import { plainGet } from './types';

export const webhookCases: EndpointCase[] = [
	{
		endpoint: 'POST /hooks',
		parameters: {
			resource: 'webhook',
			operation: 'create',
			url: 'https://example.com/hooks/crm',
			origines: ['PRODUCT_UPDATE'],
			additionalFields: { headers: { header: [{ name: 'X-Token', value: 'abc' }] } },
		},
		request: {
			method: 'POST',
			path: '/hooks',
			body: { url: 'https://example.com/hooks/crm', origines: ['PRODUCT_UPDATE'], headers: { 'X-Token': 'abc' } },
		},
		keep: (output, ids) => {
			ids.hookId = output.id as number;
		},
	},
	plainGet('webhook', 'getAll', '/hooks'),
	{
		endpoint: 'PUT /hooks/{hookId}',
		parameters: ({ hookId }) => ({
			resource: 'webhook',
			operation: 'update',
			hookId: String(hookId),
			additionalFields: { origines: ['PRODUCT_UPDATE', 'PRODUCT_CREATE'] },
		}),
		request: ({ hookId }) => ({
			method: 'PUT',
			path: `/hooks/${hookId}`,
			body: { origines: ['PRODUCT_UPDATE', 'PRODUCT_CREATE'] },
		}),
	},
	{
		endpoint: 'DELETE /hooks/{hookId}',
		parameters: ({ hookId }) => ({ resource: 'webhook', operation: 'delete', hookId: String(hookId) }),
		title: 'found among the hooks first, so that a 404 after a lost answer is this removal',
		request: ({ hookId }) => ({ method: 'DELETE', path: `/hooks/${hookId}`, after: ['GET /hooks'] }),
	},
];
