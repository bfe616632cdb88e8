import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { png } from '../sandbox/images';
import type { Binary } from './context';
import { inProcessContext } from './context';

/**
 * Every one of the 64 endpoints, driven through the node's router with the parameters a user
 * would set, against the sandbox. For each, the sandbox's request log must show exactly the
 * request written here (method, path, query, body), and the node must output no error.
 */

let sandbox: Sandbox;
const rl = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

interface LoggedRequest {
	method: string;
	path: string;
	route: string;
	query: Record<string, string>;
	body: unknown;
	status: number;
}

async function adminJson<T>(method: string, path: string): Promise<T> {
	const response = await fetch(`${sandbox.origin}/_admin${path}`, { method });
	return (await response.json()) as T;
}

/** Runs one item through the node and returns its output and the requests the sandbox saw. */
async function run(parameters: Record<string, unknown>, binary?: Record<string, Binary>) {
	const demo = sandbox.clients.find((client) => client.clientId === 'demo-client')!;
	await adminJson('POST', '/reset');
	const { context } = inProcessContext(
		{
			authUrl: sandbox.authUrl,
			clientId: demo.clientId,
			clientSecret: demo.clientSecret,
			scope: 'site',
			siteId: demo.siteId,
		},
		[parameters],
		binary ? [binary] : [],
	);
	const [output] = await route.call(context);
	const log = await adminJson<{ data: LoggedRequest[] }>('GET', '/requests?limit=50');
	const requests = log.data.filter((entry) => entry.path.startsWith('/api/v2/site'));
	return { output: output.map((item) => item.json), requests, binary: output[0]?.binary };
}

/** Asserts the one API request of a case; returns the node's first output item. */
async function expectRequest(
	parameters: Record<string, unknown>,
	expected: { method: string; path: string; query?: Record<string, string>; body?: unknown },
	binary?: Record<string, Binary>,
) {
	const result = await run(parameters, binary);
	expect(result.output[0]?.error).toBeUndefined();
	const [first] = result.requests;
	expect({ method: first.method, path: first.path }).toEqual({
		method: expected.method,
		path: `/api/v2/site${expected.path}`,
	});
	expect(first.query).toEqual(expected.query ?? {});
	if (expected.body !== undefined) expect(first.body).toEqual(expected.body);
	expect(first.status).toBeLessThan(300);
	return result.output[0] as IDataObject;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true });
});

afterAll(async () => {
	await sandbox.close();
});

describe('discovery and agencies (3)', () => {
	test('GET /discovery', async () => {
		const out = await expectRequest(
			{ resource: 'agency', operation: 'discover' },
			{ method: 'GET', path: '/discovery' },
		);
		expect((out.agencies as IDataObject[]).length).toBe(3);
	});
	test('GET /agencies', async () => {
		await expectRequest(
			{ resource: 'agency', operation: 'getAll', returnAll: false, limit: 2, filters: { search: 'Lyon' } },
			{ method: 'GET', path: '/agencies', query: { per_page: '2', search: 'Lyon' } },
		);
	});
	test('GET /agencies/{agencyId}', async () => {
		const out = await expectRequest(
			{ resource: 'agency', operation: 'get', agencyId: rl(102) },
			{ method: 'GET', path: '/agencies/102' },
		);
		expect(out.agency_id).toBe(102);
	});
});

