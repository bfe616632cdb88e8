import type { EndpointCase } from './types';

export const configCases: EndpointCase[] = [
	{
		endpoint: 'GET /configs/listes/{listeId}/values',
		parameters: { resource: 'config', operation: 'getValues', listId: 2 },
		request: { method: 'GET', path: '/configs/listes/2/values' },
	},
];
