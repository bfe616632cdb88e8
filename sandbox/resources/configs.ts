/** Configuration lists (`/configs/listes/{listeId}/values`), available to every client. */
import { idParam, route } from '../api';
import type { ApiRoute, World } from '../api';
import { notFound, ok } from '../http';

export function configRoutes({ store }: World): ApiRoute[] {
	return [
		route('GET', '/configs/listes/{listeId}/values', {}, (request) => {
			const listId = idParam(request, 'listeId');
			const list = store.referentials.configLists.find((candidate) => candidate.id === listId);
			if (!list) throw notFound(`Configuration list ${listId}`);
			return ok(list.values);
		}),
	];
}
