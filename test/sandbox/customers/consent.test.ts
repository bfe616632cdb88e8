import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

/** A consent as production takes it: a form with its text fields and proof files under proofs[]. */
function consentForm(fields: Record<string, string>, proofs: string[] = []): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	for (const name of proofs) form.append('proofs[]', new Blob([Buffer.from('%PDF-1.4')]), name);
	return form;
}

describe('consent, as production takes it (issue 26)', () => {
	test("upsert (a form) and revoke answer 204; read back with include=consent in production's keys", async () => {
		const upsert = await h.api('POST', '/customers/10005/consent', {
			form: consentForm(
				{ reason: 'Accord signé', consent_date: '2026-05-01T10:00:00+00:00', accept_outside_hours: '1' },
				['accord.pdf', 'appel.pdf'],
			),
		});
		expect(upsert.status).toBe(204);
		expect(upsert.bytes).toHaveLength(0);
		const read = async () =>
			(await h.api('GET', '/customers/10005', { query: { include: 'consent' } })).body.data.consent;
		expect(await read()).toEqual({
			reason: 'Accord signé',
			consentDate: '2026-05-01T10:00:00+00:00',
			acceptOutsideHours: true,
			proofs: [{ name: 'accord.pdf' }, { name: 'appel.pdf' }],
			revokedAt: null,
		});
		expect((await h.api('DELETE', '/customers/10005/consent')).status).toBe(204);
		expect(await read()).toMatchObject({
			revokedAt: expect.stringMatching(/Z$/),
			proofs: [{ name: 'accord.pdf' }, { name: 'appel.pdf' }],
		});
		// The same text fields as JSON are taken too; proofs are kept (changelog 1.4.0).
		const again = await h.api('POST', '/customers/10005/consent', { body: { reason: 'Nouvel accord' } });
		expect(again.status).toBe(204);
		expect(await read()).toMatchObject({
			reason: 'Nouvel accord',
			revokedAt: null,
			proofs: [{ name: 'accord.pdf' }, { name: 'appel.pdf' }],
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
			const result = await h.api('POST', `/customers/${customerId}/consent`, {
				form: consentForm({ reason: 'Accord' }, ['p.pdf']),
			});
			expect(result.status).toBe(502);
			expect(result.body.error.code).toBe('PROOF_STORAGE_FAILED');
			expect((await h.admin('GET', `/records/consent/${customerId}`)).status).toBe(404);
		} finally {
			await h.admin('DELETE', '/faults');
		}
		expect((await h.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Accord' } })).status).toBe(204);
	});

	test('a reason is required; over 64 characters it is cut there, as production cuts it (issue 35)', async () => {
		expect(detailFields(await h.api('POST', '/customers/10005/consent', { form: consentForm({}) }))).toEqual([
			'reason',
		]);
		const reason = `${'Signed at the agency, '.repeat(3)}then confirmed by phone`;
		expect(reason.length).toBeGreaterThan(64);
		const long = await h.api('POST', '/customers/10005/consent', { form: consentForm({ reason }) });
		expect(long.status).toBe(204);
		const { body } = await h.api('GET', '/customers/10005?include=consent');
		expect(body.data.consent.reason).toBe(reason.slice(0, 64));
	});

	test('a dropped consent (admin fault) is answered 204 and the contact shows no change (issue 35)', async () => {
		const created = await h.api('POST', '/customers', { body: { lastname: 'Dropped', email: 'dropped@example.org' } });
		const customerId = created.body.data.customers_id;
		await h.admin('POST', '/faults', { client_id: 'demo-client', consent_dropped: true });
		try {
			const result = await h.api('POST', `/customers/${customerId}/consent`, {
				form: consentForm({ reason: 'Accord' }),
			});
			expect(result.status).toBe(204);
			expect((await h.api('GET', `/customers/${customerId}?include=consent`)).body.data.consent).toBeNull();
		} finally {
			await h.admin('DELETE', '/faults');
		}
	});

	test('a date in Z or with milliseconds is refused, as production validates Y-m-d\\TH:i:sP', async () => {
		for (const date of ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00.000+00:00']) {
			const result = await h.api('POST', '/customers/10005/consent', {
				form: consentForm({ reason: 'Accord', consent_date: date }),
			});
			expect(result.status).toBe(422);
			expect(detailFields(result)).toEqual(['consent_date']);
		}
	});

	test('the first guess (JSON with a base64 proof_file, collected_at) is refused, naming each field', async () => {
		const result = await h.api('POST', '/customers/10005/consent', {
			body: {
				reason: 'Accord',
				collected_at: '2025-01-01T10:00:00Z',
				proof_file: { file_name: 'accord.pdf', content_base64: 'JVBERi0xLjQ=' },
			},
		});
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['proof_file', 'collected_at']);
		const misnamed = new FormData();
		misnamed.append('reason', 'Accord');
		misnamed.append('proof_file', new Blob([Buffer.from('%PDF')]), 'accord.pdf');
		expect(detailFields(await h.api('POST', '/customers/10005/consent', { form: misnamed }))).toEqual(['proof_file']);
	});
});
