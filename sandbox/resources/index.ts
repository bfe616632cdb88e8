/** Every endpoint of the API (spec section 4), assembled from the resource modules. */
import type { ApiRoute, World } from '../api';
import { actionRoutes } from './actions';
import { calendarRoutes } from './calendar';
import { configRoutes } from './configs';
import { criteriaRoutes } from './criterias';
import { customerRoutes } from './customers';
import { discoveryRoutes } from './discovery';
import { hookRoutes } from './hooks';
import { leadRoutes } from './leads';
import { mandateRoutes } from './mandates';
import { productRoutes } from './products';
import { transactionRoutes } from './transactions';
import { userRoutes } from './users';

export function apiRoutes(world: World): ApiRoute[] {
	return [
		discoveryRoutes,
		productRoutes,
		criteriaRoutes,
		customerRoutes,
		actionRoutes,
		leadRoutes,
		transactionRoutes,
		userRoutes,
		mandateRoutes,
		hookRoutes,
		configRoutes,
		calendarRoutes,
	].flatMap((routes) => routes(world));
}
