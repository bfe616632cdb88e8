import { png } from '../support/fixtures/images';
import { eventually, Harness, useSandbox } from '../support/sandbox/harness';
import { REFUSAL_REASON, UNAVAILABLE_BODY, useReceiver } from '../support/sandbox/receiver';

/**
 * The sandbox console (sandbox/console), driven as a browser would: its pages read with GET, its
 * forms posted URL-encoded or multipart. What they change is read back through the API and the
 * admin routes, and the webhook events they send are those the API sends for the same change.
 */
// Production's 10 s to answer (a busy machine must not turn a delivery into a retry); one retry, a minute later:
// a failed delivery shows when it is due, and no retry comes during the tests.
const h = useSandbox({ deliveryTimeoutMs: 10_000, deliveryRetryDelaysMs: [60_000] });
const receiver = useReceiver();
afterEach(async () => {
	await h.deleteAllHooks();
	receiver.clear();
});

const url = (path: string, origin = h.sandbox.origin) => `${origin}${path}`;

async function open(path: string, origin?: string): Promise<{ status: number; text: string }> {
	const response = await fetch(url(path, origin));
	return { status: response.status, text: await response.text() };
}

/** Posts a form; an accepted one redirects (303) to a page whose notice says what happened. */
async function submit(path: string, fields: Record<string, string> | FormData, origin?: string) {
	const body = fields instanceof FormData ? fields : new URLSearchParams(fields);
	const response = await fetch(url(path, origin), { method: 'POST', body, redirect: 'manual' });
	const location = response.headers.get('location') ?? '';
	return {
		status: response.status,
		location,
		notice: new URL(location || '/', 'http://console').searchParams.get('notice') ?? '',
		text: await response.text(),
	};
}

/** Posts a form the console must refuse: 422, the form shown again with each problem named. */
async function expectRefused(path: string, fields: Record<string, string>, problems: string[]) {
	const { status, text } = await submit(path, fields);
	expect(status).toBe(422);
	for (const problem of problems) expect(text).toContain(problem);
	return text;
}