describe('products (11)', () => {
	test('POST /products', async () => {
		await expectRequest(
			{
				resource: 'product',
				operation: 'create',
				agencyId: rl(101),
				transactionType: 'sale',
				propertyType: 'apartment',
				additionalFields: {
					title: 'T3 Croix-Rousse',
					price: 320000,
					rooms: 3,
					criteria: { criterion: [{ id: '2', value: '68' }] },
				},
			},
			{
				method: 'POST',
				path: '/products',
				body: {
					agency_id: 101,
					transaction_type: 'sale',
					property_type: 'apartment',
					title: 'T3 Croix-Rousse',
					price: 320000,
					rooms: 3,
					criteria: [{ id: 2, value: 68 }],
				},
			},
		);
	});
	test('POST /products/search', async () => {
		await expectRequest(
			{
				resource: 'product',
				operation: 'getAll',
				returnAll: false,
				limit: 3,
				filters: { status: 'active', priceMax: 400000 },
			},
			{ method: 'POST', path: '/products/search', body: { status: 'active', price_max: 400000, per_page: 3 } },
		);
	});
	test('POST /products/search in offset mode walks pages by position', async () => {
		const result = await run({
			resource: 'product',
			operation: 'getAll',
			returnAll: false,
			limit: 7,
			simplify: true,
			filters: { status: 'active' },
			options: { paginationMode: 'offset', perPage: 3 },
		});
		expect(result.output).toHaveLength(7);
		expect(new Set(result.output.map((product) => product.product_id)).size).toBe(7);
		expect(result.requests.map((request) => request.body)).toEqual([
			{ status: 'active', per_page: 3, offset: 0 },
			{ status: 'active', per_page: 3, offset: 3 },
			{ status: 'active', per_page: 1, offset: 6 },
		]);
	});
	test('GET /products/{productId}', async () => {
		await expectRequest(
			{ resource: 'product', operation: 'get', productId: rl(5002), options: { fetch: ['pictures', 'lots'] } },
			{ method: 'GET', path: '/products/5002', query: { fetch: 'pictures,lots' } },
		);
	});
	test('PATCH /products/{productId} (product_id added to the body)', async () => {
		await expectRequest(
			{ resource: 'product', operation: 'update', productId: rl(5002), additionalFields: { price: 299000 } },
			{ method: 'PATCH', path: '/products/5002', body: { product_id: 5002, price: 299000 } },
		);
	});
	test('GET /products/{productId}/lots', async () => {
		await expectRequest(
			{ resource: 'product', operation: 'getLots', productId: rl(5055) },
			{ method: 'GET', path: '/products/5055/lots' },
		);
	});
	test('POST /products/{productId}/views', async () => {
		await expectRequest(
			{ resource: 'product', operation: 'addView', productId: rl(5002) },
			{ method: 'POST', path: '/products/5002/views' },
		);
	});
	test('POST /products/{productId}/dpeGes (image output as binary)', async () => {
		const result = await run({
			resource: 'product',
			operation: 'generateDpeGes',
			productId: rl(5002),
			additionalFields: { format: 'png' },
		});
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			path: '/api/v2/site/products/5002/dpeGes',
			body: { format: 'png' },
			status: 200,
		});
		expect(result.binary?.data.mimeType).toBe('image/png');
	});
	test.each(['public', 'private'])('POST /products/{productId}/pictures/%s (multipart)', async (visibility) => {
		const operation = visibility === 'public' ? 'uploadPublicPicture' : 'uploadPrivatePicture';
		const result = await run(
			{ resource: 'product', operation, productId: rl(5002), binaryPropertyName: 'data', additionalFields: {} },
			{ data: { data: png(1200, 800), fileName: 'living-room.png', mimeType: 'image/png' } },
		);
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			path: `/api/v2/site/products/5002/pictures/${visibility}`,
			status: 201,
		});
		expect(result.output[0]).toMatchObject({ width: 1200, is_public: visibility === 'public' });
	});
	test('GET /products/{productId}/actions', async () => {
		await expectRequest(
			{ resource: 'action', operation: 'getManyForProduct', productId: rl(5002), returnAll: true, filters: {} },
			{ method: 'GET', path: '/products/5002/actions', query: { per_page: '200' } },
		);
	});
	test('POST /products/{productId}/actions', async () => {
		await expectRequest(
			{
				resource: 'action',
				operation: 'createForProduct',
				productId: rl(5002),
				actionTypeId: 1,
				additionalFields: { comment: 'Visit booked' },
			},
			{ method: 'POST', path: '/products/5002/actions', body: { action_type_id: 1, comment: 'Visit booked' } },
		);
	});
});

describe('criteria (5)', () => {
	test('GET /criterias/product/all', async () => {
		await expectRequest(
			{ resource: 'criterion', operation: 'getProductCriteria' },
			{ method: 'GET', path: '/criterias/product/all' },
		);
	});
	test('GET /criterias/product/{criteriaId}', async () => {
		await expectRequest(
			{ resource: 'criterion', operation: 'getProductCriterion', criteriaId: 5 },
			{ method: 'GET', path: '/criterias/product/5' },
		);
	});
	test('GET /criterias/search-requests', async () => {
		await expectRequest(
			{ resource: 'criterion', operation: 'getSearchRequestCriteria' },
			{ method: 'GET', path: '/criterias/search-requests' },
		);
	});
	test('GET /criterias/zone-list', async () => {
		await expectRequest(
			{ resource: 'criterion', operation: 'getZones' },
			{ method: 'GET', path: '/criterias/zone-list' },
		);
	});
	test('GET /criterias/categories/{categoryId}', async () => {
		await expectRequest(
			{ resource: 'criterion', operation: 'getCategoryCriteria', categoryId: 1 },
			{ method: 'GET', path: '/criterias/categories/1' },
		);
	});
});

