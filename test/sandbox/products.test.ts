import { detailFields, useSandbox } from '../support/sandbox/harness';
import type { HttpResult } from '../support/sandbox/harness';
import { formWith, gif, jpeg, padded, png, webp } from '../support/fixtures/images';

/** Spec "maximum 20 MB", read as 20,000,000 bytes (issue 17, point 12). */
const TWENTY_MB = 20_000_000;

const h = useSandbox();

/** Every criteria group production's record has, as `fetch` names them. */
const CRITERIA = 'criteres_text,criteres_number,criteres_fulltext,criteres_flag';

async function newProduct(criteria: unknown[] = [], extra: Record<string, unknown> = {}) {
	const result = await h.api('POST', '/products', {
		body: {
			agency_id: 101,
			criteria: [
				{ id: 'TypeBien', value: 'Appartement' },
				{ id: 'TypeTransaction', value: 'Vente' },
				{ id: 'Prix', value: 210000 },
				...criteria,
			],
			...extra,
		},
	});
	expect(result.status).toBe(201);
	return result.body.data;
}

/** Production's criteria error: `{"criteria.<id>": [{xml, message}]}`, no `error` key. */
function criteriaRefusal(result: HttpResult): Record<string, Array<{ xml: string; message: string }>> {
	expect(result.status).toBe(422);
	const { request_id: requestId, ...byCriterion } = result.body;
	expect(requestId).toBe(result.headers.get('x-request-id'));
	expect(result.body.error).toBeUndefined();
	return byCriterion;
}

/** A record's criteria as `{critere_name: critere_value}`, all groups together. */
function valuesOf(product: Record<string, unknown>): Record<string, unknown> {
	const groups = CRITERIA.split(',').flatMap((group) => (product[group] ?? []) as Array<Record<string, unknown>>);
	return Object.fromEntries(groups.map((item) => [item.critere_name, item.critere_value]));
}

const search = (body: Record<string, unknown>, query: Record<string, string> = {}, client?: string) =>
	h.api('POST', '/products/search', { body, query, client });

