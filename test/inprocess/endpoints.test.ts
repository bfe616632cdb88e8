import { ENDPOINTS, findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { SPEC_ENDPOINTS, endpointShape } from '../support/spec/endpoints';
import type { EndpointCase, SharedIds } from '../support/cases';
import { CASE_TABLES, ENDPOINT_CASES, PLACEHOLDER_IDS, resolve } from '../support/cases';
import { useRunner } from '../support/inprocess/runner';
import { API_BASE } from '../support/sandbox/harness';

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

const runner = useRunner();
const ids: SharedIds = { ...PLACEHOLDER_IDS };

describe.each(CASE_TABLES)('$resource', ({ cases }) => {
	const named = cases.map((testCase) => ({
		name: testCase.title ? `${testCase.endpoint} (${testCase.title})` : testCase.endpoint,
		testCase,
	}));
	test.each(named)('$name', async ({ testCase }) => {
		const expected = resolve(testCase.request, ids);
		const result = await runner.run([resolve(testCase.parameters, ids)], {
			binaries: testCase.binary ? [testCase.binary] : [],
		});
		expect(result.output[0]?.error).toBeUndefined();
		const before = expected.after ?? [];
		expect(result.requests.slice(0, before.length).map((request) => request.route)).toEqual(before);
		const sent = result.requests[before.length];
		expect({ method: sent.method, path: sent.path }).toEqual({
			method: expected.method,
			path: `${API_BASE}${expected.path}`,
		});
		expect(sent.query).toEqual(expected.query ?? {});
		if (expected.body !== undefined) expect(sent.body).toEqual(expected.body);
		if (expected.status === undefined) expect(sent.status).toBeLessThan(300);
		else expect(sent.status).toBe(expected.status);
		testCase.verify?.(result);
		testCase.keep?.(result.output[0], ids);
	});
});
