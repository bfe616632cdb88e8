/** Customers (spec section 4, "Customers"): the record, consent, search requests and follow-ups. */
import type { ApiRoute, World } from '../../api';
import { consentRoutes } from './consent';
import { contactRoutes } from './contacts';
import { followUpRoutes } from './follow-ups';
import { searchRequestRoutes } from './search-requests';

export function customerRoutes(world: World): ApiRoute[] {
	return [contactRoutes, consentRoutes, searchRequestRoutes, followUpRoutes].flatMap((routes) => routes(world));
}