describe('products', () => {
	test('a create takes criteria by XML key or numeric id, list values by their code, and answers production’s record', async () => {
		const product = await newProduct([
			{ id: 'NbPieces', value: '3' },
			{ id: 9, value: 'C' },
			{ id: 'Statut', value: 'EnCours' },
			{ id: 'Ascenseur', value: 1 },
			{ id: 'Descriptif', value: 'Lumineux, au calme' },
		]);
		expect(product).toMatchObject({
			id: expect.any(Number),
			model: `VA${product.id}`,
			agency_id: 101,
			customers_id: null,
			price: 210000,
			status_web: 1,
			created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
			last_modified: expect.stringMatching(/\+00:00$/),
		});
		expect(product.criteres_number).toEqual([
			{ critere_id: 1, critere_name: 'Prix', critere_value: 210000 },
			{ critere_id: 3, critere_name: 'Nombre de pièces', critere_value: 3 },
		]);
		expect(product.criteres_flag).toEqual([{ critere_id: 13, critere_name: 'Ascenseur', critere_value: true }]);
		expect(product.criteres_fulltext).toEqual([
			{ critere_id: 19, critere_name: 'Descriptif', critere_value: 'Lumineux, au calme' },
		]);
		expect(valuesOf(product)).toMatchObject({
			'Type de bien': 'Appartement',
			'Type de transaction': 'Vente',
			'Classe énergie (DPE)': 'C',
			Statut: 'EnCours',
		});
		const hidden = await newProduct([{ id: 'Statut', value: 'Vendu' }], { model: 'REF-42' });
		expect(hidden).toMatchObject({ model: 'REF-42', status_web: 0 });
	});

	test('a list value given as its id, an unknown code, an inactive or unknown criterion: production’s criteria error', async () => {
		const refused = await h.api('POST', '/products', {
			body: {
				agency_id: 101,
				criteria: [
					{ id: 'TypeBien', value: 1 },
					{ id: 'Statut', value: 'active' },
					{ id: 20, value: 'Nord' },
					{ id: 'NbPiece', value: 3 },
					{ id: 'Prix', value: 'cheap' },
				],
			},
		});
		expect(criteriaRefusal(refused)).toEqual({
			'criteria.5': [{ xml: 'TypeBien', message: "1 is a value id; send the value's code (Appartement), not its id" }],
			'criteria.21': [
				{
					xml: 'Statut',
					message: expect.stringMatching(/^"active" is not a value of Statut; its codes are EnCours, /),
				},
			],
			'criteria.20': [{ xml: 'Exposition', message: 'is not activated on this site' }],
			'criteria.NbPiece': [{ xml: 'NbPiece', message: 'is not a criterion of this site' }],
			'criteria.1': [{ xml: 'Prix', message: 'must be a number' }],
		});
	});

	test('each site spells its keys: NbPieces on site 1, NbPiece (id 65) on site 2', async () => {
		const solo = (body: unknown) => h.api('POST', '/products', { client: 'solo-client', body });
		expect(criteriaRefusal(await solo({ agency_id: 201, criteria: [{ id: 'NbPieces', value: 3 }] }))).toEqual({
			'criteria.NbPieces': [{ xml: 'NbPieces', message: 'is not a criterion of this site' }],
		});
		const created = await solo({ agency_id: 201, criteria: [{ id: 'NbPiece', value: 3 }] });
		expect(created.status).toBe(201);
		expect(created.body.data.criteres_number).toEqual([
			{ critere_id: 65, critere_name: 'Nombre de pièces', critere_value: 3 },
		]);
		const keys = (await h.api('GET', '/criterias/product/all', { client: 'solo-client' })).body.data.map(
			(criterion: { xml: string }) => criterion.xml,
		);
		expect(keys).toContain('NbPiece');
		expect(keys).not.toContain('NbPieces');
	});

	test('a write names any key that is not a product field: price, type and status are criteria', async () => {
		const old = await h.api('POST', '/products', {
			body: { agency_id: 101, transaction_type: 'sale', property_type: 'apartment', price: 1, criteria: [] },
		});
		expect(old.status).toBe(422);
		expect(detailFields(old)).toEqual(['transaction_type', 'property_type', 'price']);
		expect(detailFields(await h.api('POST', '/products', { body: { criteria: [] } }))).toEqual(['agency_id']);
	});

	test('GET returns base fields unless fetch names related data; fetch takes production’s values only', async () => {
		const base = (await h.api('GET', '/products/5001')).body.data;
		expect(Object.keys(base).sort()).toEqual(
			['agency_id', 'created_at', 'customers_id', 'id', 'last_modified', 'model', 'price', 'status_web'].sort(),
		);
		const full = (
			await h.api('GET', '/products/5001', { query: { fetch: `${CRITERIA},products_photos,category,statistic` } })
		).body.data;
		expect(full).toMatchObject({
			criteres_text: expect.arrayContaining([
				{ critere_id: 5, critere_name: 'Type de bien', critere_value: expect.any(String) },
			]),
			criteres_number: expect.arrayContaining([{ critere_id: 1, critere_name: 'Prix', critere_value: full.price }]),
			products_photos: expect.any(Array),
			category: { id: expect.any(Number), name: expect.any(String) },
			statistic: { views: expect.any(Number) },
		});
		for (const old of ['criteria', 'pictures', 'lots', 'agency', 'everything']) {
			const invalid = await h.api('GET', '/products/5001', { query: { fetch: old } });
			expect([old, invalid.status, detailFields(invalid)]).toEqual([old, 422, ['fetch']]);
		}
	});

	test('PATCH needs product_id equal to the path id; criteria sent replace those of the same criterion', async () => {
		const product = await newProduct([{ id: 'Surface', value: 40 }]);
		const path = `/products/${product.id}`;
		const missing = await h.api('PATCH', path, { body: { criteria: [{ id: 'Prix', value: 1 }] } });
		expect(missing.status).toBe(422);
		expect(detailFields(missing)).toEqual(['product_id']);
		const other = await h.api('PATCH', path, { body: { product_id: 5001, criteria: [] } });
		expect(detailFields(other)).toEqual(['product_id']);
		const patched = await h.api('PATCH', path, {
			body: { product_id: product.id, criteria: [{ id: 'Prix', value: '199000' }] },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data.price).toBe(199000);
		expect(valuesOf(patched.body.data)).toMatchObject({ 'Surface habitable (m²)': 40, Prix: 199000 });
		expect(patched.body.data.last_modified >= product.last_modified).toBe(true);
	});

	test('list values by code: GET /criterias/product/{id}/values, empty for other types', async () => {
		const types = (await h.api('GET', '/criterias/product/TypeBien/values')).body.data;
		expect(types).toContainEqual({ id: 4, model: 'LocalCommercial', label: 'Local commercial' });
		expect((await h.api('GET', '/criterias/product/5/values')).body.data).toEqual(types);
		expect((await h.api('GET', '/criterias/product/Prix/values')).body.data).toEqual([]);
		expect((await h.api('GET', '/criterias/product/999/values')).status).toBe(404);
	});

	test('lots, views and the action history', async () => {
		const buildings = await search({ criterias: [{ id: 'TypeBien', operator: 'EGAL', value: 'Immeuble' }] });
		const building = buildings.body.data[0];
		const lots = await h.api('GET', `/products/${building.id}/lots`);
		expect(lots.body.data.length).toBeGreaterThanOrEqual(2);
		expect(lots.body.data[0]).toMatchObject({ lot_id: expect.any(Number), product_id: building.id });

		const before = (await h.api('GET', '/products/5002', { query: { fetch: 'statistic' } })).body.data.statistic.views;
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

describe('product search as production takes it', () => {
	test('criterias with operators: equals a code, less or more than a number (bounds included), contains text', async () => {
		const result = await search(
			{
				criterias: [
					{ id: 'TypeBien', operator: 'EGAL', value: 'Appartement' },
					{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
					{ id: 'NbPieces', operator: 'SUPERIEUR', value: '3' },
					{ id: 'Ville', operator: 'CONTIENT', value: 'lyon' },
				],
				count: 100,
			},
			{ fetch: CRITERIA },
		);
		expect(result.body.data.length).toBeGreaterThan(0);
		for (const product of result.body.data) {
			const values = valuesOf(product);
			expect(values['Type de bien']).toBe('Appartement');
			expect(product.price).toBeLessThanOrEqual(400000);
			expect(values['Nombre de pièces']).toBeGreaterThanOrEqual(3);
			expect(String(values.Ville).toLowerCase()).toContain('lyon');
		}
		const exact = await search({
			criterias: [{ id: 'Prix', operator: 'EGAL', value: String(result.body.data[0].price) }],
		});
		expect(exact.body.data.map((product: { id: number }) => product.id)).toContain(result.body.data[0].id);
	});

	test('a search value given as a list value’s id, an unknown criterion or a missing operator is refused', async () => {
		expect(criteriaRefusal(await search({ criterias: [{ id: 'TypeBien', operator: 'EGAL', value: '1' }] }))).toEqual({
			'criteria.5': [{ xml: 'TypeBien', message: expect.stringMatching(/is a value id/) }],
		});
		const noOperator = await search({ criterias: [{ id: 'Prix', value: '100000' }] });
		expect(detailFields(noOperator)).toEqual(['criterias[0].operator']);
		expect(detailFields(await search({ criterias: [{ id: 'Prix', operator: 'MOINS', value: '1' }] }))).toEqual([
			'criterias[0].operator',
		]);
	});

	test('count is the page size, at most 100; per_page and criteria are not production’s keys and change nothing', async () => {
		const first = await search({ count: 7 });
		expect(first.body.data).toHaveLength(7);
		expect(first.body.meta).toMatchObject({ count: 7, has_more: true, next_cursor: expect.any(String) });
		const next = await search({ count: 7, cursor: first.body.meta.next_cursor });
		expect(next.body.data[0].id).toBeGreaterThan(first.body.data[6].id);
		expect(detailFields(await search({ count: 101 }))).toEqual(['count']);
		const ignored = await search({ per_page: 3, criteria: [{ id: 'TypeBien', value: 'Immeuble' }] });
		expect(ignored.body.data).toHaveLength(20);
		expect(ignored.body.data).toEqual((await search({})).body.data);
	});

	test('last_modified keeps the listings changed since (with +00:00 or Z); sort by date, newest first', async () => {
		const product = await newProduct();
		const since = product.last_modified;
		expect(since).toMatch(/\+00:00$/);
		const changed = await search({ last_modified: since, sort_type: 'date', sort_order: 'desc' });
		expect(changed.body.data.map((listing: { id: number }) => listing.id)).toContain(product.id);
		for (const listing of changed.body.data) expect(listing.last_modified >= since).toBe(true);
		const withZ = await search({ last_modified: since.replace('+00:00', 'Z') });
		expect(withZ.body.data.map((listing: { id: number }) => listing.id)).toEqual(
			changed.body.data.map((listing: { id: number }) => listing.id).sort((a: number, b: number) => a - b),
		);
		expect(detailFields(await search({ last_modified: '2025-01-01 10:00' }))).toEqual(['last_modified']);
		const byDate = await search({ sort_type: 'date', sort_order: 'desc', count: 50 });
		const dates = byDate.body.data.map((listing: { last_modified: string }) => listing.last_modified);
		expect(dates).toEqual([...dates].sort().reverse());
		const page2 = await search({
			sort_type: 'date',
			sort_order: 'desc',
			count: 50,
			cursor: byDate.body.meta.next_cursor,
		});
		expect(page2.body.data[0].last_modified <= dates[dates.length - 1]).toBe(true);
	});

	test('model finds a listing by its reference; offset mode gives a slice with the total', async () => {
		const { model } = (await h.api('GET', '/products/5001')).body.data;
		const found = await search({ model });
		expect(found.body.data.map((listing: { id: number }) => listing.id)).toEqual([5001]);
		const slice = await search({ offset: 5, count: 5 });
		expect(slice.body.meta).toMatchObject({ offset: 5, count: 5, has_more: true, total: expect.any(Number) });
		expect(slice.body.data[0].id).toBe((await search({ count: 6 })).body.data[5].id);
	});
});

describe('DPE/GES label', () => {
	test('is a PNG by default and an SVG on request', async () => {
		const product = await newProduct([
			{ id: 'DPE', value: 'D' },
			{ id: 'ConsoEnergie', value: 212 },
			{ id: 'GES', value: 'E' },
			{ id: 'EmissionGES', value: 61 },
		]);
		const image = await h.api('POST', `/products/${product.id}/dpeGes`, { body: { width: 300 } });
		expect(image.status).toBe(200);
		expect(image.headers.get('content-type')).toBe('image/png');
		expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');
		expect(image.bytes.readUInt32BE(16)).toBe(300);
		const svg = await h.api('POST', `/products/${product.id}/dpeGes`, { body: { format: 'svg', lang: 'en' } });
		expect(svg.headers.get('content-type')).toBe('image/svg+xml');
		expect(svg.bytes.toString()).toMatch(/^<svg[^>]*>.*Energy performance: D.*D 212/);
	});

	test('takes rendering options only, and needs DPE letters', async () => {
		const options = await h.api('POST', '/products/5001/dpeGes', { body: { format: 'gif', color: 'red' } });
		expect(detailFields(options)).toEqual(['color', 'format']);
		const product = await newProduct();
		const noLetters = await h.api('POST', `/products/${product.id}/dpeGes`);
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
