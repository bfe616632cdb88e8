import type { NodeOperationError } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';
import { failureOf } from '../support/failures';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 35, point 4: Consent → Set is confirmed only by the read-back, as production's lead router
 * confirms it (a consent there, not revoked, dated as sent); anything else is "written but not
 * confirmed": the item fails naming what the read-back showed. And a reason over 64 characters is
 * sent as given, with a notice: production cuts it (issue 32, point 5).
 */
const SENT_DATE = '2026-05-01T08:00:00+00:00';
const consentSet = (reason = 'Signed form') => ({
	resource: 'consent',
	operation: 'set',
	customerId: byId(42),
	reason,
	additionalFields: { collectedAt: '2026-05-01T10:00:00+02:00' },
});

async function run(answers: ScriptedAnswer[], parameters = consentSet(), continueOnFail = false) {
	const fake = fakeContext({ parameters, answers, continueOnFail });
	const [items] = await route.call(fake.execute);
	return { output: items.map((item) => item.json), fake };
}

/** The text parts of the multipart body the node sent. */
function formOf(body: unknown): Record<string, string> {
	const text = Buffer.from((body as { data: number[] }).data ?? (body as Buffer)).toString('utf8');
	return Object.fromEntries(
		[...text.matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)].map(([, name, value]) => [name, value]),
	);
}

const readBack = (consent: unknown) => ok({ data: { id: 42, customers_id: 42, consent } });
const recorded = {
	reason: 'Signed form',
	consentDate: SENT_DATE,
	acceptOutsideHours: null,
	proofs: [],
	revokedAt: null,
};

test('the wire: a form with the reason and the date in production’s form, then GET /customers/42?include=origin,groups,consent', async () => {
	const { output, fake } = await run([status(204, {}, ''), readBack(recorded)]);
	const [write, read] = fake.calls;
	expect(write).toMatchObject({ method: 'POST', url: '/customers/42/consent' });
	expect(formOf(write.body)).toEqual({ reason: 'Signed form', consent_date: SENT_DATE });
	expect(read).toMatchObject({ method: 'GET', url: '/customers/42', qs: { include: 'origin,groups,consent' } });
	expect(output).toEqual([{ customers_id: 42, consent: recorded, confirmed: true }]);
});

test.each([
	[
		'in snake_case, with the date in Z',
		{ reason: 'Signed form', consent_date: '2026-05-01T08:00:00Z', revoked_at: null },
	],
	['with the date in another zone', { ...recorded, consentDate: '2026-05-01T10:00:00+02:00' }],
])('a consent read back %s is the one sent: confirmed', async (_form, consent) => {
	const { output } = await run([status(204, {}, ''), readBack(consent)]);
	expect(output[0]).toMatchObject({ confirmed: true });
});

test.each([
	['no consent', null, 'shows no consent'],
	[
		'a revoked consent',
		{ ...recorded, revokedAt: '2026-05-02T09:00:00+00:00' },
		'shows it revoked (2026-05-02T09:00:00+00:00)',
	],
	[
		'another date',
		{ ...recorded, consentDate: '2025-01-01T00:00:00+00:00' },
		`shows it dated 2025-01-01T00:00:00+00:00, not ${SENT_DATE} as sent`,
	],
	['no date', { ...recorded, consentDate: null }, 'shows it without its date'],
])('read back with %s: the item fails, saying what the read-back showed', async (_case, consent, shown) => {
	const fake = fakeContext({ parameters: consentSet(), answers: [status(204, {}, ''), readBack(consent)] });
	const error = await failureOf<NodeOperationError>(route.call(fake.execute));
	expect(error.message).toBe(
		`The API accepted the consent (HTTP 204), but reading the record back ${shown}: written but not confirmed`,
	);
	expect(error.description).toContain(`The read-back's consent: ${JSON.stringify(consent)}`);
});

test('a read-back that fails does not confirm either; with Continue On Fail the item is its error, as data', async () => {
	const failing = [
		status(204, {}, ''),
		errorAnswer(403, 'FORBIDDEN', 'The client lacks the right RS:CUSTOMER_READ', { requestId: 'r-1' }),
	];
	const { output } = await run(failing, consentSet(), true);
	expect(output).toEqual([
		expect.objectContaining({
			error: expect.stringMatching(
				/^The API accepted the consent \(HTTP 204\), but reading the record back failed \(FORBIDDEN: .*\): written but not confirmed$/,
			),
			description: expect.stringContaining('Check it in Agency CRM before relying on it'),
		}),
	]);
});

test('a reason over 64 characters is sent as given, with a notice of what Agency CRM keeps', async () => {
	const reason = 'Signed at the agency on 2026-11-20 in front of the agent, then confirmed by phone';
	const { fake } = await run(
		[status(204, {}, ''), readBack({ ...recorded, reason: reason.slice(0, 64) })],
		consentSet(reason),
	);
	expect(formOf(fake.calls[0].body).reason).toBe(reason);
	expect(fake.hints.map((hint) => hint.message)).toEqual([
		`"Reason" has ${reason.length} characters: Agency CRM keeps the first 64 ("${reason.slice(0, 64)}"), as production cuts a longer reason (item 0).`,
	]);
});
