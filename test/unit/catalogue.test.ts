import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { buildWireRequest } from '../../nodes/AgencyCrm/actions/buildRequest';
import { wireKeyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import { toApiRequest } from '../../nodes/AgencyCrm/actions/runEndpoint';
import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { ENDPOINTS, findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { fieldProperties, operationProperties } from '../../nodes/AgencyCrm/catalogue/describe';
import {
	endsAfterStarts,
	geoRules,
	participantRules,
	recurrenceRules,
} from '../../nodes/AgencyCrm/catalogue/resources/calendar';
import { RuleViolation } from '../../nodes/AgencyCrm/catalogue/rules';
import type { Endpoint, WireRequest } from '../../nodes/AgencyCrm/catalogue/types';
import { listSearch } from '../../nodes/AgencyCrm/methods/listSearch';
import { SPEC_ENDPOINTS as SPEC_LIST } from '../spec/endpoints';
import { loadOptions } from '../../nodes/AgencyCrm/methods/loadOptions';

const SPEC_ENDPOINTS = SPEC_LIST.map((endpoint) => `${endpoint.method} ${endpoint.path}`);

/** Placeholder names are ours to choose (`listeId` → `listId`): compare the shapes. */
const shape = (methodAndPath: string) => methodAndPath.replace(/\{\w+\}/g, '{}');
const methodAndPath = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const placeholders = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** The smallest IExecuteFunctions buildWireRequest needs: parameters from a plain object, a time zone. */
function fakeContext(parameters: IDataObject): IExecuteFunctions {
	return {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getTimezone: () => 'UTC',
	} as unknown as IExecuteFunctions;
}

async function wireOf(resource: string, operation: string, parameters: IDataObject): Promise<WireRequest> {
	const endpoint = findEndpoint(resource, operation);
	if (!endpoint) throw new Error(`no endpoint ${resource}:${operation}`);
	return await buildWireRequest(fakeContext(parameters), endpoint, 0);
}

async function violationsOf(resource: string, operation: string, parameters: IDataObject) {
	try {
		await wireOf(resource, operation, parameters);
	} catch (error) {
		if (error instanceof RuleViolation) return error.violations;
		throw error;
	}
	return [];
}

/** Every property at any depth (collections, fixedCollection groups). */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return allProperties(option.values);
			return 'displayName' in option && 'type' in option ? allProperties([option]) : [];
		});
		return [property, ...nested];
	});
}

describe('catalogue coverage', () => {
	test('the spec list holds 64 distinct endpoints', () => {
		expect(new Set(SPEC_ENDPOINTS).size).toBe(64);
	});

	test('the catalogue covers exactly the 64 endpoints of the spec', () => {
		const catalogue = new Set(ENDPOINTS.map((endpoint) => shape(methodAndPath(endpoint))));
		expect(catalogue.size).toBe(64);
		expect([...catalogue].sort()).toEqual(SPEC_ENDPOINTS.map(shape).sort());
	});

	test('only custom operations share an endpoint with another entry', () => {
		const plain = ENDPOINTS.filter((endpoint) => !endpoint.custom).map(methodAndPath);
		expect(new Set(plain).size).toBe(plain.length);
	});

	test('resource and operation pairs are unique', () => {
		const pairs = ENDPOINTS.map((endpoint) => `${endpoint.resource}:${endpoint.operation.value}`);
		expect(new Set(pairs).size).toBe(pairs.length);
	});

	test.each(ENDPOINTS.map((endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint]))(
		'%s: every path placeholder has a required path field, and every path field a placeholder',
		(_, endpoint) => {
			const pathFields = endpoint.fields.filter((field) => field.in === 'path');
			expect(pathFields.map((field) => field.property.name).sort()).toEqual(placeholders(endpoint.path).sort());
			for (const field of pathFields) expect(field.property.required).toBe(true);
		},
	);

	test('the node offers exactly the resources of the catalogue', () => {
		const resourceParameter = new AgencyCrm().description.properties.find((property) => property.name === 'resource');
		const offered = (resourceParameter?.options ?? []).map((option) => (option as { value: string }).value);
		expect(offered.sort()).toEqual([...new Set(ENDPOINTS.map((endpoint) => endpoint.resource))].sort());
	});
});

