import { png } from '../fixtures/images';
import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

function pictureCase(visibility: 'public' | 'private'): EndpointCase {
	return {
		endpoint: `POST /products/{productId}/pictures/${visibility}`,
		title: 'multipart',
		parameters: {
			resource: 'product',
			operation: visibility === 'public' ? 'uploadPublicPicture' : 'uploadPrivatePicture',
			productId: byId(5002),
			binaryPropertyName: 'data',
			additionalFields: {},
		},
		binary: { data: { data: png(1200, 800), fileName: 'living-room.png', mimeType: 'image/png' } },
		request: { method: 'POST', path: `/products/5002/pictures/${visibility}`, status: 201 },
		verify: ({ output }) => expect(output[0]).toMatchObject({ width: 1200, is_public: visibility === 'public' }),
	};
}

export const productCases: EndpointCase[] = [
	{
		endpoint: 'POST /products',
		parameters: {
			resource: 'product',
			operation: 'create',
			agencyId: byId(101),
			transactionType: 'sale',
			propertyType: 'apartment',
			additionalFields: {
				title: 'T3 Croix-Rousse',
				price: 320000,
				rooms: 3,
				criteria: { criterion: [{ id: '2', value: '68' }] },
			},
		},
		request: {
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
	},
	{
		endpoint: 'POST /products/search',
		parameters: {
			resource: 'product',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			filters: { status: 'active', priceMax: 400000 },
		},
		request: { method: 'POST', path: '/products/search', body: { status: 'active', price_max: 400000, per_page: 3 } },
	},
	{
		endpoint: 'POST /products/search',
		title: 'offset mode walks pages by position',
		parameters: {
			resource: 'product',
			operation: 'getAll',
			returnAll: false,
			limit: 7,
			filters: { status: 'active' },
			options: { paginationMode: 'offset', perPage: 3 },
		},
		request: { method: 'POST', path: '/products/search', body: { status: 'active', per_page: 3, offset: 0 } },
		verify: ({ output, requests }) => {
			expect(output).toHaveLength(7);
			expect(new Set(output.map((product) => product.product_id)).size).toBe(7);
			expect(requests.map((request) => request.body)).toEqual([
				{ status: 'active', per_page: 3, offset: 0 },
				{ status: 'active', per_page: 3, offset: 3 },
				{ status: 'active', per_page: 1, offset: 6 },
			]);
		},
	},
	{
		endpoint: 'GET /products/{productId}',
		parameters: {
			resource: 'product',
			operation: 'get',
			productId: byId(5002),
			options: { fetch: ['pictures', 'lots'] },
		},
		request: { method: 'GET', path: '/products/5002', query: { fetch: 'pictures,lots' } },
	},
	{
		endpoint: 'PATCH /products/{productId}',
		title: 'product_id added to the body',
		parameters: {
			resource: 'product',
			operation: 'update',
			productId: byId(5002),
			additionalFields: { price: 299000 },
		},
		request: { method: 'PATCH', path: '/products/5002', body: { product_id: 5002, price: 299000 } },
	},
	{
		endpoint: 'GET /products/{productId}/lots',
		parameters: { resource: 'product', operation: 'getLots', productId: byId(5055) },
		request: { method: 'GET', path: '/products/5055/lots' },
	},
	{
		endpoint: 'POST /products/{productId}/views',
		parameters: { resource: 'product', operation: 'addView', productId: byId(5002) },
		request: { method: 'POST', path: '/products/5002/views' },
	},
	{
		endpoint: 'POST /products/{productId}/dpeGes',
		title: 'image output as binary',
		parameters: {
			resource: 'product',
			operation: 'generateDpeGes',
			productId: byId(5002),
			additionalFields: { format: 'png' },
		},
		request: { method: 'POST', path: '/products/5002/dpeGes', body: { format: 'png' }, status: 200 },
		verify: ({ items }) => expect(items[0].binary?.data.mimeType).toBe('image/png'),
	},
	pictureCase('public'),
	pictureCase('private'),
];
