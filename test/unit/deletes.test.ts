import { route } from '../../nodes/AgencyCrm/actions/router';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { errorAnswer, fakeContext, ok, status } from '../support/fakeN8n';
import { failureOf } from '../support/failures';
import { byId } from '../../tools/n8n/workflows';

/**
 * Issue 35, point 6: a deletion the API carried out never fails its item. The record is looked at
 * first (read, or found in its list), but a read refused never blocks the deletion; a 404 to the
 * deletion sent again after a lost answer is that answer's removal, verified when the record was seen.
 */
async function run(parameters: Record<string, unknown>, answers: ScriptedAnswer[]) {
	const fake = fakeContext({ parameters, answers });
	const [items] = await route.call(fake.execute);
	return {
		output: items.map((item) => item.json),
		requests: fake.requests().map(({ method, url, qs }) => ({ method, url, qs })),
		hints: fake.hints.map((hint) => hint.message),
	};
}

const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const refused = () => errorAnswer(403, 'FORBIDDEN', 'The client lacks the right RS:USER_READ');
const gone = () => errorAnswer(404, 'NOT_FOUND', 'User not found');
const noContent = () => status(204, {}, '');
const NOT_VERIFIED = /sending it again was answered 404: taken as removed .* not verified/;

describe('a user (a record with a read of its own)', () => {
	const deleteUser = { resource: 'user', operation: 'delete', userId: byId(1007) };
	const read = { method: 'GET', url: '/users/1007', qs: undefined };
	const removal = { method: 'DELETE', url: '/users/1007', qs: undefined };

	test('a read refused (403) does not block the deletion, which the API judges', async () => {
		const { output, requests, hints } = await run(deleteUser, [refused(), noContent()]);
		expect(requests).toEqual([read, removal]);
		expect(output).toEqual([{ deleted: true }]);
		expect(hints).toEqual([]);
	});

	test('seen, then resent after a reset and answered 404: deleted, the removal of the lost attempt', async () => {
		const { output, requests, hints } = await run(deleteUser, [ok({ data: { user_id: 1007 } }), reset(), gone()]);
		expect(requests).toEqual([read, removal, removal]);
		expect(output).toEqual([{ deleted: true }]);
		expect(hints).toEqual([]);
	});

	test('not readable, then resent after a reset and answered 404: deleted, with a hint that it is not verified', async () => {
		const { output, requests, hints } = await run(deleteUser, [refused(), reset(), gone()]);
		expect(requests).toEqual([read, removal, removal]);
		expect(output).toEqual([{ deleted: true }]);
		expect(hints).toEqual([expect.stringMatching(NOT_VERIFIED)]);
	});

	test('a read answered 404 says the ID names nothing: the item fails and no deletion is sent', async () => {
		const fake = fakeContext({ parameters: deleteUser, answers: [gone()] });
		const error = await failureOf(route.call(fake.execute));
		expect(error.message).toBe('NOT_FOUND: User not found (HTTP 404)');
		expect(fake.routes()).toEqual(['GET /users/1007']);
	});
});

describe('a follow-up (no read of its own: found in its contact’s follow-ups)', () => {
	const deleteFollowUp = { resource: 'followUp', operation: 'delete', customerId: byId(10003), productId: byId(5003) };
	const list = { method: 'GET', url: '/customers/10003/follow-ups', qs: { per_page: 200 } };
	const removal = { method: 'DELETE', url: '/customers/10003/follow-ups/5003', qs: undefined };
	const followed = (...productIds: number[]) =>
		ok({
			data: productIds.map((id) => ({ customers_id: 10003, product_id: id })),
			meta: { next_cursor: null, has_more: false },
		});

	test('found in the list, then resent after a reset and answered 404: deleted, verified', async () => {
		const { output, requests, hints } = await run(deleteFollowUp, [followed(5001, 5003), reset(), gone()]);
		expect(requests).toEqual([list, removal, removal]);
		expect(output).toEqual([{ deleted: true }]);
		expect(hints).toEqual([]);
	});

	test('found on the second page of the list (paged by page number): the pages after it are not read', async () => {
		const firstPage = ok({
			data: [{ customers_id: 10003, product_id: 5001 }],
			meta: { current_page: 1, last_page: 3, per_page: 1, total: 3 },
		});
		const secondPage = ok({
			data: [{ customers_id: 10003, product_id: 5003 }],
			meta: { current_page: 2, last_page: 3, per_page: 1, total: 3 },
		});
		const { requests } = await run(deleteFollowUp, [firstPage, secondPage, noContent()]);
		expect(requests).toEqual([list, { ...list, qs: { per_page: 200, page: 2 } }, removal]);
	});

	test('not in the list, or the list refused: the deletion is sent all the same; a 404 after a reset is done, unverified', async () => {
		const absent = await run(deleteFollowUp, [followed(5001), reset(), gone()]);
		expect(absent.requests).toEqual([list, removal, removal]);
		expect(absent.output).toEqual([{ deleted: true }]);
		expect(absent.hints).toEqual([expect.stringMatching(NOT_VERIFIED)]);
		const unreadable = await run(deleteFollowUp, [refused(), noContent()]);
		expect(unreadable.requests).toEqual([list, removal]);
		expect(unreadable.output).toEqual([{ deleted: true }]);
	});
});

test('a consent’s revocation answered 404 after a reset is the contact missing, not a removal: the item fails', async () => {
	const fake = fakeContext({
		parameters: { resource: 'consent', operation: 'revoke', customerId: byId(10003) },
		answers: [reset(), errorAnswer(404, 'NOT_FOUND', 'Customer not found')],
	});
	const error = await failureOf(route.call(fake.execute));
	expect(error.message).toBe('NOT_FOUND: Customer not found (HTTP 404)');
	expect(fake.routes()).toEqual(['DELETE /customers/10003/consent', 'DELETE /customers/10003/consent']);
});

describe("a part of a record (a user's photo), from a review", () => {
	test('resent after a reset and answered 404: the 404 names a missing user, so the item fails', async () => {
		const parameters = { resource: 'user', operation: 'deletePhoto', userId: byId(1007), profilePicture: true };
		const fake = fakeContext({ parameters, answers: [reset(), gone()] });
		const error = await failureOf(route.call(fake.execute));
		expect(error.message).toContain('(HTTP 404)');
		// Nothing is read first: the photo has no read of its own.
		expect(fake.routes()).toEqual(['DELETE /users/1007/photo', 'DELETE /users/1007/photo']);
	});
});
