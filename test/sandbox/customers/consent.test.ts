import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

describe('consent', () => {
	test('upsert and revoke answer 204 and are recorded', async () => {
		const upsert = await h.api('POST', '/customers/10005/consent', {
			body: { reason: 'Accord signé', proof_file: { file_name: 'accord.pdf', content_base64: 'JVBERi0xLjQ=' } },
		});
		expect(upsert.status).toBe(204);
		expect(upsert.bytes).toHaveLength(0);
		expect((await h.admin('GET', '/records/consent/10005')).body.data).toMatchObject({
			status: 'collected',
			reason: 'Accord signé',
			revoked_at: null,
			proof_file_name: 'accord.pdf',
		});
		expect((await h.api('DELETE', '/customers/10005/consent')).status).toBe(204);
		const revoked = (await h.admin('GET', '/records/consent/10005')).body.data;
		expect(revoked).toMatchObject({
			status: 'revoked',
			revoked_at: expect.stringMatching(/Z$/),
			proof_file_name: 'accord.pdf',
		});
		const again = await h.api('POST', '/customers/10005/consent', { body: { reason: 'Nouvel accord' } });
		expect(again.status).toBe(204);
		expect((await h.admin('GET', '/records/consent/10005')).body.data).toMatchObject({
			status: 'collected',
			revoked_at: null,
			proof_file_name: 'accord.pdf',
		});
	});

	test('revoking a missing consent still answers 204', async () => {
		const created = await h.api('POST', '/customers', {
			body: { lastname: 'Sans consentement', email: 'sans.consentement@example.org' },
		});
		expect((await h.api('DELETE', `/customers/${created.body.data.customers_id}/consent`)).status).toBe(204);
	});

	test('a proof storage failure answers 502 and records nothing', async () => {
		const created = await h.api('POST', '/customers', { body: { lastname: 'Preuve', email: 'preuve@example.org' } });
		const customerId = created.body.data.customers_id;
		await h.admin('POST', '/faults', { client_id: 'demo-client', consent_proof_failure: true });
		try {
			const result = await h.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Accord' } });
			expect(result.status).toBe(502);
			expect(result.body.error.code).toBe('PROOF_STORAGE_FAILED');
			expect((await h.admin('GET', `/records/consent/${customerId}`)).status).toBe(404);
		} finally {
			await h.admin('DELETE', '/faults');
		}
		expect((await h.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Accord' } })).status).toBe(204);
	});

	test('a reason is required', async () => {
		const result = await h.api('POST', '/customers/10005/consent', { body: { collected_at: '2025-01-01T10:00:00' } });
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['reason', 'collected_at']);
	});
});
