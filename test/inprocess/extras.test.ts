import type { IDataObject } from 'n8n-workflow';

import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { extrasGroupOf } from '../../nodes/AgencyCrm/catalogue/form';
import { EXTRA_BODY, EXTRA_QUERY, takesBody } from '../../nodes/AgencyCrm/catalogue/nodeOptions';
import { keyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import type { Endpoint, FieldLocation } from '../../nodes/AgencyCrm/catalogue/types';
import { parseMultipart } from '../../sandbox/multipart';
import type { EndpointCase, SharedIds } from '../support/cases';
import { CASE_TABLES, PLACEHOLDER_IDS, resolve } from '../support/cases';
import { useRunner } from '../support/inprocess/runner';
import { API_BASE } from '../support/sandbox/harness';

/**
 * The escape hatches of every endpoint (issue 9): each in-process case is run again with "Extra Query
 * Parameters (JSON)" and, where the endpoint takes a body, "Extra Body Fields (JSON)". What the
 * sandbox received must be the case's own request plus the extras, unchanged, `null` included; where
 * the extras repeat a key the case sets through a typed field, the typed value goes. The sandbox may
 * refuse the request (an unknown billing field): it must still have been sent as written.
 */

const QUERY_EXTRAS = { x_extra_query: 'q-1' };
const BODY_EXTRAS = { x_extra_body: { nested: [1, 'two', true] }, x_extra_null: null };
const FROM_EXTRAS = 'value-from-the-extras';

/** A top-level key of the expected query or body that one of the endpoint's typed fields sets. */
function typedKey(endpoint: Endpoint, location: FieldLocation, expected: unknown): string | undefined {
	const keys = endpoint.fields.filter((field) => field.in === location).map(keyOf);
	return Object.keys((expected ?? {}) as IDataObject).find((key) => keys.includes(key));
}

const isMultipart = (endpoint: Endpoint) =>
	endpoint.fields.some((field) => field.in === 'file') || endpoint.upload === 'multipart';

const runner = useRunner();
const ids: SharedIds = { ...PLACEHOLDER_IDS };
const conflicts = { query: 0, body: 0 };

afterAll(() => {
	process.stdout.write(
		`typed fields won over the extras on ${conflicts.query} query and ${conflicts.body} body keys\n`,
	);
});

async function runWithExtras(testCase: EndpointCase) {
	const parameters = resolve(testCase.parameters, ids);
	const expected = resolve(testCase.request, ids);
	const endpoint = findEndpoint(String(parameters.resource), String(parameters.operation))!;
	const queryKey = typedKey(endpoint, 'query', expected.query);
	const bodyKey = typedKey(endpoint, 'body', expected.body);
	const group = extrasGroupOf(endpoint);
	const extras: IDataObject = {
		[EXTRA_QUERY]: JSON.stringify({ ...QUERY_EXTRAS, ...(queryKey ? { [queryKey]: FROM_EXTRAS } : {}) }),
	};
	if (takesBody(endpoint)) {
		extras[EXTRA_BODY] = JSON.stringify({ ...BODY_EXTRAS, ...(bodyKey ? { [bodyKey]: FROM_EXTRAS } : {}) });
	}
	const result = await runner.run([{ ...parameters, [group]: { ...(parameters[group] as IDataObject), ...extras } }], {
		binaries: testCase.binary ? [testCase.binary] : [],
		continueOnFail: true,
	});
	const sent = result.requests[(expected.after ?? []).length];
	return { endpoint, expected, result, sent, queryKey, bodyKey };
}

describe.each(CASE_TABLES)('$resource', ({ cases }) => {
	const named = cases.map((testCase) => ({
		name: testCase.title ? `${testCase.endpoint} (${testCase.title})` : testCase.endpoint,
		testCase,
	}));
	test.each(named)('$name: extras reach the wire unchanged, typed fields win', async ({ testCase }) => {
		const { endpoint, expected, result, sent, queryKey, bodyKey } = await runWithExtras(testCase);
		expect({ method: sent?.method, path: sent?.path }).toEqual({
			method: expected.method,
			path: `${API_BASE}${expected.path}`,
		});
		const expectedQuery: IDataObject = { ...expected.query, ...QUERY_EXTRAS };
		// What every read loads (a contact's origin and groups) is the node's, not a typed field: the extras'
		// related data are added to it.
		const alwaysLoaded = endpoint.readIncludes?.join(',');
		if (queryKey === 'include' && expected.query?.include === alwaysLoaded)
			expectedQuery.include = `${alwaysLoaded},${FROM_EXTRAS}`;
		expect(sent.query).toEqual(expectedQuery);
		if (queryKey) conflicts.query++;
		if (takesBody(endpoint) && isMultipart(endpoint)) {
			// The log keeps no multipart parts: read them from the bytes the client sent.
			const upload = result.sent.find(
				(request) => request.method === expected.method && request.url === expected.path,
			)!;
			const headers = upload.headers as IDataObject;
			const textParts = parseMultipart(upload.body as Buffer, String(headers['Content-Type']))
				.filter((part) => part.filename === undefined)
				.map((part) => [part.name, part.data.toString('utf8')]);
			// A multipart text part has no null: a null field is left out, never sent as the text "null" (issue 17).
			expect(Object.fromEntries(textParts)).toEqual({
				...(expected.form ?? {}),
				x_extra_body: JSON.stringify(BODY_EXTRAS.x_extra_body),
			});
		} else if (takesBody(endpoint)) {
			expect(sent.body).toEqual({ ...(expected.body as IDataObject | undefined), ...BODY_EXTRAS });
			if (bodyKey) conflicts.body++;
		} else {
			expect(sent.body).toBeNull();
		}
		const kept = result.output[0];
		if (testCase.keep && kept.error === undefined) testCase.keep(kept, ids);
	});
});