describe('catalogue conventions', () => {
	test('Get Many operations are named and described the n8n way', () => {
		for (const endpoint of ENDPOINTS.filter((candidate) => candidate.operation.value === 'getAll')) {
			expect(endpoint.operation.name).toBe('Get Many');
			expect(endpoint.operation.action).toMatch(/^Get many /);
		}
	});

	test('deletions output {deleted: true}; consent revocation is not a deletion', () => {
		for (const endpoint of ENDPOINTS.filter((candidate) => candidate.method === 'DELETE')) {
			const expected = endpoint.resource === 'consent' ? undefined : 'deleted';
			expect([methodAndPath(endpoint), endpoint.output]).toEqual([methodAndPath(endpoint), expected]);
		}
	});

	test('every operation has a name, an action and a description', () => {
		for (const { operation } of ENDPOINTS) {
			expect(operation.name && operation.action && operation.description).toBeTruthy();
		}
	});

	test('wire keys are snake_case (dotted for nested objects)', () => {
		for (const endpoint of ENDPOINTS) {
			for (const field of endpoint.fields.filter((candidate) => candidate.in !== 'path')) {
				expect(wireKeyOf(field)).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
			}
		}
	});
});

describe('generated properties', () => {
	const properties = [...operationProperties(ENDPOINTS), ...fieldProperties(ENDPOINTS)];

	test('no two properties share a name and display conditions', () => {
		const keys = properties.map((property) => `${property.name} ${JSON.stringify(property.displayOptions)}`);
		const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
		expect(repeated).toEqual([]);
	});

	test('options inside each collection have distinct names', () => {
		for (const property of properties.filter((candidate) => candidate.type === 'collection')) {
			const names = (property.options as INodeProperties[]).map((option) => option.name);
			expect([property.displayOptions, names.length]).toEqual([property.displayOptions, new Set(names).size]);
		}
	});

	test('every dropdown and searchable list has its method', () => {
		for (const property of allProperties(properties)) {
			const method = property.typeOptions?.loadOptionsMethod;
			if (method) expect(Object.keys(loadOptions)).toContain(method);
		}
		const searchMethods = allProperties(properties).flatMap((property) =>
			(property.modes ?? []).map((mode) => mode.typeOptions?.searchListMethod).filter(Boolean),
		);
		expect(searchMethods.length).toBeGreaterThan(0);
		for (const method of searchMethods) expect(Object.keys(listSearch)).toContain(method);
	});
});

describe('product update: product_id in the body', () => {
	test('the node adds the path value to the body', async () => {
		const wire = await wireOf('product', 'update', { productId: '5001', additionalFields: { price: 250000 } });
		expect(wire.path).toBe('/products/5001');
		expect(wire.body).toEqual({ price: 250000, product_id: 5001 });
	});

	test('a different product_id in the extra JSON is refused before any request', async () => {
		const violations = await violationsOf('product', 'update', {
			productId: '5001',
			additionalFields: { extraBodyJson: '{"product_id": 999}' },
		});
		expect(violations).toEqual([
			{
				field: '"Extra Body Fields (JSON)" (product_id)',
				message: expect.stringContaining('must equal the Product (5001)'),
			},
		]);
	});

	test('the deprecated camelCase productId is checked too; the same value passes', async () => {
		expect(
			await violationsOf('product', 'update', {
				productId: '5001',
				additionalFields: { extraBodyJson: '{"productId": 7}' },
			}),
		).toHaveLength(1);
		const wire = await wireOf('product', 'update', {
			productId: '5001',
			additionalFields: { extraBodyJson: '{"product_id": "5001"}' },
		});
		expect(wire.body.product_id).toBe(5001);
	});
});

