import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DATA_FORMAT } from '../../sandbox/persistence';
import { png } from '../support/fixtures/images';
import { eventually, Harness } from '../support/sandbox/harness';
import { REFUSAL_REASON, useReceiver } from '../support/sandbox/receiver';

/**
 * The sandbox's data kept in a file (`dataFile`, as `npm start` uses it): written as it changes,
 * read back by the next sandbox, ids never reused; an unreadable file is set aside, not lost.
 */
let folder: string;
const receiver = useReceiver();
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'agency-crm-data-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test('what the API, the admin routes and the deliveries change is saved as it changes and there at the next start', async () => {
	const file = path.join(folder, 'sandbox.json');
	// No retry: the failed delivery suspends its hook at once.
	const first = await Harness.start({ dataFile: file, deliveryRetryDelaysMs: [] });
	expect(first.sandbox.data).toEqual({ file, state: 'seeded' });

	const created = await first.api('POST', '/customers', { body: { lastname: 'Kept', email: 'kept@example.net' } });
	const customerId = created.body.data.customers_id as number;
	await first.api('POST', `/customers/${customerId}/follow-ups/5002`, { body: { rating: 4 } });
	await first.api('POST', `/customers/${customerId}/consent`, { body: { reason: 'Signed at the agency' } });
	const doomed = (
		await first.api('POST', '/hooks', { body: { url: receiver.url('/ok'), origines: ['PRODUCT_UPDATE'] } })
	).body.data.id as number;
	const failing = (
		await first.api('POST', '/hooks', { body: { url: receiver.url('/fail'), origines: ['PRODUCT_UPDATE'] } })
	).body.data.id as number;
	expect(failing).toBe(doomed + 1);
	await first.api('DELETE', `/hooks/${failing}`);
	const kept = (
		await first.api('POST', '/hooks', { body: { url: receiver.url('/fail'), origines: ['PRODUCT_UPDATE'] } })
	).body.data.id as number;
	await first.api('DELETE', `/hooks/${doomed}`);
	for (const rooms of [2, 3]) {
		await first.admin('POST', '/simulate-edit', {
			resource: 'product',
			action: 'update',
			id: 5001,
			changes: { criteria: [{ id: 'NbPieces', value: rooms }] },
		});
		await eventually('the suspension', async () =>
			(await first.admin('GET', '/hooks')).body.data.some(
				(hook: { id: number; status: string }) => hook.id === kept && hook.status === 'suspended',
			),
		);
	}
	// A receiver refuses the contact: the CRM marks it as errored.
	const refusing = (
		await first.api('POST', '/hooks', { body: { url: receiver.url('/refuse'), origines: ['CUSTOMER_UPDATE'] } })
	).body.data.id as number;
	await first.api('PATCH', `/customers/${customerId}`, { body: { firstname: 'Refused' } });
	const picture = new FormData();
	picture.set('file', new Blob([new Uint8Array(png(900, 600))], { type: 'image/png' }), 'a.png');
	const uploaded = await first.api('POST', '/products/5001/pictures/public', { form: picture });
	expect(uploaded.status).toBe(201);

	// Saved while it runs: the file holds the new customer and the suspended hook before any stop.
	await eventually(
		'the file to hold the new customer and the suspended hook',
		async () => {
			const saved = existsSync(file) ? readFileSync(file, 'utf8') : '';
			return saved.includes('kept@example.net') && saved.includes('"suspended"') && saved.includes(REFUSAL_REASON);
		},
		5000,
	);
	const deliveriesBefore = (await first.admin('GET', '/deliveries')).body.data;
	// The first edit's delivery failed and suspended the hook; the second's was not sent; the refusal.
	expect(deliveriesBefore.map((entry: { outcome: string }) => entry.outcome).sort()).toEqual([
		'failed',
		'not sent',
		'rejected',
	]);
	const listingBefore = (await first.api('GET', '/products/5001?fetch=products_photos')).body.data;
	expect(listingBefore.products_photos).toContainEqual(uploaded.body.data);
	await first.close();

	const second = await Harness.start({ dataFile: file });
	try {
		expect(second.sandbox.data).toEqual({ file, state: 'restored', savedAt: expect.any(String) });
		expect((await second.api('GET', `/customers/${customerId}?include=consent`)).body.data).toMatchObject({
			lastname: 'Kept',
			email: 'kept@example.net',
			consent: { reason: 'Signed at the agency', revokedAt: null },
		});
		expect((await second.api('GET', `/customers/${customerId}/follow-ups`)).body.data).toEqual([
			expect.objectContaining({ product_id: 5002, rating: 4 }),
		]);
		expect((await second.admin('GET', '/hooks')).body.data).toEqual([
			expect.objectContaining({ id: kept, url: receiver.url('/fail'), status: 'suspended' }),
			expect.objectContaining({ id: refusing, status: 'active' }),
		]);
		expect((await second.admin('GET', '/deliveries')).body.data).toEqual(deliveriesBefore);
		expect((await second.admin('GET', `/records/rejection/customer:${customerId}`)).body.data).toMatchObject({
			reason: REFUSAL_REASON,
			event_type: 'CUSTOMER_UPDATE',
		});
		const product = (await second.api('GET', '/products/5001?fetch=products_photos')).body.data;
		expect(product).toEqual(listingBefore);
		const { criteres_number: numbers } = (await second.api('GET', '/products/5001?fetch=criteres_number')).body.data;
		expect(numbers).toContainEqual({ critere_id: 3, critere_name: 'Nombre de pièces', critere_value: 3 });

		// Ids given before the restart, deleted ones included, are not given again.
		const next = await second.api('POST', '/hooks', {
			body: { url: receiver.url('/ok'), origines: ['CUSTOMER_CREATE'] },
		});
		expect(next.body.data.id).toBe(refusing + 1);
		const another = await second.api('POST', '/products/5001/pictures/public', { form: picture });
		expect(another.body.data.picture_id).toBe(uploaded.body.data.picture_id + 1);
		const customer = await second.api('POST', '/customers', { body: { lastname: 'Next', email: 'next@example.net' } });
		expect(customer.body.data.customers_id).toBe(customerId + 1);
		// The seed's own data is there too, the same as without a file.
		expect((await second.api('GET', '/customers/10001')).status).toBe(200);
	} finally {
		await second.close();
	}
});

test('a file it cannot read is set aside under another name, and the sandbox starts from the demo data', async () => {
	const file = path.join(folder, 'sandbox.json');
	writeFileSync(file, JSON.stringify({ format: 999, tables: {} }));
	const sandbox = await Harness.start({ dataFile: file });
	try {
		const setAside = readdirSync(folder).filter((name) => name.startsWith('sandbox.json.unreadable-'));
		expect(setAside).toHaveLength(1);
		expect(sandbox.sandbox.data).toEqual({
			file,
			state: 'seeded',
			setAside: `it has format 999, this sandbox reads ${DATA_FORMAT}; moved to ${path.join(folder, setAside[0])}`,
		});
		expect(JSON.parse(readFileSync(path.join(folder, setAside[0]), 'utf8'))).toEqual({ format: 999, tables: {} });
		expect((await sandbox.api('GET', '/customers/10120')).status).toBe(200);
	} finally {
		await sandbox.close();
	}
});
