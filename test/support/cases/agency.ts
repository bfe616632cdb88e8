import type { IDataObject } from 'n8n-workflow';

import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const agencyCases: EndpointCase[] = [
	{
		endpoint: 'GET /discovery',
		parameters: { resource: 'agency', operation: 'discover' },
		request: { method: 'GET', path: '/discovery' },
		verify: ({ output }) => expect((output[0].agencies as IDataObject[]).length).toBe(3),
	},
	{
		endpoint: 'GET /agencies',
		parameters: { resource: 'agency', operation: 'getAll', returnAll: false, limit: 2, filters: { search: 'Lyon' } },
		request: { method: 'GET', path: '/agencies', query: { per_page: '2', search: 'Lyon' } },
	},
	{
		endpoint: 'GET /agencies/{agencyId}',
		parameters: { resource: 'agency', operation: 'get', agencyId: byId(102) },
		request: { method: 'GET', path: '/agencies/102' },
		verify: ({ output }) => expect(output[0].agency_id).toBe(102),
	},
];
