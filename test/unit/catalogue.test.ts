import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { toApiRequest } from '../../nodes/AgencyCrm/actions/runEndpoint';
import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { ENDPOINTS, findEndpoint, RESOURCES } from '../../nodes/AgencyCrm/catalogue';
import { fieldProperties, isRequiredParameter, operationProperties } from '../../nodes/AgencyCrm/catalogue/describe';
import { keyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import {
	endsAfterStarts,
	participantRules,
	PARTICIPANTS_OF_NEW_EVENT,
} from '../../nodes/AgencyCrm/catalogue/resources/calendar/checks';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import type { Check, Endpoint, PreparedRequest } from '../../nodes/AgencyCrm/catalogue/types';
import { listSearch } from '../../nodes/AgencyCrm/methods/listSearch';
import { loadOptions } from '../../nodes/AgencyCrm/methods/loadOptions';
import { fakeContext } from '../support/fakeN8n';
import { preparedRequest } from '../support/preparedRequests';
import { SPEC_ENDPOINTS as SPEC_LIST } from '../support/spec/endpoints';

const SPEC_ENDPOINTS = SPEC_LIST.map((endpoint) => `${endpoint.method} ${endpoint.path}`);

/** Placeholder names are ours to choose (`listeId` → `listId`): compare the shapes. */
const shape = (methodAndPath: string) => methodAndPath.replace(/\{\w+\}/g, '{}');
const methodAndPath = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const placeholders = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** The required fields of a calendar event, valid. */
const EVENT = { eventType: '1', startsAt: '2026-05-01T10:00:00Z', endsAt: '2026-05-01T11:00:00Z', allDay: false };

async function prepared(resource: string, operation: string, parameters: IDataObject): Promise<PreparedRequest> {
	const endpoint = findEndpoint(resource, operation);
	if (!endpoint) throw new Error(`no endpoint ${resource}:${operation}`);
	return await prepareRequest(fakeContext({ parameters, timezone: 'UTC' }).execute, endpoint, 0);
}

async function problemsOf(resource: string, operation: string, parameters: IDataObject) {
	try {
		await prepared(resource, operation, parameters);
	} catch (error) {
		if (error instanceof InputError) return error.problems.map(({ field, message }) => ({ field, message }));
		throw error;
	}
	return [];
}

/** A prepared request with only a body, for the checks across fields. */
const withBody = (body: IDataObject) => preparedRequest({ method: 'POST', path: '/calendar/events', body });
const testCheck = (candidate: Check, body: IDataObject) => candidate.test(withBody(body));

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
	test('the spec list holds distinct endpoints', () => {
		expect(new Set(SPEC_ENDPOINTS).size).toBe(SPEC_LIST.length);
	});

	test('the catalogue covers exactly the endpoints of the spec', () => {
		const catalogue = new Set(ENDPOINTS.map((endpoint) => shape(methodAndPath(endpoint))));
		expect(catalogue.size).toBe(SPEC_LIST.length);
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
			for (const field of pathFields) expect([field.placement, isRequiredParameter(field)]).toEqual(['top', true]);
		},
	);

	test('the node offers exactly the resources of the catalogue', () => {
		const resourceParameter = new AgencyCrm().description.properties.find((property) => property.name === 'resource');
		const offered = (resourceParameter?.options ?? []).map((option) => (option as { value: string }).value);
		expect(offered.sort()).toEqual([...new Set(ENDPOINTS.map((endpoint) => endpoint.resource))].sort());
	});

	test('each resource of the Resource list holds its own endpoints, and the list is sorted by name', () => {
		for (const resource of RESOURCES) {
			expect([resource.value, resource.endpoints.filter((endpoint) => endpoint.resource !== resource.value)]).toEqual([
				resource.value,
				[],
			]);
		}
		const resourceParameter = new AgencyCrm().description.properties.find((property) => property.name === 'resource');
		const names = (resourceParameter?.options ?? []).map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
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

	test('request keys are snake_case (dotted for nested objects)', () => {
		for (const endpoint of ENDPOINTS) {
			// A field sent as a criterion is named by the site's XML key (`criteria.TypeBien`); a search request's
			// `alertEmail` is spelled as production was seen to take it (docs/assumptions.md "Production evidence").
			const named = endpoint.fields.filter((candidate) => candidate.in !== 'path' && !candidate.criterion);
			for (const field of named.filter((candidate) => keyOf(candidate) !== 'alertEmail')) {
				expect(keyOf(field)).toMatch(/^[a-z0-9_]+(\[\])?(\.[a-z0-9_]+)*$/);
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

describe('product update: product_id in the body (spec section 4 "Products")', () => {
	test('the node adds the path value to the body', async () => {
		const request = await prepared('product', 'update', {
			productId: '5001',
			additionalFields: { reference: 'VA-17' },
		});
		expect(request.path).toBe('/products/5001');
		expect(request.body).toEqual({ model: 'VA-17', product_id: 5001 });
	});

	test('a different product_id in the extra JSON is refused before any request', async () => {
		expect(
			await problemsOf('product', 'update', {
				productId: '5001',
				additionalFields: { extraBodyJson: '{"product_id": 999}' },
			}),
		).toEqual([
			{
				field: '"Extra Body Fields (JSON)" (product_id)',
				message: expect.stringContaining('must equal the Product (5001)'),
			},
		]);
	});

	test('the same value passes; a camelCase productId goes as given (the snake_case key wins at the API)', async () => {
		const same = await prepared('product', 'update', {
			productId: '5001',
			additionalFields: { extraBodyJson: '{"product_id": "5001"}' },
		});
		expect(same.body.product_id).toBe('5001');
		const camel = await prepared('product', 'update', {
			productId: '5001',
			additionalFields: { extraBodyJson: '{"productId": 7}' },
		});
		expect(camel.body).toEqual({ productId: 7, product_id: 5001 });
	});
});

describe('calendar event checks (spec section 4 "Calendar")', () => {
	const organizerAndCreator = { user_id: 1001, is_organizer: true, is_creator: true };
	const participants = participantRules(PARTICIPANTS_OF_NEW_EVENT);

	test('ends must come after starts', () => {
		expect(testCheck(endsAfterStarts, { starts_at: '2026-05-01T10:00:00Z', ends_at: '2026-05-01T11:00:00Z' })).toEqual(
			[],
		);
		expect(testCheck(endsAfterStarts, { starts_at: '2026-05-01T10:00:00Z', ends_at: '2026-05-01T10:00:00Z' })).toEqual([
			{ field: '"Ends At" (ends_at)', message: expect.stringContaining('must be after') },
		]);
	});

	test('participants: one organizer, one creator, each user once; the list may be null', () => {
		expect(testCheck(participants, { users: [organizerAndCreator] })).toEqual([]);
		expect(testCheck(participants, { users: null })).toEqual([]);
		expect(
			testCheck(participants, {
				users: [
					{ user_id: 1001, is_organizer: true, is_creator: false },
					{ user_id: 1002, is_organizer: false, is_creator: true },
				],
			}),
		).toEqual([]);
		const messages = (users: IDataObject[]) => testCheck(participants, { users }).map((problem) => problem.message);
		expect(messages([])).toEqual(['must have exactly one organizer (has 0)', 'must have exactly one creator (has 0)']);
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
		expect(messages([{ ...organizerAndCreator, user_id: 'abc' }])).toEqual([
			'needs a user ID (a whole number) on every row',
		]);
	});

	/** An event otherwise valid, with these Additional Fields. */
	const eventWith = (additionalFields: IDataObject) =>
		problemsOf('calendar', 'createEvent', { ...EVENT, participants: {}, additionalFields });

	test('location_geo needs both coordinates, in range', async () => {
		const point = (point: IDataObject) => eventWith({ locationGeo: { point } });
		expect(await point({ lat: 45.76, lng: 4.83 })).toEqual([]);
		expect(await point({ lat: 45.76 })).toEqual([
			{ field: '"Location Geo" Longitude (location_geo.lng)', message: 'is required' },
		]);
		expect((await point({ lat: 91, lng: -181 })).map((problem) => problem.message)).toEqual([
			'must be a number from -90 to 90',
			'must be a number from -180 to 180',
		]);
		expect(await eventWith({ extraBodyJson: '{"location_geo": {"lat": 45.76}}' })).toEqual([
			{ field: '"Extra Body Fields (JSON)" (location_geo.lng)', message: 'is required' },
		]);
	});

	test('recurrence: required parts, count or until, weekday codes, pairs and UTC dates', async () => {
		const valid = { dtstart: '2026-05-04T09:00:00Z', freq: 'weekly', interval: 1 };
		const fields = async (rule: IDataObject) =>
			(await eventWith({ recurrence: { rule } })).map((problem) => problem.field.replace(/.*\((.*)\)$/, '$1'));
		expect(await fields({ ...valid, count: 10, byweekday: ['MO', 'FR'] })).toEqual([]);
		expect(await fields({ ...valid, bynweekday: '[[0, 1], [4, -1]]' })).toEqual([]);
		expect(await fields({})).toEqual(['recurrence.dtstart', 'recurrence.freq', 'recurrence.interval']);
		expect(await fields({ ...valid, count: 3, until: '2026-06-01T00:00:00Z' })).toEqual(['recurrence.until']);
		expect(await fields({ ...valid, freq: 'fortnightly', interval: 0 })).toEqual([
			'recurrence.freq',
			'recurrence.interval',
		]);
		expect(await fields({ ...valid, byweekday: ['MO', 'XX'] })).toEqual(['recurrence.byweekday']);
		expect(await fields({ ...valid, bynweekday: '[[7, 1]]' })).toEqual(['recurrence.bynweekday']);
		expect(await fields({ ...valid, bynweekday: '[[0]]' })).toEqual(['recurrence.bynweekday']);
		expect(await fields({ ...valid, bymonth: '1, x' })).toEqual(['recurrence.bymonth']);
		expect(await fields({ ...valid, exdate: '2026-05-11T09:00:00Z, tomorrow' })).toEqual(['recurrence.exdate']);
	});

	test('through the node parameters: the request body and every broken rule at once', async () => {
		const parameters: IDataObject = {
			eventType: 1,
			startsAt: '2026-05-01T12:00:00+02:00',
			endsAt: '2026-05-01T11:30:00Z',
			allDay: false,
			participants: { participant: [{ userId: '1001', isOrganizer: true, isCreator: true }] },
			additionalFields: {
				locationGeo: { point: { lat: 45.76, lng: 4.83 } },
				products: '5001, 5002',
				sequenceDuration: 0,
				recurrence: { rule: { dtstart: '2026-05-01T10:00:00Z', freq: 'weekly', interval: 1, byweekday: ['FR'] } },
			},
		};
		const request = await prepared('calendar', 'createEvent', parameters);
		expect(request.body).toEqual({
			// "type: string": an id that looks numeric still goes as text.
			type: '1',
			starts_at: '2026-05-01T10:00:00Z',
			ends_at: '2026-05-01T11:30:00Z',
			all_day: false,
			users: [{ user_id: 1001, is_organizer: true, is_creator: true }],
			location_geo: { lat: 45.76, lng: 4.83 },
			products: [5001, 5002],
			// The spec types it "integer or null", with no minimum: 0 is sent.
			sequence_duration: 0,
			recurrence: { dtstart: '2026-05-01T10:00:00Z', freq: 'weekly', interval: 1, byweekday: ['FR'] },
		});
		const problems = await problemsOf('calendar', 'createEvent', {
			...parameters,
			endsAt: '2026-05-01T09:00:00Z',
			participants: { participant: [{ userId: '1001', isOrganizer: false, isCreator: true }] },
			additionalFields: { recurrence: { rule: { freq: 'weekly', interval: 1, count: 2, until: '2026-06-01' } } },
		});
		// Each field's own rules first, then the rules across fields.
		expect(problems.map((problem) => problem.field)).toEqual([
			'"Recurrence" Start (recurrence.dtstart)',
			'"Ends At" (ends_at)',
			'"Participants" (users)',
			'"Recurrence" Until (recurrence.until)',
		]);
	});

	test('no participant row sends no participant key; a list in Extra Body goes under the key it is given (issue 17, point 11)', async () => {
		const event = { ...EVENT, participants: {} };
		const empty = await prepared('calendar', 'createEvent', { ...event, additionalFields: {} });
		expect('users' in empty.body).toBe(false);
		const renamed = await prepared('calendar', 'createEvent', {
			...event,
			additionalFields: {
				extraBodyJson: '{"the_service": [{"user_id": 1002, "is_creator": true, "is_organizer": true}]}',
			},
		});
		expect(renamed.body).toMatchObject({ the_service: [{ user_id: 1002 }] });
		expect('users' in renamed.body).toBe(false);
	});

	test('spec integers given as text go as numbers, typed or in Extra Body; other text is refused naming the field (issue 17, point 4)', async () => {
		const event = { ...EVENT, participants: { participant: [{ userId: '1002', isOrganizer: true, isCreator: true }] } };
		const typed = await prepared('calendar', 'createEvent', {
			...event,
			additionalFields: {
				sequenceDuration: '30',
				gatheringGauge: ' 4 ',
				commuteDuration: '15',
				remindTimeInMin: '0',
				parentId: '12',
			},
		});
		expect(typed.body).toMatchObject({
			sequence_duration: 30,
			gathering_gauge: 4,
			commute_duration: 15,
			remind_time_in_min: 0,
			parent_id: 12,
			users: [{ user_id: 1002, is_organizer: true, is_creator: true }],
		});
		const extra = await prepared('calendar', 'createEvent', {
			...event,
			participants: {},
			additionalFields: {
				extraBodyJson:
					'{"sequence_duration": "45", "users": [{"user_id": "1003", "is_creator": true, "is_organizer": true}]}',
			},
		});
		expect(extra.body).toMatchObject({ sequence_duration: 45, users: [{ user_id: 1003 }] });
		await expect(
			prepared('calendar', 'createEvent', { ...event, additionalFields: { commuteDuration: '15 min' } }),
		).rejects.toThrow('"Commute Duration" (commute_duration) must be a whole number');
		const hook = await prepared('webhook', 'update', { hookId: '7', additionalFields: { authId: '3' } });
		expect(hook.body).toEqual({ auth_id: 3 });
		const left = await prepared('webhook', 'update', { hookId: '7', additionalFields: { authId: '', format: 'x' } });
		expect('auth_id' in left.body).toBe(false);
	});

	test('a JSON part of the recurrence that is not JSON names itself, not the recurrence', async () => {
		expect(
			await problemsOf('calendar', 'createEvent', {
				eventType: '1',
				startsAt: '2026-05-01T10:00:00Z',
				endsAt: '2026-05-01T11:00:00Z',
				allDay: false,
				participants: {},
				additionalFields: {
					recurrence: { rule: { dtstart: '2026-05-01T10:00:00Z', freq: 'weekly', interval: 1, bynweekday: '[[0, 1]' } },
				},
			}),
		).toEqual([
			{
				field: '"Recurrence" By Nth Weekday (JSON) (recurrence.bynweekday)',
				message: expect.stringMatching(/^must be valid JSON/),
			},
		]);
	});
});

describe('request bodies decided in docs/assumptions.md', () => {
	test('seller lead: customer nested, agency and request at the top; the product’s criteria under product (resolved: test/unit/criteria.test.ts)', async () => {
		const request = await prepared('lead', 'createSeller', {
			agencyId: '101',
			transactionType: 'sale',
			propertyType: 'house',
			additionalFields: {
				email: 'ana@example.com',
				lastname: 'Martin',
				requestNature: 'Valuation',
				reference: 'VA-9',
				price: 320000,
				criteria: { criterion: [{ id: 'DPE', value: 'C' }] },
			},
		});
		expect(request.body).toEqual({
			agency_id: 101,
			request_nature: 'Valuation',
			customer: { lastname: 'Martin', email: 'ana@example.com' },
			// As typed: nothing of the site's criteria is read here.
			product: {
				model: 'VA-9',
				criteria: [
					{ id: 'TypeTransaction', value: 'sale' },
					{ id: 'TypeBien', value: 'house' },
					{ id: 'Prix', value: 320000 },
					{ id: 'DPE', value: 'C' },
				],
			},
		});
	});

	/** A buyer lead for agency 101 with these additional fields. */
	const buyerLead = (additionalFields: IDataObject) =>
		prepared('lead', 'createBuyer', { agencyId: '101', additionalFields });

	test('buyer lead: the transaction type at the top, criteria as one more search request; a contact without a way to be found is a hint', async () => {
		const request = await buyerLead({
			phone: '0601020304',
			transactionType: 'rental',
			criteria: { criterion: [{ id: 'Secteur', value: 'Lyon2e' }] },
		});
		expect(request.body).toEqual({
			agency_id: 101,
			transaction_type: 'rental',
			customer: { phone: '0601020304' },
			search_requests: [{ criteria: [{ id: 'Secteur', operator: 'EGAL', value: 'Lyon2e' }] }],
		});
		const anonymous = await buyerLead({});
		expect(anonymous.hints.map((hint) => hint.field)).toEqual(['"Last Name", "Email", "Phone" or "Mobile Phone"']);
	});

	test('extra JSON merges into the nested objects; typed fields win', async () => {
		const request = await buyerLead({
			email: 'ana@example.com',
			extraBodyJson: '{"customer": {"email": "old@example.com", "address": {"city": "Lyon"}}}',
		});
		expect(request.body.customer).toEqual({ email: 'ana@example.com', address: { city: 'Lyon' } });
	});

	test('issue 26: the consent travels as a form, proofs under proofs[]; picture titles as multipart text parts', () => {
		const file = { fileName: 'proof.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF') };
		const consent = findEndpoint('consent', 'set') as Endpoint;
		const request = preparedRequest({
			method: 'POST',
			path: '/customers/10001/consent',
			pathParams: { customerId: 10001 },
			body: { reason: 'Signed form', consent_date: '2026-05-01T08:00:00+00:00', accept_outside_hours: 1 },
			files: [
				{ part: 'proofs[]', file },
				{ part: 'proofs[]', file: { ...file, fileName: 'recording.mp3' } },
			],
		});
		const sent = toApiRequest(consent, request, 0);
		expect(sent.noRetryStatuses).toEqual([502]);
		const form = (sent.body as Buffer).toString('utf8');
		expect(form).toContain('name="reason"\r\n\r\nSigned form\r\n');
		expect(form).toContain('name="consent_date"\r\n\r\n2026-05-01T08:00:00+00:00\r\n');
		expect(form).toContain('name="accept_outside_hours"\r\n\r\n1\r\n');
		expect(form).toContain('name="proofs[]"; filename="proof.pdf"');
		expect(form).toContain('name="proofs[]"; filename="recording.mp3"');
		const withoutFiles = toApiRequest(consent, { ...request, files: [] }, 0);
		expect(String((withoutFiles.headers as IDataObject)['Content-Type'])).toMatch(/^multipart\/form-data; boundary=/);
		const picture = findEndpoint('product', 'uploadPublicPicture') as Endpoint;
		const upload = toApiRequest(
			picture,
			{ ...request, pathParams: { productId: 5001 }, body: { title: 'Façade' }, files: [{ part: 'file', file }] },
			0,
		);
		const text = (upload.body as Buffer).toString('utf8');
		expect(text).toContain('name="title"\r\n\r\nFaçade\r\n');
		expect(text).toContain('name="file"; filename="proof.pdf"');
	});

	test('billing update sends dates as calendar dates', async () => {
		const request = await prepared('transaction', 'updateBilling', {
			compromisId: '7001',
			additionalFields: { paymentDate: '2026-03-31', conformity: false },
		});
		expect(request.body).toEqual({ payment_date: '2026-03-31', conformity: false });
	});
});
