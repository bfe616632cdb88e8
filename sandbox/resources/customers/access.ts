/** Who may call the customer endpoints, and the customer a path names. */
import { pathRecord } from '../../api';
import type { Access, ApiRequest } from '../../api';
import type { Customer } from '../../model';
import type { Store } from '../../store';

export const CUSTOMER_PACK: Access = { pack: 'Customers' };

/** The `{customerId}` of the path; customers of other sites do not exist for this token (404). */
export function pathCustomer(store: Store, request: ApiRequest): Customer {
	return pathRecord(request, store.customers, 'customerId', 'Customer');
}
