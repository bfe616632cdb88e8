import type { IHttpRequestOptions } from 'n8n-workflow';

import type { ApiResponse } from '../../nodes/shared/transport';

/**
 * A site's criteria as production's referential lists them (docs/assumptions.md "Production
 * evidence"): XML keys, production's types, list values by `model` code. Written here by hand for
 * the unit tests of the wire, apart from the sandbox's seed: `rooms` is the site's spelling of the
 * rooms criterion (`NbPieces` on one site, `NbPiece` on another).
 */
export function siteCriteria(rooms: { xml: string; id: number } = { xml: 'NbPieces', id: 3 }) {
	const product = [
		{ id: 1, xml: 'Prix', label: 'Prix', type: 'NUMBER', is_activated: true },
		{ id: rooms.id, xml: rooms.xml, label: 'Nombre de pièces', type: 'NUMBER', is_activated: true },
		{ id: 5, xml: 'TypeBien', label: 'Type de bien', type: 'UNIQUE', is_activated: true },
		{ id: 6, xml: 'TypeTransaction', label: 'Type de transaction', type: 'UNIQUE', is_activated: true },
		{ id: 7, xml: 'Ville', label: 'Ville', type: 'TEXT', is_activated: true },
		{ id: 13, xml: 'Ascenseur', label: 'Ascenseur', type: 'FLAG', is_activated: true },
		{ id: 20, xml: 'Exposition', label: 'Exposition', type: 'MULTIPLE', is_activated: false },
		{ id: 21, xml: 'Statut', label: 'Statut', type: 'UNIQUE', is_activated: true },
		{ id: 23, xml: 'DateDisponibilite', label: 'Date de disponibilité', type: 'DATE', is_activated: true },
	];
	const values: Record<number, Array<{ id: number; model: string; label: string }>> = {
		5: [
			{ id: 1, model: 'Appartement', label: 'Appartement' },
			{ id: 2, model: 'Maison', label: 'Maison' },
			{ id: 4, model: 'LocalCommercial', label: 'Local commercial' },
		],
		6: [
			{ id: 1, model: 'Vente', label: 'Vente' },
			{ id: 2, model: 'Location', label: 'Location' },
		],
		20: [
			{ id: 1, model: 'Nord', label: 'Nord' },
			{ id: 2, model: 'Sud', label: 'Sud' },
		],
		21: [
			{ id: 1, model: 'EnCours', label: 'En cours' },
			{ id: 4, model: 'Vendu', label: 'Vendu' },
		],
	};
	const searchRequest = [
		{ id: 1, xml: 'Prix', label: 'Budget', type: 'NUMBER' },
		{ id: rooms.id, xml: rooms.xml, label: 'Pièces', type: 'NUMBER' },
		{ id: 5, xml: 'TypeBien', label: 'Type de bien', type: 'UNIQUE' },
		{ id: 6, xml: 'TypeTransaction', label: 'Type de transaction', type: 'UNIQUE' },
		{ id: 7, xml: 'CPVille', label: 'Code postal ou ville', type: 'TEXT' },
	];
	return { product, values, searchRequest };
}

/**
 * An httpRequestWithAuthentication that answers the criteria endpoints from `siteCriteria` and
 * records every request; any other request answers `{data: {}}`.
 */
export function criteriaServer(site = siteCriteria(), failing = false) {
	const calls: string[] = [];
	async function httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions): Promise<ApiResponse> {
		const path = options.url.replace(/^.*\/api\/v2\/site/, '').split('?')[0];
		calls.push(`${options.method ?? 'GET'} ${path}`);
		if (failing && path.startsWith('/criterias/')) throw new Error('connect ECONNREFUSED');
		const valuesOf = /^\/criterias\/product\/(\d+)\/values$/.exec(path);
		let data: unknown = {};
		if (path === '/criterias/product/all') data = site.product;
		else if (path === '/criterias/search-requests') data = site.searchRequest;
		else if (valuesOf) data = site.values[Number(valuesOf[1])] ?? [];
		return { statusCode: 200, body: { data }, headers: {} };
	}
	return { calls, httpRequestWithAuthentication };
}
