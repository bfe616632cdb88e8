import { generateDemoData } from '../../sandbox/seed/demo';

const sizes = { customers: 300, products: 40, users: 9 };

test('the same seed gives the same data; another seed other data', () => {
	const first = generateDemoData(7, sizes);
	const again = generateDemoData(7, sizes);
	const other = generateDemoData(8, sizes);
	for (const id of [10001, 10150, 10300]) expect(again.customers.get(id)).toEqual(first.customers.get(id));
	expect(again.products.get(5020)).toEqual(first.products.get(5020));
	expect(other.customers.get(10150)).not.toEqual(first.customers.get(10150));
});

test('ids follow fixed bases per site', () => {
	const store = generateDemoData(1, sizes);
	expect(store.customers.forSite(1)[0].customers_id).toBe(10001);
	expect(store.customers.forSite(1)).toHaveLength(300);
	expect(store.customers.forSite(2)[0].customers_id).toBe(900001);
	expect(store.products.forSite(1)[0].product_id).toBe(5001);
	expect(store.products.forSite(2)[0].product_id).toBe(90001);
	expect(store.users.forSite(1).map((user) => user.user_id)).toEqual([
		1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009,
	]);
	expect(store.users.forSite(2)[0].user_id).toBe(9001);
	expect(store.transactions.get(7001)?.site_id).toBe(1);
	expect(store.mandates.forSite(1)[0].mandat_id).toBe(3001);
	expect(store.mandates.forSite(2)).toHaveLength(0);
});

test('customer e-mails and phone numbers are unique', () => {
	const store = generateDemoData(1, { customers: 20_000, products: 60, users: 12 });
	const customers = store.customers.forSite(1);
	const emails = customers.map((customer) => customer.email).filter(Boolean);
	const mobiles = customers.map((customer) => customer.mobile_phone?.slice(2));
	expect(new Set(emails).size).toBe(emails.length);
	expect(new Set(mobiles).size).toBe(mobiles.length);
});

test('20,000 customers generate well under 5 seconds', () => {
	const started = performance.now();
	generateDemoData(1, { customers: 20_000, products: 60, users: 12 });
	expect(performance.now() - started).toBeLessThan(5000);
});
