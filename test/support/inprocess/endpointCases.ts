import type { NodeVersion } from '../../../nodes/AgencyCrm/catalogue/form';
import type { SharedIds } from '../cases';
import { CASE_TABLES, PLACEHOLDER_IDS, resolve } from '../cases';
import { API_BASE } from '../sandbox/harness';
import { useRunner } from './runner';

/**
 * Every case of the tables of `cases/`, driven through the node's router with the parameters a user
 * would set, in the form of one node version, against a sandbox of the test file's own: the
 * sandbox's request log must show exactly the request the case writes (method, path, query, body),
 * and the node must output no error.
 */
export function runEndpointCases(version: NodeVersion) {
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
				version,
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
}
