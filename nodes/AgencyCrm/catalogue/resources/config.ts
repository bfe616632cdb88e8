import { idInPath } from '../fields';
import type { Endpoint } from '../types';

export const configEndpoints: Endpoint[] = [
	{
		resource: 'config',
		operation: {
			name: 'Get Values',
			value: 'getValues',
			action: 'Get the values of a configuration list',
			description: 'List the values (ID and label) of one configuration list of the site',
		},
		method: 'GET',
		path: '/configs/listes/{listId}/values',
		packs: ['Any'],
		fields: [
			idInPath({
				displayName: 'List ID',
				name: 'listId',
				type: 'string',
				// 0.1.0's default: a workflow saved with it left the ID out.
				default: '1',
				description: 'Identifier of the configuration list (no endpoint lists the lists)',
			}),
		],
	},
];