describe('customers (17)', () => {
	let searchRequestId: number;

	test('POST /customers', async () => {
		await expectRequest(
			{
				resource: 'customer',
				operation: 'create',
				agencyId: rl(101),
				lastname: 'Durand',
				additionalFields: {
					firstname: 'Léa',
					email: 'lea.durand@example.com',
					mobilePhone: '0611223344',
					type: 'buyer',
				},
			},
			{
				method: 'POST',
				path: '/customers',
				body: {
					agency_id: 101,
					lastname: 'Durand',
					firstname: 'Léa',
					email: 'lea.durand@example.com',
					mobile_phone: '0611223344',
					type: 'buyer',
				},
			},
		);
	});
	test('POST /customers/search', async () => {
		await expectRequest(
			{
				resource: 'customer',
				operation: 'getAll',
				returnAll: false,
				limit: 10,
				filters: { email: 'lea.durand@example.com' },
			},
			{ method: 'POST', path: '/customers/search', body: { email: 'lea.durand@example.com', per_page: 10 } },
		);
	});
	test('GET /customers/{customerId}', async () => {
		await expectRequest(
			{ resource: 'customer', operation: 'get', customerId: rl(10003), options: { include: ['groups', 'consent'] } },
			{ method: 'GET', path: '/customers/10003', query: { include: 'groups,consent' } },
		);
	});
	test('PATCH /customers/{customerId}', async () => {
		await expectRequest(
			{ resource: 'customer', operation: 'update', customerId: rl(10003), additionalFields: { phone: '0478000000' } },
			{ method: 'PATCH', path: '/customers/10003', body: { phone: '0478000000' } },
		);
	});
	test('POST /customers/{customerId}/consent', async () => {
		await expectRequest(
			{
				resource: 'consent',
				operation: 'set',
				customerId: rl(10003),
				reason: 'Phone call 2026-11-20',
				additionalFields: { collectedAt: '2026-11-20T10:00:00+01:00' },
			},
			{
				method: 'POST',
				path: '/customers/10003/consent',
				body: { reason: 'Phone call 2026-11-20', collected_at: '2026-11-20T09:00:00Z' },
			},
		);
	});
	test('DELETE /customers/{customerId}/consent', async () => {
		const out = await expectRequest(
			{ resource: 'consent', operation: 'revoke', customerId: rl(10003) },
			{ method: 'DELETE', path: '/customers/10003/consent' },
		);
		expect(out).toEqual({ success: true });
	});
	test('POST /customers/{customerId}/search-requests', async () => {
		const out = await expectRequest(
			{
				resource: 'searchRequest',
				operation: 'create',
				customerId: rl(10003),
				criteria: {
					criterion: [
						{ id: '1', value: '350000' },
						{ id: '30', value: '[1, 6]' },
					],
				},
				additionalFields: { title: 'T3 in Lyon' },
			},
			{
				method: 'POST',
				path: '/customers/10003/search-requests',
				body: {
					criteria: [
						{ id: 1, value: 350000 },
						{ id: 30, value: [1, 6] },
					],
					title: 'T3 in Lyon',
				},
			},
		);
		searchRequestId = out.search_request_id as number;
		expect(searchRequestId).toBeGreaterThan(0);
	});
	test('PATCH /customers/{customerId}/search-requests/{searchRequestId}', async () => {
		await expectRequest(
			{
				resource: 'searchRequest',
				operation: 'update',
				customerId: rl(10003),
				searchRequestId: String(searchRequestId),
				additionalFields: { criteria: { criterion: [{ id: '3', value: '4' }] } },
			},
			{
				method: 'PATCH',
				path: `/customers/10003/search-requests/${searchRequestId}`,
				body: { criteria: [{ id: 3, value: 4 }] },
			},
		);
	});
	test('GET /customers/{customerId}/follow-ups', async () => {
		await expectRequest(
			{ resource: 'followUp', operation: 'getAll', customerId: rl(10003), returnAll: false, limit: 5, filters: {} },
			{ method: 'GET', path: '/customers/10003/follow-ups', query: { per_page: '5' } },
		);
	});
	test('POST /customers/{customerId}/follow-ups/{productId}', async () => {
		await expectRequest(
			{
				resource: 'followUp',
				operation: 'create',
				customerId: rl(10003),
				productId: rl(5003),
				additionalFields: { rating: 4 },
			},
			{ method: 'POST', path: '/customers/10003/follow-ups/5003', body: { rating: 4 } },
		);
	});
	test('PATCH /customers/{customerId}/follow-ups/{productId}', async () => {
		await expectRequest(
			{
				resource: 'followUp',
				operation: 'update',
				customerId: rl(10003),
				productId: rl(5003),
				additionalFields: { rating: 5, comment: 'Loved it' },
			},
			{ method: 'PATCH', path: '/customers/10003/follow-ups/5003', body: { rating: 5, comment: 'Loved it' } },
		);
	});
	test('DELETE /customers/{customerId}/follow-ups/{productId}', async () => {
		const out = await expectRequest(
			{ resource: 'followUp', operation: 'delete', customerId: rl(10003), productId: rl(5003) },
			{ method: 'DELETE', path: '/customers/10003/follow-ups/5003' },
		);
		expect(out).toEqual({ deleted: true });
	});
	test('GET /customers/{customerId}/actions (offset carried in cursor)', async () => {
		await expectRequest(
			{
				resource: 'action',
				operation: 'getManyForCustomer',
				customerId: rl(10003),
				returnAll: false,
				limit: 4,
				filters: {},
			},
			{ method: 'GET', path: '/customers/10003/actions', query: { per_page: '4', cursor: '0' } },
		);
	});
	test('POST /customers/{customerId}/actions', async () => {
		await expectRequest(
			{
				resource: 'action',
				operation: 'createForCustomer',
				customerId: rl(10003),
				actionTypeId: 2,
				additionalFields: { date: '2026-11-20T14:30:00Z' },
			},
			{ method: 'POST', path: '/customers/10003/actions', body: { action_type_id: 2, date: '2026-11-20T14:30:00Z' } },
		);
	});
	test('GET /customers/groups', async () => {
		await expectRequest({ resource: 'customer', operation: 'getGroups' }, { method: 'GET', path: '/customers/groups' });
	});
	test('GET /customers/origins', async () => {
		await expectRequest(
			{ resource: 'customer', operation: 'getOrigins' },
			{ method: 'GET', path: '/customers/origins' },
		);
	});
	test('GET /actions/types', async () => {
		await expectRequest({ resource: 'action', operation: 'getTypes' }, { method: 'GET', path: '/actions/types' });
	});
});

