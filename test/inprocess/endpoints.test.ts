import { ENDPOINTS, findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { SPEC_ENDPOINTS, endpointShape } from '../support/spec/endpoints';
import type { EndpointCase } from '../support/cases';
import { CASE_TABLES, ENDPOINT_CASES, PLACEHOLDER_IDS, resolve } from '../support/cases';
import { runEndpointCases } from '../support/inprocess/endpointCases';

/**
 * Every endpoint of the spec, driven through the node's router with the parameters a user would
 * set, against the sandbox: the cases are the tables of `cases/`. For each, the sandbox's request log
 * must show exactly the request the case writes (method, path, query, body), and the node must output
 * no error.
 */

const operationOf = (testCase: EndpointCase) => {
	const { resource, operation } = resolve(testCase.parameters, PLACEHOLDER_IDS);
	return { resource: String(resource), operation: String(operation) };
};
const specShape = (endpoint: string) => {
	const [method, path] = endpoint.split(' ');
	return endpointShape(method, path);
};

describe('the cases cover the spec and the catalogue exactly', () => {
	const specEndpoints = SPEC_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`);

	test('every spec endpoint has a case, and every case names a spec endpoint', () => {
		const covered = new Set(ENDPOINT_CASES.map((testCase) => testCase.endpoint));
		expect(specEndpoints.filter((endpoint) => !covered.has(endpoint))).toEqual([]);
		expect([...covered].filter((endpoint) => !specEndpoints.includes(endpoint))).toEqual([]);
		expect(covered.size).toBe(SPEC_ENDPOINTS.length);
	});

	test('every operation of the catalogue has a case', () => {
		const operations = new Set(ENDPOINT_CASES.map((testCase) => Object.values(operationOf(testCase)).join(':')));
		const missing = ENDPOINTS.map((endpoint) => `${endpoint.resource}:${endpoint.operation.value}`).filter(
			(key) => !operations.has(key),
		);
		expect(missing).toEqual([]);
	});

	test.each(CASE_TABLES)(
		'the $resource table: each case runs an operation of the resource on its endpoint',
		(table) => {
			for (const testCase of table.cases) {
				const { resource, operation } = operationOf(testCase);
				const endpoint = findEndpoint(resource, operation);
				expect([testCase.endpoint, resource]).toEqual([testCase.endpoint, table.resource]);
				expect(endpoint && endpointShape(endpoint.method, endpoint.path)).toBe(specShape(testCase.endpoint));
			}
		},
	);
});

/** The cases in the form of node version 1, as workflows saved with 0.1.0 hold their parameters. */
runEndpointCases(1);
