import { detailFields, useSandbox } from '../support/sandbox/harness';
import { formWith, gif, jpeg, padded, png, webp } from '../support/fixtures/images';

/** Spec "maximum 20 MB", read as 20,000,000 bytes (issue 17, point 12). */
const TWENTY_MB = 20_000_000;

const h = useSandbox();

async function newProduct(extra: Record<string, unknown> = {}) {
	const result = await h.api('POST', '/products', {
		body: {
			agency_id: 101,
			transaction_type: 'sale',
			property_type: 'apartment',
			title: 'T2 test',
			price: 210000,
			...extra,
		},
	});
	expect(result.status).toBe(201);
	return result.body.data;
}

describe('products', () => {
	test('creation accepts criteria by XML identifier and stores integer ids', async () => {
		const product = await newProduct({
			criteria: [
				{ id: 'price', value: 210000 },
				{ id: 9, value: 'C' },
				{ id: 'ges_letter', value: 'B' },
			],
		});
		expect(product).toMatchObject({ agency_id: 101, status: 'active', reference: `VA${product.product_id}`, views: 0 });
		expect(product.criteria).toEqual([
			{ id: 1, value: 210000 },
			{ id: 9, value: 'C' },
			{ id: 11, value: 'B' },
		]);
		const invalid = await h.api('POST', '/products', {
			body: { agency_id: 101, transaction_type: 'sale', criteria: [{ id: 20, value: 'north' }] },
		});
		expect(invalid.status).toBe(422);
		expect(detailFields(invalid)).toEqual(['property_type', 'criteria[0].id']);
	});

	test('GET returns base fields unless fetch names related data', async () => {
		const base = (await h.api('GET', '/products/5001')).body.data;
		expect(base.criteria).toBeUndefined();
		const full = (await h.api('GET', '/products/5001', { query: { fetch: 'criteria,pictures,lots,agency' } })).body
			.data;
		expect(full).toMatchObject({
			criteria: expect.any(Array),
			pictures: expect.any(Array),
			lots: expect.any(Array),
			agency: expect.objectContaining({ agency_id: 101 }),
		});
		const invalid = await h.api('GET', '/products/5001', { query: { fetch: 'everything' } });
		expect(detailFields(invalid)).toEqual(['fetch']);
	});

	test('PATCH needs product_id equal to the path id', async () => {
		const product = await newProduct();
		const path = `/products/${product.product_id}`;
		const missing = await h.api('PATCH', path, { body: { price: 1 } });
		expect(missing.status).toBe(422);
		expect(detailFields(missing)).toEqual(['product_id']);
		const other = await h.api('PATCH', path, { body: { product_id: 5001, price: 1 } });
		expect(detailFields(other)).toEqual(['product_id']);
		const patched = await h.api('PATCH', path, {
			body: { product_id: product.product_id, price: 199000, criteria: [{ id: 2, value: 48 }] },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({ price: 199000, title: 'T2 test', criteria: [{ id: 2, value: 48 }] });
	});

	test('search filters by fields and criteria', async () => {
		const result = await h.api('POST', '/products/search', {
			body: { transaction_type: 'rental', criteria: [{ id: 'property_type', value: 'apartment' }], per_page: 200 },
			query: { fetch: 'criteria' },
		});
		expect(result.body.data.length).toBeGreaterThan(0);
		for (const product of result.body.data) {
			expect(product.transaction_type).toBe('rental');
			expect(product.criteria).toContainEqual({ id: 5, value: 'apartment' });
		}
	});

	test('lots, views and the action history', async () => {
		const all = await h.api('POST', '/products/search', { body: { per_page: 200 } });
		const building = all.body.data.find((product: { property_type: string }) => product.property_type === 'building');
		const lots = await h.api('GET', `/products/${building.product_id}/lots`);
		expect(lots.body.data.length).toBeGreaterThanOrEqual(2);
		expect(lots.body.data[0]).toMatchObject({ lot_id: expect.any(Number), product_id: building.product_id });

		const before = (await h.api('GET', '/products/5002')).body.data.views;
		expect((await h.api('POST', '/products/5002/views', { client: 'limited-client' })).body.data).toEqual({
			product_id: 5002,
			views: before + 1,
		});

		const hidden = await h.api('POST', '/products/5002/actions', { body: { action_id: 7, result: 'relance' } });
		const shown = await h.api('POST', '/products/5002/actions', { body: { action_id: 2, result: 'visite' } });
		const history = await h.api('GET', '/products/5002/actions', { query: { per_page: 200 } });
		const ids = history.body.data.map((action: { id: number }) => action.id);
		expect(ids).toContain(shown.body.data.id);
		expect(ids).not.toContain(hidden.body.data.id);
		expect((await h.admin('GET', `/records/action/${hidden.body.data.id}`)).status).toBe(200);
	});
});

describe('DPE/GES label', () => {
	test('is a PNG by default and an SVG on request', async () => {
		const product = await newProduct({
			criteria: [
				{ id: 9, value: 'D' },
				{ id: 10, value: 212 },
				{ id: 11, value: 'E' },
				{ id: 12, value: 61 },
			],
		});
		const image = await h.api('POST', `/products/${product.product_id}/dpeGes`, { body: { width: 300 } });
		expect(image.status).toBe(200);
		expect(image.headers.get('content-type')).toBe('image/png');
		expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');
		expect(image.bytes.readUInt32BE(16)).toBe(300);
		const svg = await h.api('POST', `/products/${product.product_id}/dpeGes`, { body: { format: 'svg', lang: 'en' } });
		expect(svg.headers.get('content-type')).toBe('image/svg+xml');
		expect(svg.bytes.toString()).toMatch(/^<svg[^>]*>.*Energy performance: D.*D 212/);
	});

	test('takes rendering options only, and needs DPE letters', async () => {
		const options = await h.api('POST', '/products/5001/dpeGes', { body: { format: 'gif', color: 'red' } });
		expect(detailFields(options)).toEqual(['color', 'format']);
		const product = await newProduct();
		const noLetters = await h.api('POST', `/products/${product.product_id}/dpeGes`);
		expect(noLetters.status).toBe(422);
		expect(detailFields(noLetters)).toEqual(['criteria']);
	});
});

describe('picture upload', () => {
	test('accepts PNG, JPEG, GIF and WebP images at least 800 px wide', async () => {
		const cases: [Buffer, string, number][] = [
			[png(1200), 'public', 1200],
			[jpeg(1024, 768), 'private', 1024],
			[gif(800, 600), 'public', 800],
			[webp(1600, 900), 'public', 1600],
		];
		for (const [image, visibility, width] of cases) {
			const result = await h.api('POST', `/products/5003/pictures/${visibility}`, {
				form: formWith({ file: image, title: 'Séjour' }),
			});
			expect(result.status).toBe(201);
			expect(result.body.data).toMatchObject({
				width,
				size: image.length,
				is_public: visibility === 'public',
				title: 'Séjour',
				url: expect.stringMatching(/^https:/),
			});
		}
	});

	test('refuses narrow images, non-images, images over 20 MB and a missing file part', async () => {
		const upload = (parts: Record<string, Buffer | string>) =>
			h.api('POST', '/products/5003/pictures/public', { form: formWith(parts) });
		const narrow = await upload({ file: png(799) });
		expect(narrow.status).toBe(422);
		expect(narrow.body.error.details).toEqual([
			{ field: 'file', message: 'must be at least 800 px wide (got 799 px)' },
		]);
		expect(detailFields(await upload({ file: webp(640, 480) }))).toEqual(['file']);
		expect(detailFields(await upload({ file: Buffer.from('just some text, not an image') }))).toEqual(['file']);
		const huge = await upload({ file: padded(png(1200), TWENTY_MB + 1) });
		expect(huge.status).toBe(422);
		expect(huge.body.error.details[0].message).toMatch(/20 MB/);
		expect((await upload({ file: padded(png(1200), TWENTY_MB) })).status).toBe(201);
		expect(detailFields(await upload({ picture: png(1200) }))).toEqual(['file']);
		const notMultipart = await h.api('POST', '/products/5003/pictures/public', { body: { file: 'x' } });
		expect(detailFields(notMultipart)).toEqual(['body']);
	});
});
