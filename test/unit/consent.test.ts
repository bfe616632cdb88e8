import type { NodeOperationError } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';
import { failureOf } from '../support/failures';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 35, point 4, and issue 39, point 2: Consent → Set is confirmed only by the read-back, as
 * production's lead router confirms it (a consent there, not revoked); a consent absent or revoked is
 * "written but not confirmed": the item fails naming what the read-back showed. And a reason over 64
 * characters is sent as given, with a notice: production cuts it (issue 32, point 5).
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
	expect(output).toEqual([{ customers_id: 42, consent: recorded, confirmed: true, date_confirmed: true }]);
});

/**
 * Issue 39, point 2: confirmed as production's client confirms it, present and not revoked. The date
 * is compared only where the read-back's form carries an offset; otherwise the output says so.
 */
describe('a consent read back present and not revoked is confirmed, whatever its date says', () => {
	test.each([
		[
			'in snake_case, with the date in Z',
			{ reason: 'Signed form', consent_date: '2026-05-01T08:00:00Z', revoked_at: null },
		],
		['with the date in another zone', { ...recorded, consentDate: '2026-05-01T10:00:00+02:00' }],
		['with the date to the millisecond', { ...recorded, consentDate: '2026-05-01T08:00:00.000+00:00' }],
		['with the date to the minute', { ...recorded, consentDate: '2026-05-01T10:00+02:00' }],
		['with an offset written +0200', { ...recorded, consentDate: '2026-05-01T10:00:00+0200' }],
		['with an offset in hours alone', { ...recorded, consentDate: '2026-05-01T10:00:00+02' }],
		['with spaces around the date', { ...recorded, consentDate: ' 2026-05-01T08:00:00Z ' }],
		['with a space before its offset', { ...recorded, consentDate: '2026-05-01T10:00:00 +02:00' }],
		['with two spaces before its offset', { ...recorded, consentDate: '2026-05-01T10:00:00  +02:00' }],
		['with a space before an offset written +0200', { ...recorded, consentDate: '2026-05-01T10:00:00 +0200' }],
		['with a space before an offset in hours alone', { ...recorded, consentDate: '2026-05-01T10:00:00 +02' }],
	])('%s: the date sent, confirmed', async (_form, consent) => {
		const { output } = await run([status(204, {}, ''), readBack(consent)]);
		expect(output).toEqual([{ customers_id: 42, consent, confirmed: true, date_confirmed: true }]);
	});

	const notComparable = (read: string) =>
		`The consent's date read back, "${read}", carries no offset: which moment it names is not shown, so it is not compared with the date sent`;
	test.each([
		[
			'another date, with an offset',
			'2025-01-01T00:00:00+00:00',
			'The consent read back is dated 2025-01-01T00:00:00+00:00, not as sent',
		],
		['a local date and time, no offset', '2026-05-01 10:00:00', notComparable('2026-05-01 10:00:00')],
		['an ISO date and time without offset', '2026-05-01T08:00:00', notComparable('2026-05-01T08:00:00')],
		['a date only', '2026-05-01', notComparable('2026-05-01')],
		['an offset followed by more text', '2026-05-01T08:00:00Z (UTC)', notComparable('2026-05-01T08:00:00Z (UTC)')],
		['a number', 1777622400, notComparable('1777622400')],
		['a list holding a date', ['2026-05-01T08:00:00Z'], notComparable('2026-05-01T08:00:00Z')],
		['an offset inside, text after', '2026-05-01T08:00:00 Z (UTC)', notComparable('2026-05-01T08:00:00 Z (UTC)')],
		['no date', null, 'The consent read back has no date'],
		['an empty date', '', 'The consent read back has no date'],
	])('%s: confirmed, the output saying the date is not, with both values', async (_form, date, note) => {
		const consent = { ...recorded, consentDate: date };
		const { output } = await run([status(204, {}, ''), readBack(consent)]);
		expect(output).toEqual([
			{
				customers_id: 42,
				consent,
				confirmed: true,
				date_confirmed: false,
				date_sent: SENT_DATE,
				date_read_back: date,
				date_note: note,
			},
		]);
	});
});

test.each([
	['no consent', null, 'shows no consent'],
	['a consent that is not a record', 'given', 'shows no consent'],
	[
		'a revoked consent',
		{ ...recorded, revokedAt: '2026-05-02T09:00:00+00:00' },
		'shows it revoked (2026-05-02T09:00:00+00:00)',
	],
	[
		'a revoked consent in snake_case',
		{ reason: 'Signed form', revoked_at: '2026-05-02' },
		'shows it revoked (2026-05-02)',
	],
])('read back with %s: the item fails, saying what the read-back showed', async (_case, consent, shown) => {
	const fake = fakeContext({ parameters: consentSet(), answers: [status(204, {}, ''), readBack(consent)] });
	const error = await failureOf<NodeOperationError>(route.call(fake.execute));
	expect(error.message).toBe(
		`The API accepted the consent (HTTP 204), but reading the record back ${shown}: written but not confirmed`,
	);
	expect(error.description).toContain(`The read-back's consent: ${JSON.stringify(consent)}`);
});

test('a revoked consent with Continue On Fail: the item says so, as data', async () => {
	const revoked = { ...recorded, revokedAt: '2026-05-02T09:00:00+00:00' };
	const { output } = await run([status(204, {}, ''), readBack(revoked)], consentSet(), true);
	expect(output).toEqual([
		expect.objectContaining({
			error:
				'The API accepted the consent (HTTP 204), but reading the record back shows it revoked (2026-05-02T09:00:00+00:00): written but not confirmed',
		}),
	]);
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
			// Nothing was read back, so nothing of it is quoted.
			description: 'Check it in Agency CRM before relying on it, and run the item again to send it again.',
		}),
	]);
});

test.each([
	['a short reason', 'Signed form'],
	['a reason of exactly 64 characters', 'S'.repeat(64)],
])('%s is sent as given, with no notice', async (_case, reason) => {
	const { fake } = await run([status(204, {}, ''), readBack({ ...recorded, reason })], consentSet(reason));
	expect(formOf(fake.calls[0].body).reason).toBe(reason);
	expect(fake.hints).toEqual([]);
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
