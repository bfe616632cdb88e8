import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { isRequiredParameter } from '../../nodes/AgencyCrm/catalogue/describe';
import { labelOf } from '../../nodes/AgencyCrm/catalogue/fields';
import { formOf, NODE_VERSIONS } from '../../nodes/AgencyCrm/catalogue/form';
import type { NodeVersion, Place } from '../../nodes/AgencyCrm/catalogue/form';
import type { Endpoint, FieldSpec, PreparedRequest } from '../../nodes/AgencyCrm/catalogue/types';
import type { Binary } from '../support/fakeN8n';
import { baselineOf, operationKey } from '../support/cases/baseline';
import type { Parameters } from '../support/cases/baseline';
import { inProcessContext } from '../support/inprocess/context';
import { asVersion } from '../support/versions';

/**
 * Issue 29, point 6: an optional input the user adds and leaves at its default sends nothing (a
 * Maximum Price left at 0 emptied every list, with no hint why). For every operation of the
 * catalogue, in both node versions, each optional input is set to its default in the item of the
 * operation's first case (test/support/cases), and the request must be the one sent without it:
 * - in a read (a GET, or a search with pages), whatever default means nothing: 0, off, an empty
 *   text, list or collection, an empty From List: a filter left as added filters nothing;
 * - in a write, an empty text, list or collection. There a number or a switch sends the value it
 *   shows (a fee of 0, Stop SMS off), and a default that shows a choice (Status: Active) is sent as
 *   shown, in reads too.
 */

const isRead = (endpoint: Endpoint) => endpoint.method === 'GET' || endpoint.pagination !== undefined;

function meansNothing(value: unknown, endpoint: Endpoint): boolean {
	if (value === '' || value === undefined || value === null) return true;
	if (Array.isArray(value)) return value.length === 0;
	if (typeof value === 'object') {
		const locator = value as { value?: unknown };
		return 'value' in locator ? locator.value === '' : Object.keys(value).length === 0;
	}
	return isRead(endpoint) && (value === 0 || value === false);
}

function withoutInput(parameters: Parameters, place: Place, name: string): Parameters {
	if (place === 'top') return Object.fromEntries(Object.entries(parameters).filter(([key]) => key !== name));
	const rest = { ...(parameters[place] as Parameters | undefined) };
	delete rest[name];
	return { ...parameters, [place]: rest };
}

function withInput(parameters: Parameters, place: Place, name: string, value: unknown): Parameters {
	if (place === 'top') return { ...parameters, [name]: value };
	return { ...parameters, [place]: { ...(parameters[place] as Parameters | undefined), [name]: value } };
}

/** What goes to the API. */
const sent = ({ method, path, qs, body, files }: PreparedRequest) => JSON.stringify({ method, path, qs, body, files });

/**
 * The request of an item whose parameters are written as version 1 holds them, sent by a node of
 * `version`; or the refusal (an update left with nothing to change is refused, and must be so with
 * an input at its default too).
 */
async function requestOf(
	endpoint: Endpoint,
	parameters: Parameters,
	version: NodeVersion,
	binary?: Record<string, Binary>,
) {
	const item = asVersion(parameters, version);
	const { context } = inProcessContext({}, [item], binary ? [binary] : [], false, version);
	return await prepareRequest(context, endpoint, 0).then(sent, (error: Error) => `refused: ${error.message}`);
}

const optional = (field: FieldSpec) => field.in !== 'node' && field.in !== 'path' && !isRequiredParameter(field);

test('every operation has a case to start from, and the rule has reads and writes to hold', () => {
	expect(
		ENDPOINTS.filter((endpoint) => !baselineOf(endpoint.resource, endpoint.operation.value)).map(operationKey),
	).toEqual([]);
	const held = ENDPOINTS.flatMap((endpoint) =>
		formOf(endpoint, 1).filter(({ field }) => optional(field) && meansNothing(field.property.default, endpoint)),
	);
	expect(held.length).toBeGreaterThan(100);
	expect(held.filter(({ field }) => field.property.type === 'number').length).toBeGreaterThanOrEqual(2);
});

describe.each(NODE_VERSIONS)('node version %s', (version) => {
	test.each(ENDPOINTS.map((endpoint) => [operationKey(endpoint), endpoint] as const))(
		'%s: every optional input left at a default that means nothing sends nothing',
		async (_, endpoint) => {
			const baseline = baselineOf(endpoint.resource, endpoint.operation.value)!;
			const offenders: string[] = [];
			// The cases write their items as version 1 holds them; asVersion moves them to this version's form.
			for (const { field, place } of formOf(endpoint, 1)) {
				if (!optional(field) || !meansNothing(field.property.default, endpoint)) continue;
				const name = field.property.name;
				const without = withoutInput(baseline.parameters, place, name);
				const atDefault = withInput(without, place, name, field.property.default);
				const [expected, actual] = [
					await requestOf(endpoint, without, version, baseline.binary),
					await requestOf(endpoint, atDefault, version, baseline.binary),
				];
				if (actual !== expected)
					offenders.push(`${labelOf(field)} left at ${JSON.stringify(field.property.default)} sent ${actual}`);
			}
			expect(offenders).toEqual([]);
		},
	);
});
