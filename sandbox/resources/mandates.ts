/** The mandate register: enabled per site (site 2 has it off, giving 403 MODULE_DISABLED). */
import { includesOf, pageReply, pathRecord, readAgencyFilter, route, withoutSite } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { forbidden, ok } from '../http';
import type { Mandate } from '../model';
import { cursorPage, readPageRequest } from '../pagination';
import type { Store } from '../store';
import { FieldReader, JsonObject } from '../validation';
import { customerView } from './customers/records';
import { productView } from './products';

const MANDATE_PACK = { pack: 'Mandates' } as const;

function mandateWithIncludes(store: Store, mandate: Mandate, includes: ReadonlySet<string>): JsonObject {
	const view: JsonObject = withoutSite(mandate);
	if (includes.has('product')) {
		const product = mandate.product_id === null ? undefined : store.products.get(mandate.product_id);
		view.product = product ? productView(store, product) : null;
	}
	if (includes.has('customer')) {
		const customer = mandate.customers_id === null ? undefined : store.customers.get(mandate.customers_id);
		view.customer = customer ? customerView(store, customer) : null;
	}
	return view;
}

export function mandateRoutes({ store }: World): ApiRoute[] {
	function requireRegister(request: ApiRequest): void {
		if (!store.sites.get(request.grant.siteId)?.mandate_register_enabled) {
			throw forbidden('The mandate register module is not enabled for this site.', 'MODULE_DISABLED');
		}
	}

	return [
		route('GET', '/mandates', MANDATE_PACK, (request) => {
			requireRegister(request);
			const reader = FieldReader.forQuery(request.query);
			const agencyId = readAgencyFilter(reader, request);
			const productId = reader.optionalInteger('product_id');
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const keep = (mandate: Mandate) =>
				(agencyId === undefined || mandate.agency === agencyId) && (!productId || mandate.product_id === productId);
			const result = cursorPage(store.mandates.forSite(request.grant.siteId), 'mandat_id', 'desc', page, keep);
			return pageReply(request, result, (mandate) => mandateWithIncludes(store, mandate, includesOf(request)));
		}),
		route('GET', '/mandates/{mandateId}', MANDATE_PACK, (request) => {
			requireRegister(request);
			const mandate = pathRecord(request, store.mandates, 'mandateId', 'Mandate');
			return ok(mandateWithIncludes(store, mandate, includesOf(request)));
		}),
	];
}
