import { rejectionReason } from '../../sandbox/webhooks';

/**
 * Issue 35, point 9: production marks a record refused by a receiver's 422 as errored "with the reason
 * from the body" (the evidence names no key). The Agency CRM Answer node sends `{"reason": …}`; the
 * sandbox takes that form and the others a receiver may send: the body's text, `message`, `error`.
 */
test.each([
	['{"reason": …}, as the Answer node sends it', JSON.stringify({ reason: 'No e-mail address' })],
	['the body as plain text', 'No e-mail address'],
	['{"message": …}', JSON.stringify({ message: 'No e-mail address' })],
	['{"error": {"message": …}}', JSON.stringify({ error: { message: 'No e-mail address' } })],
])('a refusal whose reason is %s', (_form, body) => {
	expect(rejectionReason(body)).toBe('No e-mail address');
});

test('a refusal without a body says none was given', () => {
	expect(rejectionReason('')).toBe('(no reason given)');
	expect(rejectionReason(null)).toBe('(no reason given)');
});