async function subscribe(path: string, origines: string[]) {
	const result = await h.api('POST', '/hooks', { body: { url: receiver.url(path), origines } });
	expect(result.status).toBe(201);
	return result.body.data as { id: number };
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" };

/** The text of each cell of each body row of a page's table, tags removed and spaces collapsed. */
function rows(page: string, tableId: string): string[][] {
	const table = page.slice(page.indexOf(`<table id="${tableId}"`));
	const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
	return body
		.split(/<tr[\s>]/)
		.slice(1)
		.map((row) =>
			[...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) =>
				cell
					.replace(/<[^>]+>/g, ' ')
					.replace(/\s+/g, ' ')
					.replace(/&(quot|amp|lt|gt|#39);/g, (_, name: string) => ENTITIES[name])
					.trim(),
			),
		);
}

const deliveries = async () =>
	(await h.admin('GET', '/deliveries?limit=2000')).body.data as Array<Record<string, unknown>>;

const record = async (kind: string, id: number | string) => (await h.admin('GET', `/records/${kind}/${id}`)).body.data;

test('/console opens the contacts; lists are searchable and show the newest first', async () => {
	const start = await fetch(url('/console'), { redirect: 'manual' });
	expect(start.status).toBe(303);
	expect(start.headers.get('location')).toBe('/console/contacts');

	const contacts = await open('/console/contacts?site=1');
	expect(contacts.status).toBe(200);
	expect(contacts.text).toContain('120 contacts');
	const ids = rows(contacts.text, 'contacts').map(([id]) => Number(id));
	expect(ids).toHaveLength(50);
	expect(ids.slice(0, 3)).toEqual([10120, 10119, 10118]);

	const customer = (await h.api('GET', '/customers/10042')).body.data;
	const found = await open(`/console/contacts?site=1&q=${encodeURIComponent(customer.email)}`);
	expect(rows(found.text, 'contacts')).toEqual([
		expect.arrayContaining(['10042', `${customer.firstname} ${customer.lastname}`, customer.email]),
	]);

	const product = (await h.api('GET', '/products/5007')).body.data;
	const properties = await open(`/console/properties?site=1&q=${product.model}`);
	expect(rows(properties.text, 'properties')).toEqual([expect.arrayContaining(['5007', product.model])]);
	expect(rows((await open('/console/properties?site=2')).text, 'properties')).toHaveLength(10);
	expect((await open('/console/contacts?site=9')).status).toBe(404);
});

test('a website lead becomes a contact with its origin, consent and message, and sends CUSTOMER_CREATE; the same e-mail again sends CUSTOMER_UPDATE', async () => {
	const hook = await subscribe('/ok', ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE']);
	const lead = {
		site: '1',
		firstname: 'Léa',
		lastname: 'Console',
		email: 'lea.console@example.net',
		phone: '',
		agency_id: '102',
		origin_id: '1',
		transaction_type: 'sale',
		comment: 'Bonjour, le bien VA5005 est-il disponible ?',
	};
	const created = await submit('/console/contacts', lead);
	expect(created.status).toBe(303);
	const id = Number(/^\/console\/contacts\/(\d+)/.exec(created.location)?.[1]);
	expect(id).toBeGreaterThan(10120);
	expect(created.notice).toBe(
		`Lead received: contact ${id} created. CUSTOMER_CREATE sent to webhook ${hook.id} (Webhooks shows each delivery).`,
	);

	const customer = (await h.api('GET', `/customers/${id}?include=consent,origin`)).body.data;
	expect(customer).toMatchObject({
		firstname: 'Léa',
		lastname: 'Console',
		email: 'lea.console@example.net',
		agency_id: 102,
		origin: { id: 1 },
		type: 'buyer',
		consent: { reason: 'Agency website (sandbox console) - Sale - Search', revokedAt: null },
	});
	const history = (await h.api('GET', `/customers/${id}/actions`)).body.data;
	expect(history).toEqual([expect.objectContaining({ action_id: 9, result: lead.comment })]);
	await eventually('delivery 1 at the receiver', async () => receiver.at('/ok').length === 1);
	expect(receiver.at('/ok')[0].body).toMatchObject({ event_type: 'CUSTOMER_CREATE', resource_id: id });

	const page = await open(created.location);
	expect(page.text).toContain(`Contact ${id}: Léa Console`);
	expect(page.text).toContain('Bonjour, le bien VA5005 est-il disponible ?');

	const again = await submit('/console/contacts', { ...lead, firstname: 'Léa-Marie', comment: 'Toujours intéressée.' });
	expect(again.location).toMatch(new RegExp(`^/console/contacts/${id}\\?`));
	expect(again.notice).toContain(`it matches contact ${id}`);
	await eventually('delivery 2 at the receiver', async () => receiver.at('/ok').length === 2);
	expect(receiver.at('/ok')[1].body).toMatchObject({ event_type: 'CUSTOMER_UPDATE', resource_id: id });
});

test('a form the API would refuse is shown again with each problem named by its label; nothing is written or sent', async () => {
	await subscribe('/ok', ['CUSTOMER_CREATE']);
	const contactsBefore = (await h.admin('GET', '/duplicate-contacts')).body.data.customers;
	const refused = await expectRefused(
		'/console/contacts',
		{
			site: '1',
			firstname: '',
			lastname: '',
			email: 'not-an-email',
			agency_id: '201',
			origin_id: '1',
			transaction_type: 'sale',
			comment: '',
		},
		['E-mail: must be an email address', 'Agency: is not an agency of site 1'],
	);
	expect(refused).toContain('value="not-an-email"');
	expect((await h.admin('GET', '/duplicate-contacts')).body.data.customers).toBe(contactsBefore);

	await expectRefused(
		'/console/properties/5003',
		{ model: 'VA5003', price: 'cheap', surface: '', rooms: '', status: 'EnCours', city: '', postal_code: '' },
		['Price: must be a number'],
	);
	await expectRefused('/console/properties/5003/criteria', { criterion_id: '9', value: 'Z' }, [
		'Criterion DPE: &quot;Z&quot; is not a value of DPE; its codes are A, B, C, D, E, F, G',
	]);
	await new Promise((resolve) => setTimeout(resolve, 200));
	expect(receiver.received).toEqual([]);
});

test('editing a contact sends CUSTOMER_UPDATE; editing a listing or one of its criteria PRODUCT_UPDATE; a picture nothing', async () => {
	await subscribe('/ok', ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE']);
	const edited = await submit('/console/contacts/10005', {
		firstname: 'Edited',
		lastname: 'In The Console',
		email: 'edited.console@example.net',
		phone: '',
		mobile_phone: '',
		type: 'seller',
		origin_id: '4',
		agency_id: '101',
		user_id: '1001',
	});
	expect(edited.status).toBe(303);
	expect(await record('customer', 10005)).toMatchObject({
		firstname: 'Edited',
		lastname: 'In The Console',
		email: 'edited.console@example.net',
		phone: null,
		type: 'seller',
		origin_id: 4,
		user_id: 1001,
	});
	await eventually('delivery 1 at the receiver', async () => receiver.at('/ok').length === 1);
	expect(receiver.at('/ok')[0].body).toMatchObject({ event_type: 'CUSTOMER_UPDATE', resource_id: 10005 });

	const product = (await h.api('GET', '/products/5004')).body.data;
	const repriced = await submit('/console/properties/5004', {
		model: product.model,
		price: '312000',
		surface: '',
		rooms: '',
		status: 'SousOffre',
		city: '',
		postal_code: '',
	});
	expect(repriced.notice).toMatch(/^Listing saved\. PRODUCT_UPDATE sent to webhook \d+/);
	const repricedCriteria = (await record('product', 5004)).criteria as Array<{ id: number; value: unknown }>;
	expect(repricedCriteria).toEqual(
		expect.arrayContaining([
			{ id: 1, value: 312000 },
			{ id: 21, value: 'SousOffre' },
		]),
	);
	await eventually('delivery 2 at the receiver', async () => receiver.at('/ok').length === 2);
	expect(receiver.at('/ok')[1].body).toMatchObject({ event_type: 'PRODUCT_UPDATE', resource_id: 5004 });

	await submit('/console/properties/5004/criteria', { criterion_id: '9', value: 'B' });
	await submit('/console/properties/5004/criteria', { criterion_id: '30', value: 'Villeurbanne, CaluireetCuire' });
	const criteria = (await record('product', 5004)).criteria as Array<{ id: number; value: unknown }>;
	expect(criteria.find((criterion) => criterion.id === 9)?.value).toBe('B');
	expect(criteria.find((criterion) => criterion.id === 30)?.value).toEqual(['Villeurbanne', 'CaluireetCuire']);
	await eventually('delivery 4 at the receiver', async () => receiver.at('/ok').length === 4);

	const generated = await submit(
		'/console/properties/5004/pictures',
		(() => {
			const form = new FormData();
			form.set('file', new Blob([]), '');
			form.set('title', 'Façade');
			form.set('is_public', 'true');
			return form;
		})(),
	);
	expect(generated.notice).toMatch(
		/^Picture \d+ added \(1200×800\)\. As through the API, a picture upload sends no webhook event\.$/,
	);
	const narrow = new FormData();
	narrow.set('file', new Blob([new Uint8Array(png(640, 480))], { type: 'image/png' }), 'narrow.png');
	const refused = await submit('/console/properties/5004/pictures', narrow);
	expect(refused.status).toBe(422);
	expect(refused.text).toContain('Picture: must be at least 800 px wide (got 640 px)');
	const pictures = (await h.api('GET', '/products/5004?fetch=products_photos')).body.data.products_photos;
	expect(pictures.map((picture: { title: string; width: number }) => [picture.title, picture.width])).toContainEqual([
		'Façade',
		1200,
	]);
	await new Promise((resolve) => setTimeout(resolve, 200));
	expect(receiver.at('/ok')).toHaveLength(4);
});

test('the webhooks page shows each delivery with its status, acknowledgement time and the error answer; a delivery can be resent', async () => {
	const failing = await subscribe('/unavailable', ['PRODUCT_UPDATE']);
	const working = await subscribe('/ok', ['PRODUCT_UPDATE']);
	await h.admin('POST', '/simulate-edit', {
		resource: 'product',
		action: 'update',
		id: 5010,
		changes: { criteria: [{ id: 'NbPieces', value: 4 }] },
	});
	await eventually(
		'both deliveries of 5010',
		async () => (await deliveries()).filter((entry) => entry.resource_id === 5010).length === 2,
	);

	const page = await open('/console/webhooks?site=1');
	const shown = rows(page.text, 'deliveries').filter((row) => row[1] === 'PRODUCT_UPDATE' && row[2] === '5010');
	// Sent, event, resource, hook, URL, HTTP status, acknowledged in, outcome, error.
	expect(shown).toEqual(
		expect.arrayContaining([
			[
				expect.any(String),
				'PRODUCT_UPDATE',
				'5010',
				String(working.id),
				receiver.url('/ok'),
				'200',
				expect.stringMatching(/^[\d.]+ ms$/),
				'delivered',
				'',
				'Resend',
			],
			[
				expect.any(String),
				'PRODUCT_UPDATE',
				'5010',
				String(failing.id),
				receiver.url('/unavailable'),
				'503',
				expect.stringMatching(/^[\d.]+ ms$/),
				expect.stringMatching(/^failed; retry at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/),
				`receiver answered 503, not 200 ${UNAVAILABLE_BODY}`,
				'Resend',
			],
		]),
	);
	expect(shown).toHaveLength(2);

	const [delivered] = (await deliveries()).filter((entry) => entry.hook_id === working.id);
	expect(delivered).toMatchObject({ response_body: null, resent: false });
	const [failed] = (await deliveries()).filter((entry) => entry.hook_id === failing.id);
	expect(failed).toMatchObject({ status: 503, response_body: UNAVAILABLE_BODY });

	const resent = await submit(`/console/deliveries/${delivered.delivery_id as string}/resend`, {});
	expect(resent.notice).toMatch(
		new RegExp(
			`^PRODUCT_UPDATE 5010 resent to webhook ${working.id} as delivery [0-9a-f-]{36}: HTTP 200 in [\\d.]+ ms, delivered\\.`,
		),
	);
	const [original, repeated] = receiver.at('/ok').map((delivery) => delivery.body);
	expect(original).toEqual({ event_type: 'PRODUCT_UPDATE', resource_id: 5010 });
	expect(repeated).toEqual(original);
	const again = (await deliveries()).filter((entry) => entry.hook_id === working.id);
	expect(again.map((entry) => entry.resent)).toEqual([false, true]);
});

test('a refused record shows as errored with the reason on its page; a listing can be deleted (PRODUCT_DELETE)', async () => {
	const refusing = await subscribe('/refuse', ['CUSTOMER_UPDATE']);
	const listening = await subscribe('/ok', ['PRODUCT_DELETE']);
	await submit('/console/contacts/10004', {
		firstname: 'Refused',
		lastname: 'Contact',
		email: '',
		phone: '',
		mobile_phone: '',
		type: 'buyer',
		origin_id: '',
		agency_id: '101',
		user_id: '',
	});
	await eventually('the refusal', async () => (await deliveries()).some((entry) => entry.outcome === 'rejected'));
	const contact = await open('/console/contacts/10004');
	expect(contact.text).toContain(`Errored: webhook ${refusing.id} refused its CUSTOMER_UPDATE delivery on`);
	expect(contact.text).toContain(`(HTTP 422): “${REFUSAL_REASON}”`);
	expect((await open('/console/contacts/10005')).text).not.toContain('Errored:');
	const refusals = rows((await open('/console/webhooks?site=1')).text, 'deliveries').filter(
		(row) => row[3] === String(refusing.id),
	);
	expect(refusals.map((row) => [row[5], row[7]])).toEqual([['422', 'rejected: record marked errored']]);

	const { model } = (await record('product', 5020)) as { model: string };
	const deleted = await submit('/console/properties/5020/delete', {});
	expect(deleted.location).toMatch(/^\/console\/properties\?site=1&notice=/);
	expect(deleted.notice).toBe(
		`Listing 5020 (${model}) deleted. PRODUCT_DELETE sent to webhook ${listening.id} (Webhooks shows each delivery).`,
	);
	await eventually('the PRODUCT_DELETE delivery', async () => receiver.at('/ok').length === 1);
	expect(receiver.at('/ok')[0].body).toEqual({ event_type: 'PRODUCT_DELETE', resource_id: 5020 });
	expect((await h.api('GET', '/products/5020')).status).toBe(404);
	expect((await open('/console/properties/5020')).status).toBe(404);
});

test('the webhooks page shows the retry a failed delivery waits for, and the suspension its last retry caused', async () => {
	const quick = await Harness.start({ deliveryTimeoutMs: 1000, deliveryRetryDelaysMs: [50] });
	try {
		const hook = (
			await quick.api('POST', '/hooks', { body: { url: receiver.url('/fail'), origines: ['CUSTOMER_UPDATE'] } })
		).body.data as { id: number };
		await quick.admin('POST', '/simulate-edit', {
			resource: 'customer',
			action: 'update',
			id: 10002,
			changes: { stop_sms: true },
		});
		await eventually(
			'the suspension',
			async () => (await quick.admin('GET', '/hooks')).body.data[0].status === 'suspended',
		);
		const page = await open('/console/webhooks?site=1', quick.origin);
		expect(rows(page.text, 'hooks')[0]).toEqual(
			expect.arrayContaining([String(hook.id), receiver.url('/fail'), 'suspended', '2']),
		);
		expect(rows(page.text, 'deliveries').map((row) => [row[5], row[7]])).toEqual([
			['500', 'failed (retry 1); last retry: webhook suspended'],
			['500', expect.stringMatching(/^failed; retry at /)],
		]);
		expect(page.text.replace(/\s+/g, ' ')).toContain('is retried 1 time, after 0.05 s;');
	} finally {
		await quick.close();
	}
});

test('a hook can be suspended by hand, gets nothing while suspended, and comes back when its URL is updated', async () => {
	const hook = await subscribe('/ok', ['CUSTOMER_UPDATE']);
	const suspended = await submit(`/console/hooks/${hook.id}/suspend`, {});
	expect(suspended.notice).toBe(`Webhook ${hook.id} suspended: no delivery until its URL is updated.`);
	expect((await h.admin('GET', '/hooks')).body.data).toEqual([
		expect.objectContaining({ id: hook.id, status: 'suspended' }),
	]);
	await h.admin('POST', '/simulate-edit', {
		resource: 'customer',
		action: 'update',
		id: 10002,
		changes: { stop_sms: true },
	});
	const refused = await submit(`/console/hooks/${hook.id}`, { url: 'ftp://example.net/hook' });
	expect(refused.status).toBe(422);
	expect(refused.text).toContain(`URL of webhook ${hook.id}: must be an absolute http or https URL`);

	const reactivated = await submit(`/console/hooks/${hook.id}`, { url: receiver.url('/ok') });
	expect(reactivated.notice).toBe(`Webhook ${hook.id} now delivers to ${receiver.url('/ok')}: reactivated.`);
	expect(await record('hook', hook.id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
	await h.admin('POST', '/simulate-edit', {
		resource: 'customer',
		action: 'update',
		id: 10003,
		changes: { stop_sms: true },
	});
	await eventually('delivery 1 at the receiver', async () => receiver.at('/ok').length === 1);
	expect(receiver.at('/ok').map((delivery) => delivery.body.resource_id)).toEqual([10003]);
});

test('what the CRM holds is shown as text, never as markup', async () => {
	await submit('/console/contacts/10006', {
		firstname: '<script>alert(1)</script>',
		lastname: 'Escaped & "quoted"',
		email: '',
		phone: '',
		mobile_phone: '0612345678',
		type: 'buyer',
		origin_id: '',
		agency_id: '101',
		user_id: '',
	});
	const page = await open('/console/contacts/10006');
	expect(page.text).not.toContain('<script>alert(1)</script>');
	expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Escaped &amp; &quot;quoted&quot;');
});
