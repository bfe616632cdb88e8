import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import type { Endpoint } from '../../nodes/AgencyCrm/catalogue/types';
import { ENDPOINT_CASES, PLACEHOLDER_IDS, resolve } from '../support/cases';
import { fakeContext } from '../support/fakeN8n';

/**
 * Issue 39, point 3: Raw is every field the API returned, on every operation, whatever the envelope
 * around the record holds. Each in-process case's operation is run against an API whose records carry
 * a field the spec does not name, in an envelope with keys of its own (one naming an identifier, as a
 * request's `requestId`): every record output carries that field, at its top level.
 */
const UNKNOWN = 'zz_unknown_field';
const ENVELOPE = { requestId: 'req-1', api_version: '1.5.0', warnings: [] };

/** A record of the endpoint, under its id's name and `id`, with a field no spec names (its consent too). */
function recordOf(endpoint: Endpoint): IDataObject {
	const consent = { reason: 'Signed form', consentDate: null, revokedAt: null, [UNKNOWN]: 'kept' };
	return { id: 7, [endpoint.outputKeys?.id ?? 'id']: 7, consent, [UNKNOWN]: 'kept' };
}

/** Whether the request reads a list: a GET of a collection, a search. */
const readsList = (options: IHttpRequestOptions) =>
	(options.method === 'GET' && !/\/\d+$/.test(options.url)) || options.url.endsWith('/search');

function api(record: IDataObject) {
	return async (_credential: string, options: IHttpRequestOptions) => {
		// A contact search finds the contact it searched for.
		const { email, phone } = (options.body ?? {}) as IDataObject;
		const hit = { ...record, ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
		const body = readsList(options)
			? { data: [hit], meta: { has_more: false, next_cursor: null }, ...ENVELOPE }
			: { data: record, ...ENVELOPE };
		// An operation that may answer an image answers JSON as bytes.
		if (options.encoding === 'arraybuffer') {
			return {
				statusCode: 200,
				headers: { 'content-type': 'application/json' },
				body: Buffer.from(JSON.stringify(body)),
			};
		}
		return { statusCode: 200, headers: {}, body };
	};
}

/** What an operation outputs instead of the record, by design. */
const notARecord = (endpoint: Endpoint) => endpoint.output === 'deleted';

const named = ENDPOINT_CASES.map((testCase) => ({
	name: testCase.title ? `${testCase.endpoint} (${testCase.title})` : testCase.endpoint,
	testCase,
}));

test.each(named)('$name', async ({ testCase }) => {
	const parameters = resolve(testCase.parameters, { ...PLACEHOLDER_IDS });
	const endpoint = findEndpoint(String(parameters.resource), String(parameters.operation));
	if (!endpoint) throw new Error(`no operation ${String(parameters.resource)} ${String(parameters.operation)}`);
	const fake = fakeContext({
		parameters: { ...parameters, output: 'raw' },
		binaries: testCase.binary ? [testCase.binary] : [],
		httpRequestWithAuthentication: api(recordOf(endpoint)),
	});
	const [items] = await route.call(fake.execute);
	const output = items.map((item) => item.json);
	expect(output.length).toBeGreaterThan(0);
	if (notARecord(endpoint)) return expect(output).toEqual([{ deleted: true }]);
	// Consent → Set outputs the consent read back, whole.
	const records = endpoint.record?.include
		? output.map((json) => json[endpoint.record!.include!] as IDataObject)
		: output;
	for (const record of records) expect(record).toMatchObject({ [UNKNOWN]: 'kept' });
});
