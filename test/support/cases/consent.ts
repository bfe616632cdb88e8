import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

export const consentCases: EndpointCase[] = [
	{
		endpoint: 'POST /customers/{customerId}/consent',
		title: 'a form, as production takes it, then read back',
		parameters: {
			resource: 'consent',
			operation: 'set',
			customerId: byId(10003),
			reason: 'Phone call 2026-11-20',
			additionalFields: {
				collectedAt: '2026-11-20T10:00:00+01:00',
				acceptOutsideHours: true,
				proofBinaryPropertyName: 'data',
			},
		},
		binary: { data: { data: Buffer.from('%PDF-1.4 signed'), fileName: 'signed.pdf', mimeType: 'application/pdf' } },
		request: {
			method: 'POST',
			path: '/customers/10003/consent',
			status: 204,
			form: { reason: 'Phone call 2026-11-20', consent_date: '2026-11-20T09:00:00+00:00', accept_outside_hours: '1' },
		},
		verify: ({ output, requests }) => {
			expect(requests.map((request) => request.route)).toEqual([
				'POST /customers/{customerId}/consent',
				'GET /customers/{customerId}',
			]);
			expect(output[0]).toEqual({
				customers_id: 10003,
				consent: {
					reason: 'Phone call 2026-11-20',
					consentDate: '2026-11-20T09:00:00+00:00',
					acceptOutsideHours: true,
					proofs: expect.arrayContaining([{ name: 'signed.pdf' }]),
					revokedAt: null,
				},
				confirmed: true,
				date_confirmed: true,
			});
		},
	},
	{
		endpoint: 'POST /customers/{customerId}/consent',
		title: 'a reason over 64 characters is sent as given (production cuts it), with a notice',
		parameters: {
			resource: 'consent',
			operation: 'set',
			customerId: byId(10004),
			reason: 'Signed at the agency on 2026-11-20 in front of the agent, then confirmed by phone',
			additionalFields: { collectedAt: '2026-11-20T10:00:00+01:00' },
		},
		request: {
			method: 'POST',
			path: '/customers/10004/consent',
			status: 204,
			form: {
				reason: 'Signed at the agency on 2026-11-20 in front of the agent, then confirmed by phone',
				consent_date: '2026-11-20T09:00:00+00:00',
			},
		},
		verify: ({ output, hints }) => {
			expect(output[0]).toMatchObject({
				consent: { reason: 'Signed at the agency on 2026-11-20 in front of the agent, then c' },
				confirmed: true,
				date_confirmed: true,
			});
			expect(hints.map((hint) => hint.message)).toEqual([
				expect.stringContaining('"Reason" has 81 characters: Agency CRM keeps the first 64'),
			]);
		},
	},
	{
		endpoint: 'DELETE /customers/{customerId}/consent',
		parameters: { resource: 'consent', operation: 'revoke', customerId: byId(10003) },
		request: { method: 'DELETE', path: '/customers/10003/consent' },
		verify: ({ output }) => expect(output[0]).toEqual({ success: true }),
	},
];
