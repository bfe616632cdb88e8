import type { IDataObject } from 'n8n-workflow';

import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { toApiRequest } from '../../nodes/AgencyCrm/actions/runEndpoint';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import { byId } from '../../tools/n8n/workflows';
import { parseMultipart } from '../../sandbox/multipart';
import { fakeContext } from '../support/fakeN8n';
import { png } from '../support/fixtures/images';

/** prepareRequest with parameters from a plain object, in the fake's workflow time zone, Paris. */
async function prepare(resource: string, operation: string, parameters: IDataObject) {
	return await prepareRequest(fakeContext({ parameters }).execute, findEndpoint(resource, operation)!, 0);
}

async function problems(resource: string, operation: string, parameters: IDataObject) {
	const error = await prepare(resource, operation, parameters).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(InputError);
	return (error as InputError).problems.map(({ field, message }) => ({ field, message }));
}

test('a date picked without a zone is in the workflow time zone, sent as UTC', async () => {
	const request = await prepare('action', 'createForCustomer', {
		customerId: byId('10003'),
		actionTypeId: 1,
		additionalFields: { date: '2026-07-01T09:30:00' },
	});
	expect(request.body).toEqual({ action_id: 1, date_performed: '2026-07-01T07:30:00Z' });
});

test('ids the spec types as integers refuse 1e3, 0x10 or text, naming the field', async () => {
	for (const value of ['1e3', '0x10', 'abc']) {
		expect(await problems('webhook', 'delete', { hookId: value })).toEqual([
			{ field: '"Webhook ID" (hook_id)', message: 'must be a whole-number ID' },
		]);
		expect(await problems('agency', 'get', { agencyId: byId(value) })).toEqual([
			{ field: '"Agency" (agency_id)', message: 'must be a whole-number ID' },
		]);
	}
});

test('other ids go as one encoded segment; "/", "\\", "." and ".." are refused before sending (issue 17, point 9)', async () => {
	const request = await prepare('customer', 'get', { customerId: byId('C-12 34?'), options: {} });
	expect(request.path).toBe('/customers/C-12%2034%3F');
	for (const value of ['.', '..', ' .. ']) {
		expect(await problems('customer', 'get', { customerId: byId(value), options: {} })).toEqual([
			{ field: '"Contact" (customers_id)', message: 'cannot be "." or ".."' },
		]);
	}
	for (const value of ['../hooks', 'C-12/34', 'a\\b']) {
		expect(await problems('customer', 'get', { customerId: byId(value), options: {} })).toEqual([
			{ field: '"Contact" (customers_id)', message: 'cannot contain "/" or "\\"' },
		]);
	}
	expect(await problems('customer', 'get', { customerId: byId(''), options: {} })).toEqual([
		{ field: '"Contact" (customers_id)', message: 'is required' },
	]);
});

test('a rule the spec states holds for a value given in the extra JSON too (password on user update)', async () => {
	expect(
		await problems('user', 'update', {
			userId: byId('1004'),
			additionalFields: { extraBodyJson: '{"password":"short"}' },
		}),
	).toEqual([
		{
			field: '"Extra Body Fields (JSON)" (password)',
			message: expect.stringMatching(/^must be 12 to 40 characters with an uppercase letter/),
		},
	]);
});

test('invalid extra JSON is reported by position, without echoing the text', async () => {
	const [problem] = await problems('user', 'update', {
		userId: byId('1004'),
		additionalFields: { extraBodyJson: '{"password": Secret-Value-1!}' },
	});
	expect(problem.field).toBe('"Extra Body Fields (JSON)"');
	expect(problem.message).toMatch(/^must be valid JSON( \(error at character \d+\))?$/);
	expect(problem.message).not.toContain('Secret');
});

test('Limit is checked before any request; a Page Size above the largest page is asked as it, with a notice', async () => {
	expect(await problems('customer', 'getAll', { returnAll: false, limit: 0, filters: {}, options: {} })).toEqual([
		{ field: '"Limit"', message: 'must be at least 1' },
	]);
	// Production's reference caps per_page at 200 everywhere; the spec says so of the agency list.
	for (const resource of ['customer', 'agency']) {
		const request = await prepare(resource, 'getAll', { returnAll: true, filters: {}, options: { perPage: 500 } });
		expect(request.pageSize).toBe(200);
		expect(request.hints).toEqual([]);
		expect(request.notices).toEqual([
			'"Page Size" 500 is more than the 200 records a page of this list holds at most: pages of 200 were asked for',
		]);
	}
	const unchosen = await prepare('customer', 'getAll', { returnAll: true, filters: {}, options: {} });
	expect(unchosen).toMatchObject({ pageSize: 200, notices: [] });
	const chosen = await prepare('customer', 'getAll', { returnAll: true, filters: {}, options: { perPage: 30 } });
	expect(chosen).toMatchObject({ pageSize: 30, notices: [] });
});

