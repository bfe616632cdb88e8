import { useSandbox } from '../support/sandbox/harness';

const h = useSandbox();

test('product criteria list their definition with the site’s XML key and production’s type; a single one adds its values', async () => {
	const all = (await h.api('GET', '/criterias/product/all')).body.data;
	expect(all[0]).toEqual({
		id: 1,
		xml: 'Prix',
		label: 'Prix',
		short_label: 'Prix',
		type: 'NUMBER',
		is_activated: true,
		is_custom: false,
		is_required: false,
		is_public: true,
		category_ids: [1, 2, 3, 4, 5, 6],
	});
	expect(new Set(all.map((criterion: { type: string }) => criterion.type))).toEqual(
		new Set(['UNIQUE', 'NUMBER', 'FLAG', 'TEXT', 'MULTIPLE', 'DATE']),
	);
	expect(all.some((criterion: { is_activated: boolean }) => !criterion.is_activated)).toBe(true);
	const dpe = (await h.api('GET', '/criterias/product/9')).body.data;
	expect(dpe.values.map((value: { model: string }) => value.model)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
	expect((await h.api('GET', '/criterias/product/DPE')).body.data.id).toBe(9);
	expect((await h.api('GET', '/criterias/product/999')).status).toBe(404);
});

test('search-request criteria list the site’s XML keys, the zone criterion 30 among them', async () => {
	const keysOf = async (client: string) =>
		(await h.api('GET', '/criterias/search-requests', { client })).body.data.map(
			(criterion: { xml: string }) => criterion.xml,
		);
	const criteria = (await h.api('GET', '/criterias/search-requests')).body.data;
	expect(criteria.find((criterion: { id: number }) => criterion.id === 30)).toMatchObject({
		xml: 'Secteur',
		type: 'MULTIPLE',
	});
	expect(await keysOf('demo-client')).toEqual(expect.arrayContaining(['TypeBien', 'Prix', 'NbPieces', 'CPVille']));
	expect(await keysOf('solo-client')).toEqual(expect.arrayContaining(['TypeBien', 'Prix', 'NbPiece']));
});

test('categories list their criteria', async () => {
	const house = (await h.api('GET', '/criterias/categories/2')).body.data.map(
		(criterion: { xml: string }) => criterion.xml,
	);
	expect(house).toContain('Jardin');
	expect(house).not.toContain('Ascenseur');
	expect((await h.api('GET', '/criterias/categories/99')).status).toBe(404);
});

test('zones are per site, with an ETag honoured by If-None-Match', async () => {
	const first = await h.api('GET', '/criterias/zone-list');
	const etag = first.headers.get('etag');
	expect(etag).toMatch(/^".+"$/);
	expect(first.body.data[0]).toEqual({ id: 1, label: 'Lyon', postal_code: '69000', type: 'city', parent_id: null });
	const cached = await h.api('GET', '/criterias/zone-list', { headers: { 'If-None-Match': etag ?? '' } });
	expect(cached.status).toBe(304);
	expect(cached.bytes).toHaveLength(0);
	const solo = await h.api('GET', '/criterias/zone-list', {
		client: 'solo-client',
		headers: { 'If-None-Match': etag ?? '' },
	});
	expect(solo.status).toBe(200);
	expect(solo.body.data.map((zone: { label: string }) => zone.label)).toContain('Bordeaux');
});

test('config lists, customer groups and origins, action types', async () => {
	expect((await h.api('GET', '/configs/listes/1/values')).body.data[0]).toEqual({
		id: 1,
		label: 'Vendu par un confrère',
	});
	expect((await h.api('GET', '/configs/listes/4/values')).body.data).toHaveLength(3);
	expect((await h.api('GET', '/configs/listes/99/values')).status).toBe(404);
	expect((await h.api('GET', '/customers/origins')).body.data.length).toBeGreaterThan(3);
	const types = (await h.api('GET', '/actions/types')).body.data;
	expect(types).toContainEqual({ id: 6, label: 'Synchronisation technique', show_in_history: false });
	expect(types).toContainEqual({ id: 1, label: 'Appel téléphonique', show_in_history: true });
});

test('an agency detail includes its users', async () => {
	const agency = (await h.api('GET', '/agencies/102')).body.data;
	expect(agency).toMatchObject({ agency_id: 102, manufacturer_id: 102, name: 'Demo Realty Villeurbanne' });
	expect(agency.users.length).toBeGreaterThan(0);
	for (const user of agency.users) expect(user.agency_id).toBe(102);
	expect(agency.editeur_id).toBeUndefined();
});