describe('calendar event checks', () => {
	const body = (fields: IDataObject): WireRequest => ({
		method: 'POST',
		path: '/calendar/events',
		pathParams: {},
		qs: {},
		body: fields,
		files: [],
	});
	const organizerAndCreator = { user_id: 1001, is_organizer: true, is_creator: true };

	test('ends must come after starts', () => {
		expect(endsAfterStarts(body({ starts_at: '2026-05-01T10:00:00Z', ends_at: '2026-05-01T11:00:00Z' }))).toEqual([]);
		expect(endsAfterStarts(body({ starts_at: '2026-05-01T10:00:00Z', ends_at: '2026-05-01T10:00:00Z' }))).toEqual([
			{ field: '"Ends At" (ends_at)', message: expect.stringContaining('must be after') },
		]);
	});

	test('participants: one organizer, one creator, each user once, at least one', () => {
		expect(participantRules(body({ users: [organizerAndCreator] }))).toEqual([]);
		expect(
			participantRules(
				body({
					users: [
						{ user_id: 1001, is_organizer: true, is_creator: false },
						{ user_id: 1002, is_organizer: false, is_creator: true },
					],
				}),
			),
		).toEqual([]);
		const messages = (users: IDataObject[]) => participantRules(body({ users })).map((violation) => violation.message);
		expect(messages([])).toEqual(['needs at least one participant']);
		expect(messages([{ user_id: 1001, is_organizer: false, is_creator: true }])).toEqual([
			'must have exactly one organizer (has 0)',
		]);
		expect(messages([organizerAndCreator, { user_id: 1002, is_organizer: true, is_creator: true }])).toEqual([
			'must have exactly one organizer (has 2)',
			'must have exactly one creator (has 2)',
		]);
		expect(messages([organizerAndCreator, { user_id: 1001, is_organizer: false, is_creator: false }])).toEqual([
			'lists user 1001 more than once',
		]);
		expect(messages([{ ...organizerAndCreator, user_id: 'undefined' }])).toEqual([
			'needs a user ID (a whole number) on every row',
		]);
	});

	test('location_geo needs both coordinates, in range', () => {
		expect(geoRules(body({ location_geo: { lat: 45.76, lng: 4.83 } }))).toEqual([]);
		expect(geoRules(body({ location_geo: { lat: 45.76, lng: undefined } }))).toEqual([
			{ field: '"Location Geo" Longitude (location_geo.lng)', message: 'is required' },
		]);
		expect(geoRules(body({ location_geo: { lat: 91, lng: -181 } })).map((violation) => violation.message)).toEqual([
			'must be a number from -90 to 90',
			'must be a number from -180 to 180',
		]);
	});

	test('recurrence: required parts, count or until, weekday codes and pairs', () => {
		const valid = { dtstart: '2026-05-04T09:00:00Z', freq: 'weekly', interval: 1 };
		expect(recurrenceRules(body({ recurrence: { ...valid, count: 10, byweekday: ['MO', 'FR'] } }))).toEqual([]);
		expect(
			recurrenceRules(
				body({
					recurrence: {
						...valid,
						bynweekday: [
							[0, 1],
							[4, -1],
						],
					},
				}),
			),
		).toEqual([]);
		const fields = (recurrence: IDataObject) =>
			recurrenceRules(body({ recurrence })).map((violation) => violation.field.replace(/.*\((.*)\)$/, '$1'));
		expect(fields({})).toEqual(['recurrence.dtstart', 'recurrence.freq', 'recurrence.interval']);
		expect(fields({ ...valid, count: 3, until: '2026-06-01T00:00:00Z' })).toEqual(['recurrence.until']);
		expect(fields({ ...valid, freq: 'fortnightly', interval: 0 })).toEqual(['recurrence.freq', 'recurrence.interval']);
		expect(fields({ ...valid, byweekday: ['MO', 'XX'] })).toEqual(['recurrence.byweekday']);
		expect(fields({ ...valid, bynweekday: [[7, 1]] })).toEqual(['recurrence.bynweekday']);
		expect(fields({ ...valid, bynweekday: [[0]] })).toEqual(['recurrence.bynweekday']);
		expect(fields({ ...valid, bymonth: [1, Number.NaN] })).toEqual(['recurrence.bymonth']);
	});

	test('through the node parameters: the wire body and every broken rule at once', async () => {
		const parameters: IDataObject = {
			eventType: '1',
			startsAt: '2026-05-01T12:00:00+02:00',
			endsAt: '2026-05-01T11:30:00Z',
			allDay: false,
			participants: { participant: [{ userId: '1001', isOrganizer: true, isCreator: true }] },
			additionalFields: {
				locationGeo: { point: { lat: 45.76, lng: 4.83 } },
				products: '5001, 5002',
				recurrence: { rule: { dtstart: '2026-05-01T10:00:00Z', freq: 'weekly', interval: 1, byweekday: ['FR'] } },
			},
		};
		const wire = await wireOf('calendar', 'createEvent', parameters);
		expect(wire.body).toEqual({
			type: '1',
			starts_at: '2026-05-01T10:00:00Z',
			ends_at: '2026-05-01T11:30:00Z',
			all_day: false,
			users: [{ user_id: 1001, is_organizer: true, is_creator: true }],
			location_geo: { lat: 45.76, lng: 4.83 },
			products: [5001, 5002],
			recurrence: { dtstart: '2026-05-01T10:00:00Z', freq: 'weekly', interval: 1, byweekday: ['FR'] },
		});
		const violations = await violationsOf('calendar', 'createEvent', {
			...parameters,
			endsAt: '2026-05-01T09:00:00Z',
			participants: { participant: [{ userId: '1001', isOrganizer: false, isCreator: true }] },
			additionalFields: { recurrence: { rule: { freq: 'weekly', interval: 1, count: 2, until: '2026-06-01' } } },
		});
		expect(violations.map((violation) => violation.field)).toEqual([
			'"Ends At" (ends_at)',
			'"Participants" (users)',
			'"Recurrence" Start (recurrence.dtstart)',
			'"Recurrence" Until (recurrence.until)',
		]);
	});
});

