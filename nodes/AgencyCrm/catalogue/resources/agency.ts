import { agencyField } from '../fields';
import { spec } from '../rules';
import type { Endpoint } from '../types';

export const agencyEndpoints: Endpoint[] = [
	{
		resource: 'agency',
		operation: {
			name: 'Discover Access',
			value: 'discover',
			action: 'Discover accessible agencies and packs',
			description:
				'List the agencies this credential can reach and the packs it was granted (the recommended first call)',
		},
		method: 'GET',
		path: '/discovery',
		packs: ['Any'],
		fields: [],
	},
	{
		resource: 'agency',
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many agencies',
			description: 'List the agencies of the site, optionally those whose name contains a text',
		},
		method: 'GET',
		path: '/agencies',
		packs: ['Any'],
		pagination: 'cursor',
		maxPageSize: {
			size: 200,
			source: spec('section 4 "Discovery and agencies", GET /agencies: "per_page integer (default 50, maximum 200)"'),
		},
		fields: [
			{
				in: 'query',
				placement: 'collection',
				property: {
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Only agencies whose name contains this text',
				},
			},
		],
	},
	{
		resource: 'agency',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get an agency',
			description: 'Get one agency by its ID, with its users',
		},
		method: 'GET',
		path: '/agencies/{agencyId}',
		packs: ['Any'],
		fields: [agencyField('path')],
	},
];
