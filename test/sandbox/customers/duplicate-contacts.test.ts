import { detailFields, useSandbox } from '../../support/sandbox/harness';

const h = useSandbox();

const duplicates = async (siteId?: number) =>
	(await h.admin('GET', `/duplicate-contacts${siteId === undefined ? '' : `?site_id=${siteId}`}`)).body.data;

describe('GET /_admin/duplicate-contacts', () => {
	test('the demo data holds none, and creates that match are not duplicates', async () => {
		expect(await duplicates()).toEqual({ site_id: 1, customers: 120, duplicate_contacts: 0, groups: [] });
		const again = await h.api('POST', '/customers', {
			body: { lastname: 'Encore', email: 'LAURENT.PERRIN.10021@example.com' },
		});
		expect(again.body.data.customers_id).toBe(10021);
		expect((await duplicates()).duplicate_contacts).toBe(0);
	});

	test('counts customers sharing an e-mail or a phone number, transitively, by the create rule', async () => {
		// 10022 takes 10021's e-mail in upper case; 10025 takes 10022's home phone written +33.
		await h.api('PATCH', '/customers/10022', { body: { email: 'Laurent.Perrin.10021@EXAMPLE.com' } });
		await h.api('PATCH', '/customers/10025', { body: { phones: [{ type: 'work', number: '+33 4 61 56 36 91' }] } });
		// 10024 takes 10023's mobile number as its phone.
		await h.api('PATCH', '/customers/10024', { body: { phone: '06 80 60 67 04' } });
		expect(await duplicates(1)).toEqual({
			site_id: 1,
			customers: 120,
			duplicate_contacts: 3,
			groups: [
				{
					customers_ids: [10021, 10022, 10025],
					emails: ['laurent.perrin.10021@example.com'],
					phones: ['0461563691'],
				},
				{ customers_ids: [10023, 10024], emails: [], phones: ['0680606704'] },
			],
		});
		expect((await duplicates(2)).duplicate_contacts).toBe(0);
	});

	test('an unknown site is refused', async () => {
		const result = await h.admin('GET', '/duplicate-contacts?site_id=99');
		expect(result.status).toBe(422);
		expect(detailFields(result)).toEqual(['site_id']);
	});
});
