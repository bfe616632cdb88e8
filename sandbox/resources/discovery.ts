/** Discovery and agencies: available to every client. */
import { idParam, pageReply, route } from '../api';
import type { ApiRoute, World } from '../api';
import { notFound, ok } from '../http';
import type { Agency, PackName } from '../model';
import { cursorPage, readPageRequest } from '../pagination';
import { FieldReader } from '../validation';
import { userView } from './users';

const PACK_DESCRIPTIONS: Record<PackName, string> = {
	Properties: 'Property listings and criteria management',
	Customers: 'Customer management, search requests, follow-ups, actions',
	Leads: 'Seller and buyer lead creation',
	Sales: 'Sale agreements, offers and leases',
	Websites: 'Read feeds for websites and portals',
	Mandates: 'Mandate register',
	Access: 'Agent/collaborator (user) management',
	Full: 'All of the above',
};

export function agencyView({
	site_id: _site,
	agency_id,
	...agency
}: Agency): Omit<Agency, 'site_id'> & { manufacturer_id: number } {
	// manufacturer_id is the deprecated name of agency_id, still present (spec section 2).
	return { agency_id, manufacturer_id: agency_id, ...agency };
}

export function discoveryRoutes({ store }: World): ApiRoute[] {
	const agenciesOf = (siteId: number) =>
		store
			.agencyIdsOfSite(siteId)
			.map((id) => store.agencies.get(id))
			.filter((agency): agency is Agency => !!agency);

	return [
		// The spec shows this answer without the `data` envelope.
		route('GET', '/discovery', {}, (request) => ({
			status: 200,
			body: {
				agencies: agenciesOf(request.grant.siteId).map(agencyView),
				packs: request.grant.client.packs.map((name) => ({ name, description: PACK_DESCRIPTIONS[name] })),
			},
		})),
		route('GET', '/agencies', {}, (request) => {
			const reader = FieldReader.forQuery(request.query);
			const search = reader.optionalString('search')?.toLowerCase();
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const keep = (agency: Agency) => !search || agency.name.toLowerCase().includes(search);
			return pageReply(
				request,
				cursorPage(agenciesOf(request.grant.siteId), 'agency_id', 'asc', page, keep),
				agencyView,
			);
		}),
		route('GET', '/agencies/{agencyId}', {}, (request) => {
			const agencyId = idParam(request, 'agencyId');
			const agency = store.agencies.get(agencyId);
			if (!agency || agency.site_id !== request.grant.siteId) throw notFound(`Agency ${agencyId}`);
			const users = store.users.forSite(agency.site_id).filter((user) => user.agency_id === agencyId);
			return ok({ ...agencyView(agency), users: users.map(userView) });
		}),
	];
}
