import { integer } from '../rules';
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
			{
				in: 'path',
				rules: [integer({ min: 1 })],
				property: {
					displayName: 'List ID',
					name: 'listId',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 1,
					required: true,
					description: 'Identifier of the configuration list (no endpoint lists the lists)',
				},
			},
		],
	},
];