test('a guess only hints: an email that does not look like one is sent as typed', async () => {
	const request = await prepare('customer', 'create', {
		agencyId: byId('101'),
		lastname: 'Durand',
		additionalFields: { email: 'durand-at-example' },
	});
	expect(request.body.email).toBe('durand-at-example');
	expect(request.hints).toEqual([
		expect.objectContaining({ field: '"Email" (email)', message: 'does not look like an email address' }),
	]);
});

// Issue 39, point 7: an email is judged as it is matched, trimmed; spaces around it and capitals are fine.
test.each([
	['create', {}],
	['upsert', {}],
	['update', { customerId: byId('10003') }],
])('Contact %s: an email valid once trimmed, in capitals, gives no hint', async (operation, parameters) => {
	const email = '  Anne.Martin@Example.COM ';
	const request = await prepare('customer', operation, {
		agencyId: byId('101'),
		lastname: 'Martin',
		email,
		additionalFields: { email },
		...parameters,
	});
	expect(request.hints).toEqual([]);
});

test('an email-only contact can be created: neither last name nor agency is required', async () => {
	const request = await prepare('customer', 'create', {
		agencyId: byId(''),
		lastname: '',
		additionalFields: { email: 'lea@example.com' },
	});
	expect(request.body).toEqual({ email: 'lea@example.com' });
	expect(request.hints).toEqual([]);
});

test('an update that names no field is refused; clearing a webhook field sends null', async () => {
	expect(await problems('customer', 'update', { customerId: byId('10003'), additionalFields: {} })).toEqual([
		{ field: '"Additional Fields"', message: 'names nothing to change: set at least one field' },
	]);
	const cleared = await prepare('webhook', 'update', {
		hookId: '12',
		additionalFields: { clearFields: ['headers', 'auth_id'] },
	});
	expect(cleared.body).toEqual({ headers: null, auth_id: null });
	const viaJson = await prepare('webhook', 'update', {
		hookId: '12',
		additionalFields: { extraBodyJson: '{"format": null}' },
	});
	expect(viaJson.body).toEqual({ format: null });
});

describe('issue 17, point 5: a per_page in the extra query or body of a list is honoured, or refused', () => {
	const search = (options: IDataObject) => ({ returnAll: true, filters: {}, options });

	test('honoured as the page size, and taken out of the extras (the node sends it on every page)', async () => {
		const fromQuery = await prepare('customer', 'getAll', search({ extraQueryJson: '{"per_page": 30, "lang": "fr"}' }));
		expect(fromQuery).toMatchObject({ pageSize: 30, qs: { lang: 'fr' } });
		expect(fromQuery.qs).not.toHaveProperty('per_page');
		// Product search's page size is production's `count`.
		const fromBody = await prepare('product', 'getAll', search({ extraBodyJson: '{"count": "25"}' }));
		expect(fromBody.pageSize).toBe(25);
		expect(fromBody.body).not.toHaveProperty('count');
	});

	test('refused before sending when it contradicts Page Size, or is not a page size', async () => {
		expect(await problems('customer', 'getAll', search({ perPage: 100, extraQueryJson: '{"per_page": 30}' }))).toEqual([
			{
				field: '"Extra Query Parameters (JSON)" (per_page)',
				message: 'sets per_page to 30 while "Page Size" sets 100: keep one',
			},
		]);
		expect(await problems('customer', 'getAll', search({ extraBodyJson: '{"per_page": "all"}' }))).toEqual([
			{ field: '"Extra Body Fields (JSON)" (per_page)', message: 'must be a whole number' },
		]);
		const same = await prepare('customer', 'getAll', search({ perPage: 30, extraBodyJson: '{"per_page": 30}' }));
		expect(same.pageSize).toBe(30);
	});
});

describe('issue 17, point 9: a file whose bytes contradict its image type is refused where a spec rule applies', () => {
	const text = { data: Buffer.from('not an image at all'), fileName: 'photo.png', mimeType: 'image/png' };
	const avif = { data: Buffer.from('....ftypavif'), fileName: 'photo.avif', mimeType: 'image/avif' };
	const upload = (file: typeof text) =>
		prepareRequest(
			fakeContext({
				itemParameters: [{ productId: byId(5001), binaryPropertyName: 'data', additionalFields: {} }],
				binaries: [{ data: file }],
			}).execute,
			findEndpoint('product', 'uploadPublicPicture')!,
			0,
		);

	test('text labelled image/png: refused, naming the field and what it is', async () => {
		const error = (await upload(text).catch((thrown: unknown) => thrown)) as InputError;
		expect(error.problems.map(({ field, message }) => ({ field, message }))).toEqual([
			{
				field: '"Input Binary Field" (file)',
				message: 'must be an image; "photo.png" is labelled image/png but its content is not a PNG image',
			},
		]);
	});

	test('a format the node cannot read: sent, with a hint', async () => {
		const request = await upload(avif);
		expect(request.files).toHaveLength(1);
		expect(request.hints).toEqual([
			expect.objectContaining({
				field: '"Input Binary Field" (file)',
				message: 'is image/avif, a format the node cannot read: its width and type are left to the API',
			}),
		]);
	});
});

