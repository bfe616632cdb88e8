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

/** The reads of the site's criteria before a write or a search that names some (actions/siteCriteria.ts). */
const PRODUCT_REFERENTIAL = ['GET /criterias/product/all'];
const TYPE_VALUES = 'GET /criterias/product/{criteriaId}/values';

export const productCases: EndpointCase[] = [
	{
		endpoint: 'POST /products',
		title: 'version 1’s fields sent as the site’s criteria',
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
			after: [...PRODUCT_REFERENTIAL, TYPE_VALUES, TYPE_VALUES],
			body: {
				agency_id: 101,
				criteria: [
					{ id: 'TypeTransaction', value: 'Vente' },
					{ id: 'TypeBien', value: 'Appartement' },
					{ id: 'Titre', value: 'T3 Croix-Rousse' },
					{ id: 'Prix', value: 320000 },
					{ id: 'NbPieces', value: 3 },
					{ id: 'Surface', value: 68 },
				],
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
		request: {
			method: 'POST',
			path: '/products/search',
			after: [...PRODUCT_REFERENTIAL, TYPE_VALUES],
			body: {
				criterias: [
					{ id: 'Statut', operator: 'EGAL', value: 'EnCours' },
					{ id: 'Prix', operator: 'INFERIEUR', value: '400000' },
				],
				count: 3,
			},
		},
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
		request: {
			method: 'POST',
			path: '/products/search',
			after: [...PRODUCT_REFERENTIAL, TYPE_VALUES],
			body: { criterias: [{ id: 'Statut', operator: 'EGAL', value: 'EnCours' }], count: 3, offset: 0 },
		},
		verify: ({ output, requests }) => {
			expect(output).toHaveLength(7);
			expect(new Set(output.map((product) => product.id)).size).toBe(7);
			const criterias = [{ id: 'Statut', operator: 'EGAL', value: 'EnCours' }];
			expect(requests.slice(2).map((request) => request.body)).toEqual([
				{ criterias, count: 3, offset: 0 },
				{ criterias, count: 3, offset: 3 },
				{ criterias, count: 1, offset: 6 },
			]);
		},
	},
	{
		endpoint: 'GET /products/{productId}',
		title: 'production’s fetch values',
		parameters: {
			resource: 'product',
			operation: 'get',
			productId: byId(5002),
			options: { fetch: ['products_photos', 'criteres_number'] },
		},
		request: { method: 'GET', path: '/products/5002', query: { fetch: 'products_photos,criteres_number' } },
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
		request: {
			method: 'PATCH',
			path: '/products/5002',
			after: PRODUCT_REFERENTIAL,
			body: { product_id: 5002, criteria: [{ id: 'Prix', value: 299000 }] },
		},
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