describe('request bodies decided in docs/assumptions.md', () => {
	test('seller lead: customer and product nested, agency and request at the top', async () => {
		const wire = await wireOf('lead', 'createSeller', {
			agencyId: '101',
			transactionType: 'sale',
			propertyType: 'house',
			additionalFields: {
				email: 'ana@example.com',
				lastname: 'Martin',
				requestNature: 'Valuation',
				price: 320000,
				criteria: {
					criterion: [
						{ id: '9', value: 'C' },
						{ id: '10', value: '180' },
						{ id: 'xml_label', value: '"007"' },
					],
				},
			},
		});
		expect(wire.body).toEqual({
			agency_id: 101,
			request_nature: 'Valuation',
			customer: { lastname: 'Martin', email: 'ana@example.com' },
			product: {
				transaction_type: 'sale',
				property_type: 'house',
				price: 320000,
				criteria: [
					{ id: 9, value: 'C' },
					{ id: 10, value: 180 },
					{ id: 'xml_label', value: '007' },
				],
			},
		});
	});

	test('buyer lead: criteria become one search request; a contact needs a way to be found', async () => {
		const wire = await wireOf('lead', 'createBuyer', {
			agencyId: '101',
			additionalFields: {
				phone: '0601020304',
				transactionType: 'rental',
				criteria: { criterion: [{ id: '30', value: '[2, 3]' }] },
			},
		});
		expect(wire.body).toEqual({
			agency_id: 101,
			transaction_type: 'rental',
			customer: { phone: '0601020304' },
			search_requests: [{ criteria: [{ id: 30, value: [2, 3] }] }],
		});
		expect(await violationsOf('lead', 'createBuyer', { agencyId: '101', additionalFields: {} })).toHaveLength(1);
	});

	test('extra JSON merges into the nested objects; typed fields win', async () => {
		const wire = await wireOf('lead', 'createBuyer', {
			agencyId: '101',
			additionalFields: {
				email: 'ana@example.com',
				extraBodyJson: '{"customer": {"email": "old@example.com", "address": {"city": "Lyon"}}}',
			},
		});
		expect(wire.body.customer).toEqual({ email: 'ana@example.com', address: { city: 'Lyon' } });
	});

	test('consent proof travels as base64 JSON; picture titles as multipart text parts', () => {
		const file = { fileName: 'proof.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF') };
		const consent = findEndpoint('consent', 'set') as Endpoint;
		const wire: WireRequest = {
			method: 'POST',
			path: '/customers/10001/consent',
			pathParams: {},
			qs: {},
			body: { reason: 'Signed form' },
			files: [{ part: 'proof_file', file }],
		};
		expect(toApiRequest(consent, wire, 0)).toMatchObject({
			body: { reason: 'Signed form', proof_file: { file_name: 'proof.pdf', content_base64: 'JVBERg==' } },
			noRetryStatuses: [502],
		});
		const picture = findEndpoint('product', 'uploadPublicPicture') as Endpoint;
		const request = toApiRequest(picture, { ...wire, body: { title: 'Façade' }, files: [{ part: 'file', file }] }, 0);
		const text = (request.body as Buffer).toString('utf8');
		expect(text).toContain('name="title"\r\n\r\nFaçade\r\n');
		expect(text).toContain('name="file"; filename="proof.pdf"');
	});

	test('billing update sends dates as calendar dates and refuses an empty change', async () => {
		const wire = await wireOf('transaction', 'updateBilling', {
			compromisId: '7001',
			additionalFields: { paymentDate: '2026-03-31', conformity: false },
		});
		expect(wire.body).toEqual({ payment_date: '2026-03-31', conformity: false });
		expect(
			await violationsOf('transaction', 'updateBilling', { compromisId: '7001', additionalFields: {} }),
		).toHaveLength(1);
	});
});