describe('leads (2)', () => {
	test('POST /leads/sellers', async () => {
		const result = await run({
			resource: 'lead',
			operation: 'createSeller',
			agencyId: rl(101),
			transactionType: 'sale',
			propertyType: 'house',
			additionalFields: {
				lastname: 'Petit',
				email: 'paul.petit@example.com',
				price: 410000,
				requestNature: 'Valuation',
			},
		});
		expect(result.output[0].error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/site/leads/sellers', status: 201 });
		expect(result.requests[0].body).toEqual(
			expect.objectContaining({
				agency_id: 101,
				request_nature: 'Valuation',
				customer: expect.objectContaining({ lastname: 'Petit', email: 'paul.petit@example.com' }),
				product: expect.objectContaining({ transaction_type: 'sale', property_type: 'house', price: 410000 }),
			}),
		);
	});
	test('POST /leads/buyers', async () => {
		const result = await run({
			resource: 'lead',
			operation: 'createBuyer',
			agencyId: rl(102),
			additionalFields: {
				lastname: 'Moreau',
				phone: '0472000001',
				criteria: { criterion: [{ id: '1', value: '250000' }] },
			},
		});
		expect(result.output[0].error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/site/leads/buyers', status: 201 });
		expect(result.requests[0].body).toEqual(
			expect.objectContaining({
				agency_id: 102,
				customer: expect.objectContaining({ lastname: 'Moreau', phone: '0472000001' }),
				search_requests: [{ criteria: [{ id: 1, value: 250000 }] }],
			}),
		);
	});
});

describe('transactions (5)', () => {
	test.each([
		['getManyAgreements', '/transactions/agreement/search'],
		['getManyOffers', '/transactions/sales-offers/search'],
		['getManyLeases', '/transactions/leases/search'],
	])('%s → POST %s with include in the query', async (operation, path) => {
		await expectRequest(
			{ resource: 'transaction', operation, returnAll: false, limit: 2, filters: { include: ['buyer', 'user'] } },
			{ method: 'POST', path, query: { include: 'buyer,user' }, body: { per_page: 2 } },
		);
	});
	test('GET /agreement/{compromisId}', async () => {
		await expectRequest(
			{ resource: 'transaction', operation: 'get', compromisId: '7001', options: { include: ['fees'] } },
			{ method: 'GET', path: '/agreement/7001', query: { include: 'fees' } },
		);
	});
	test('PUT /agreement/{compromisId} (billing fields only)', async () => {
		await expectRequest(
			{
				resource: 'transaction',
				operation: 'updateBilling',
				compromisId: '7001',
				additionalFields: { invoiceNumber: 'F-2026-118', feesAgency: 9000 },
			},
			{ method: 'PUT', path: '/agreement/7001', body: { invoice_number: 'F-2026-118', fees_agency: 9000 } },
		);
	});
});

describe('users (10)', () => {
	let createdUserId: number;
	test('GET /users', async () => {
		await expectRequest(
			{ resource: 'user', operation: 'getAll', returnAll: false, limit: 3, filters: { agencyId: rl(101) } },
			{ method: 'GET', path: '/users', query: { per_page: '3', agency_id: '101' } },
		);
	});
	test('POST /users', async () => {
		const out = await expectRequest(
			{
				resource: 'user',
				operation: 'create',
				agencyId: rl(101),
				firstname: 'Nina',
				lastname: 'Roux',
				email: 'nina.roux@example.com',
				password: 'Str0ng&Secret!',
				additionalFields: {},
			},
			{
				method: 'POST',
				path: '/users',
				body: {
					agency_id: 101,
					firstname: 'Nina',
					lastname: 'Roux',
					email: 'nina.roux@example.com',
					password: 'Str0ng&Secret!',
				},
			},
		);
		createdUserId = out.user_id as number;
	});
	test('GET /users/{userId}?include=logs', async () => {
		await expectRequest(
			{ resource: 'user', operation: 'get', userId: rl(1004), options: { includeLogs: true } },
			{ method: 'GET', path: '/users/1004', query: { include: 'logs' } },
		);
	});
	test('PATCH /users/{userId}', async () => {
		await expectRequest(
			{ resource: 'user', operation: 'update', userId: rl(1004), additionalFields: { phone: '0478112233' } },
			{ method: 'PATCH', path: '/users/1004', body: { phone: '0478112233' } },
		);
	});
	test('POST /users/{userId}/photo (multipart)', async () => {
		const result = await run(
			{
				resource: 'user',
				operation: 'uploadPhoto',
				userId: rl(1004),
				additionalFields: { profilePictureBinaryField: 'portrait' },
			},
			{ portrait: { data: png(400, 400), fileName: 'portrait.png', mimeType: 'image/png' } },
		);
		expect(result.output[0].error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({ method: 'POST', path: '/api/v2/site/users/1004/photo' });
		expect(result.requests[0].status).toBeLessThan(300);
	});
	test('DELETE /users/{userId}/photo', async () => {
		await expectRequest(
			{ resource: 'user', operation: 'deletePhoto', userId: rl(1004), profilePicture: true, signaturePicture: false },
			{ method: 'DELETE', path: '/users/1004/photo', body: { profile_picture: true, signature_picture: false } },
		);
	});
	test('DELETE /users/{userId}', async () => {
		const out = await expectRequest(
			{ resource: 'user', operation: 'delete', userId: rl(createdUserId) },
			{ method: 'DELETE', path: `/users/${createdUserId}` },
		);
		expect(out).toEqual({ deleted: true });
	});
	test.each([
		['getGroups', '/users/groups'],
		['getTypes', '/users/types'],
		['getGenders', '/users/genders'],
	])('%s → GET %s', async (operation, path) => {
		await expectRequest({ resource: 'user', operation }, { method: 'GET', path });
	});
});

describe('mandates (2)', () => {
	test('GET /mandates', async () => {
		await expectRequest(
			{ resource: 'mandate', operation: 'getAll', returnAll: false, limit: 5, filters: {} },
			{ method: 'GET', path: '/mandates', query: { per_page: '5' } },
		);
	});
	test('GET /mandates/{mandateId}', async () => {
		await expectRequest(
			{ resource: 'mandate', operation: 'get', mandateId: '3001', options: {} },
			{ method: 'GET', path: '/mandates/3001' },
		);
	});
});

describe('webhooks (4)', () => {
	let hookId: number;
	test('POST /hooks', async () => {
		const out = await expectRequest(
			{
				resource: 'webhook',
				operation: 'create',
				url: 'https://example.com/hooks/crm',
				origines: ['PRODUCT_UPDATE'],
				additionalFields: { headers: { header: [{ name: 'X-Token', value: 'abc' }] } },
			},
			{
				method: 'POST',
				path: '/hooks',
				body: { url: 'https://example.com/hooks/crm', origines: ['PRODUCT_UPDATE'], headers: { 'X-Token': 'abc' } },
			},
		);
		hookId = out.id as number;
	});
	test('GET /hooks', async () => {
		await expectRequest({ resource: 'webhook', operation: 'getAll' }, { method: 'GET', path: '/hooks' });
	});
	test('PUT /hooks/{hookId}', async () => {
		await expectRequest(
			{
				resource: 'webhook',
				operation: 'update',
				hookId: String(hookId),
				additionalFields: { origines: ['PRODUCT_UPDATE', 'PRODUCT_CREATE'] },
			},
			{ method: 'PUT', path: `/hooks/${hookId}`, body: { origines: ['PRODUCT_UPDATE', 'PRODUCT_CREATE'] } },
		);
	});
	test('DELETE /hooks/{hookId}', async () => {
		await expectRequest(
			{ resource: 'webhook', operation: 'delete', hookId: String(hookId) },
			{ method: 'DELETE', path: `/hooks/${hookId}` },
		);
	});
});

describe('config lists (1)', () => {
	test('GET /configs/listes/{listeId}/values', async () => {
		await expectRequest(
			{ resource: 'config', operation: 'getValues', listId: 2 },
			{ method: 'GET', path: '/configs/listes/2/values' },
		);
	});
});

describe('calendar (4)', () => {
	test('POST /calendar/events (dates converted to UTC, participants as `users`)', async () => {
		await expectRequest(
			{
				resource: 'calendar',
				operation: 'createEvent',
				eventType: '1',
				startsAt: '2026-12-01T10:00:00+01:00',
				endsAt: '2026-12-01T11:00:00+01:00',
				allDay: false,
				participants: {
					participant: [
						{ userId: 1002, isOrganizer: true, isCreator: true },
						{ userId: 1003, isOrganizer: false, isCreator: false },
					],
				},
				additionalFields: { title: 'Visit 5002', locationGeo: { point: { lat: 45.77, lng: 4.83 } } },
			},
			{
				method: 'POST',
				path: '/calendar/events',
				body: {
					type: '1',
					starts_at: '2026-12-01T09:00:00Z',
					ends_at: '2026-12-01T10:00:00Z',
					all_day: false,
					users: [
						{ user_id: 1002, is_organizer: true, is_creator: true },
						{ user_id: 1003, is_organizer: false, is_creator: false },
					],
					title: 'Visit 5002',
					location_geo: { lat: 45.77, lng: 4.83 },
				},
			},
		);
	});
	test('DELETE /calendar/events/{eventId}', async () => {
		const out = await expectRequest(
			{ resource: 'calendar', operation: 'deleteEvent', eventId: '2' },
			{ method: 'DELETE', path: '/calendar/events/2' },
		);
		expect(out).toEqual({ deleted: true });
	});
	test('GET /calendar/permanences/timeframe', async () => {
		await expectRequest(
			{ resource: 'calendar', operation: 'getPermanenceTimeframe', agencyId: rl(103) },
			{ method: 'GET', path: '/calendar/permanences/timeframe', query: { agency_id: '103' } },
		);
	});
	test('GET /calendar/events/types', async () => {
		await expectRequest(
			{ resource: 'calendar', operation: 'getEventTypes' },
			{ method: 'GET', path: '/calendar/events/types' },
		);
	});
});
