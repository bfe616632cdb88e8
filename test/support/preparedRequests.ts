import type { PreparedRequest } from '../../nodes/AgencyCrm/catalogue/types';

/**
 * A prepared request as the plan gives it (actions/prepareRequest.ts), with nothing in it but what a
 * test names: for the checks, resend decisions and request building that read one.
 */
export function preparedRequest(
	given: Partial<PreparedRequest> & Pick<PreparedRequest, 'method' | 'path'>,
): PreparedRequest {
	return { pathParams: {}, qs: {}, body: {}, files: [], hints: [], notices: [], ...given };
}
