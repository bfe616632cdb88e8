import { png } from '../fixtures/images';
import type { EndpointCase } from './types';
import { byId } from '../../../tools/n8n/workflows';

/** The three referentials of users. */
function referentialCase(operation: string, path: string): EndpointCase {
	return {
		endpoint: `GET ${path}`,
		parameters: { resource: 'user', operation },
		request: { method: 'GET', path },
	};
}

export const userCases: EndpointCase[] = [
	{
		endpoint: 'GET /users',
		parameters: { resource: 'user', operation: 'getAll', returnAll: false, limit: 3, filters: { agencyId: byId(101) } },
		request: { method: 'GET', path: '/users', query: { per_page: '3', agency_id: '101' } },
	},
	{
		endpoint: 'GET /users',
		title:
			"production's filters: the active agents of an agency who cannot delegate, by name, phones in international form",
		parameters: {
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
			filters: {
				agencyId: byId(102),
				status: 1,
				withoutDeleted: true,
				delegation: false,
				firstname: 'a',
				telephoneCode: true,
			},
		},
		request: {
			method: 'GET',
			path: '/users',
			query: {
				per_page: '200',
				agency_id: '102',
				status: '1',
				without_deleted: 'true',
				// Issue 39: Delegation "Cannot Delegate" is a filter too, sent as the reference's node sends it.
				delegation: 'false',
				firstname: 'a',
				telephone_code: 'true',
			},
		},
		verify: ({ output }) => {
			expect(output.length).toBeGreaterThan(0);
			for (const user of output) {
				expect(user).toMatchObject({ agency_id: 102, status: 1, is_active: true });
				expect(String(user.firstname).toLowerCase()).toContain('a');
				expect(user.phone).toMatch(/^\+33\d{9}$/);
			}
		},
	},
	{
		endpoint: 'POST /users',
		parameters: {
			resource: 'user',
			operation: 'create',
			agencyId: byId(101),
			firstname: 'Nina',
			lastname: 'Roux',
			email: 'nina.roux@example.com',
			password: 'Str0ng&Secret!',
			additionalFields: {},
		},
		request: {
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
		keep: (output, ids) => {
			ids.userId = output.user_id as number;
		},
	},
	{
		endpoint: 'GET /users/{userId}',
		title: 'include=logs',
		parameters: { resource: 'user', operation: 'get', userId: byId(1004), options: { includeLogs: true } },
		request: { method: 'GET', path: '/users/1004', query: { include: 'logs' } },
	},
	{
		endpoint: 'PATCH /users/{userId}',
		parameters: {
			resource: 'user',
			operation: 'update',
			userId: byId(1004),
			additionalFields: { phone: '0478112233' },
		},
		request: { method: 'PATCH', path: '/users/1004', body: { phone: '0478112233' } },
	},
	{
		endpoint: 'POST /users/{userId}/photo',
		title: 'multipart',
		parameters: {
			resource: 'user',
			operation: 'uploadPhoto',
			userId: byId(1004),
			additionalFields: { profilePictureBinaryField: 'portrait' },
		},
		binary: { portrait: { data: png(400, 400), fileName: 'portrait.png', mimeType: 'image/png' } },
		request: { method: 'POST', path: '/users/1004/photo' },
	},
	{
		endpoint: 'DELETE /users/{userId}/photo',
		parameters: {
			resource: 'user',
			operation: 'deletePhoto',
			userId: byId(1004),
			profilePicture: true,
			signaturePicture: false,
		},
		request: { method: 'DELETE', path: '/users/1004/photo', body: { profile_picture: true } },
	},
	{
		endpoint: 'DELETE /users/{userId}',
		parameters: ({ userId }) => ({ resource: 'user', operation: 'delete', userId: byId(userId) }),
		title: 'read first, so that a 404 after a lost answer can only be this removal',
		request: ({ userId }) => ({ method: 'DELETE', path: `/users/${userId}`, after: ['GET /users/{userId}'] }),
		verify: ({ output }) => expect(output[0]).toEqual({ deleted: true }),
	},
	referentialCase('getGroups', '/users/groups'),
	referentialCase('getTypes', '/users/types'),
	referentialCase('getGenders', '/users/genders'),
];