describe("issue 26: the consent as production takes it; a picture's part name an option, its default the guess", () => {
	const proof = { data: Buffer.from('%PDF-1.4 signed form'), fileName: 'form.pdf', mimeType: 'application/pdf' };
	const recording = { data: Buffer.from('ID3'), fileName: 'call.mp3', mimeType: 'audio/mpeg' };
	const consent = (reason: string, additionalFields: IDataObject) =>
		prepareRequest(
			fakeContext({
				itemParameters: [{ customerId: byId(10003), reason, additionalFields }],
				binaries: [{ data: proof, call: recording }],
			}).execute,
			findEndpoint('consent', 'set')!,
			0,
		);

	test('a form with the reason, the date in +00:00, outside hours as 1, and every proof under proofs[]', async () => {
		const request = await consent('Signed form', {
			proofBinaryPropertyName: 'data, call',
			collectedAt: '2026-05-01T10:00:00.000+02:00',
			acceptOutsideHours: true,
		});
		expect(request.body).toEqual({
			reason: 'Signed form',
			consent_date: '2026-05-01T08:00:00+00:00',
			accept_outside_hours: 1,
		});
		const sent = toApiRequest(findEndpoint('consent', 'set')!, request, 0);
		const type = String((sent.headers as IDataObject)['Content-Type']);
		const parts = parseMultipart(sent.body as Buffer, type);
		expect(parts.map((part) => [part.name, part.filename ?? part.data.toString()])).toEqual([
			['reason', 'Signed form'],
			['consent_date', '2026-05-01T08:00:00+00:00'],
			['accept_outside_hours', '1'],
			['proofs[]', 'form.pdf'],
			['proofs[]', 'call.mp3'],
		]);
	});

	test.each([
		['an email header (RFC 2822)', 'Fri, 01 May 2026 10:00:00 +0200'],
		["SQL's form, in the workflow's zone (Paris)", '2026-05-01 10:00:00'],
		['a Unix time in seconds', 1777622400],
		['a Unix time in milliseconds', 1777622400000],
	])('any date a user gives: %s, sent as +00:00', async (_form, collectedAt) => {
		const request = await consent('Signed form', { collectedAt });
		expect(request.body.consent_date).toBe('2026-05-01T08:00:00+00:00');
	});

	test("a consent without a date is dated now, as production's clients always send one", async () => {
		const request = await consent('Signed form', {});
		expect(request.body.consent_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
	});

	test('a date the node cannot read is refused before sending, naming the field; a reason over 64 characters is not (production cuts it)', async () => {
		const error = await consent('x'.repeat(65), { collectedAt: 'next tuesday' }).catch((thrown: unknown) => thrown);
		expect((error as InputError).problems).toEqual([
			expect.objectContaining({ field: '"Consent Date" (consent_date)' }),
		]);
		const long = await consent('x'.repeat(65), {});
		expect(long.body.reason).toBe('x'.repeat(65));
		expect(long.notices).toEqual([
			expect.stringContaining('"Reason" has 65 characters: Agency CRM keeps the first 64'),
		]);
	});

	test('a proof field the item does not have is refused, naming it', async () => {
		const error = await consent('Signed form', { proofBinaryPropertyName: 'data, scan' }).catch(
			(thrown: unknown) => thrown,
		);
		expect((error as InputError).message).toContain('names the binary field "scan", which this item does not have');
	});

	test('a product picture goes under "file" by default, under the name chosen in Picture Sent As otherwise', async () => {
		const picture = (additionalFields: IDataObject) =>
			prepareRequest(
				fakeContext({
					itemParameters: [{ productId: byId(5002), binaryPropertyName: 'data', additionalFields }],
					binaries: [{ data: { data: png(1200, 800), fileName: 'living-room.png', mimeType: 'image/png' } }],
				}).execute,
				findEndpoint('product', 'uploadPublicPicture')!,
				0,
			);
		const partsOf = async (additionalFields: IDataObject) => {
			const sent = toApiRequest(findEndpoint('product', 'uploadPublicPicture')!, await picture(additionalFields), 0);
			const type = String((sent.headers as IDataObject)['Content-Type']);
			return parseMultipart(sent.body as Buffer, type).map((part) => [part.name, part.filename]);
		};
		expect(await partsOf({ title: 'Salon' })).toEqual([
			['title', undefined],
			['file', 'living-room.png'],
		]);
		expect(await partsOf({ title: 'Salon', uploadPartName: 'photo' })).toEqual([
			['title', undefined],
			['photo', 'living-room.png'],
		]);
	});
});
