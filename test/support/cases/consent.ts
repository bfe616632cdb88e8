import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const consentCases: EndpointCase[] = [
	{
		endpoint: 'POST /customers/{customerId}/consent',
		parameters: {
			resource: 'consent',
			operation: 'set',
			customerId: byId(10003),
			reason: 'Phone call 2026-11-20',
			additionalFields: { collectedAt: '2026-11-20T10:00:00+01:00' },
		},
		request: {
			method: 'POST',
			path: '/customers/10003/consent',
			body: { reason: 'Phone call 2026-11-20', collected_at: '2026-11-20T09:00:00Z' },
		},
	},
	{
		endpoint: 'DELETE /customers/{customerId}/consent',
		parameters: { resource: 'consent', operation: 'revoke', customerId: byId(10003) },
		request: { method: 'DELETE', path: '/customers/10003/consent' },
		verify: ({ output }) => expect(output[0]).toEqual({ success: true }),
	},
];
