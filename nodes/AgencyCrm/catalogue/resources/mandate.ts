import { commaList } from '../convert';
import { agencyField, idInPath, productField } from '../fields';
import type { Endpoint } from '../types';

export const mandateEndpoints: Endpoint[] = [
	{
		resource: 'mandate',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many mandates',
			description:
				'Search the mandate register by agency or product, newest first; the register module must be enabled for the site',
		},
		method: 'GET',
		path: '/mandates',
		packs: ['Mandates'],
		pagination: 'cursor',
		fields: [agencyField('query'), productField('query')],
	},
	{
		resource: 'mandate',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a mandate',
			description: 'Get one mandate of the register by its ID, with the related data asked for',
		},
		method: 'GET',
		path: '/mandates/{mandateId}',
		packs: ['Mandates'],
		fields: [
			{
				...idInPath({
					displayName: 'Mandate ID',
					name: 'mandateId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 3001',
					description: 'The mandat_id of the mandate',
				}),
				findWith: 'Mandate → Get Many',
			},
			{
				in: 'query',
				placement: 'collection',
				setting: true,
				convert: commaList,
				property: {
					displayName: 'Include',
					name: 'include',
					type: 'string',
					default: '',
					placeholder: 'e.g. product, customer',
					description: 'Related data to load, comma-separated',
				},
			},
		],
	},
];
