import { runEndpointCases } from '../support/inprocess/endpointCases';

/**
 * The cases of endpoints.test.ts in the form of node version 2 (data in Additional Fields and
 * Filters, settings under Options, match keys on top): the same requests must go out.
 */
runEndpointCases(2);
