import { productionEventOf } from '../../../nodes/shared/events';
import { problemsOf, readSettings } from '../../../nodes/AgencyCrmTrigger/settings';

/** settings.ts: every parameter read once, and judged in one call. */
const read = (parameters: Record<string, unknown>) =>
	readSettings({
		getNodeParameter: ((name: string, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback) as never,
	});

describe('event names as production knows them (issue 33, point 4)', () => {
	test.each([
		['CUSTOMER_CREATE', 'CUSTOMER_CREATE'],
		['customer_update', 'CUSTOMER_UPDATE'],
		[' PRODUCT_DELETE ', 'PRODUCT_DELETE'],
		['property.updated', 'PRODUCT_UPDATE'],
		['Property.Created', 'PRODUCT_CREATE'],
		['property.deleted', 'PRODUCT_DELETE'],
		['contact.created', 'CUSTOMER_CREATE'],
		['customer.updated', 'CUSTOMER_UPDATE'],
		['product.update', 'PRODUCT_UPDATE'],
	])('%s is %s', (name, event) => {
		expect(productionEventOf(name)).toBe(event);
	});

	test.each([['contact.deleted'], ['CUSTOMER_DELETE'], ['property'], ['property.updated.now'], [''], [5], [null]])(
		'%p names no event production sends',
		(name) => {
			expect(productionEventOf(name)).toBeUndefined();
		},
	);
});

describe('readSettings', () => {
	test("version 1's defaults where a parameter is hidden or absent", () => {
		expect(read({ events: ['CUSTOMER_UPDATE'] })).toEqual({
			events: ['CUSTOMER_UPDATE'],
			unknownEvents: [],
			fetchFull: true,
			skipUnchanged: false,
			dropRepeats: false,
			catchUp: false,
			answeredByWorkflow: false,
			skipGone: false,
			relations: { customer: [], product: [] },
			ignored: [],
		});
	});

	test('each kind of record fetched with what is chosen and what Skip Unchanged compares; the catch-up only with Drop Repeated Deliveries', () => {
		const settings = read({
			events: 'PRODUCT_UPDATE, contact.created',
			skipUnchangedRecords: true,
			customerInclude: ['groups'],
			productFetch: ['criteria'],
			catchUp: true,
			whenRecordGone: 'skip',
			answer: 'workflow',
		});
		expect(settings).toMatchObject({
			events: ['CUSTOMER_CREATE', 'PRODUCT_UPDATE'],
			skipUnchanged: true,
			catchUp: false,
			skipGone: true,
			answeredByWorkflow: true,
			ignored: ['updated_at', 'last_modified'],
			relations: {
				customer: ['groups', 'address', 'consent', 'stopSms'],
				product: ['criteres_text', 'criteres_number', 'criteres_fulltext', 'criteres_flag', 'products_photos'],
			},
		});
	});

	test("0.1.0's contact include search_requests is asked as production's searchRequests (issue 35)", () => {
		expect(
			read({ events: ['CUSTOMER_UPDATE'], customerInclude: ['search_requests', 'groups'] }).relations.customer,
		).toEqual(['searchRequests', 'groups']);
	});

	test('Skip Unchanged Records needs Fetch Full Record: off without it, with nothing compared', () => {
		expect(read({ events: ['CUSTOMER_UPDATE'], fetchFullRecord: false, skipUnchangedRecords: true })).toMatchObject({
			skipUnchanged: false,
			relations: { customer: [], product: [] },
			ignored: [],
		});
	});
});

describe('problemsOf', () => {
	test('none for production constants and dotted names', () => {
		expect(problemsOf(read({ events: ['property.updated', 'CUSTOMER_CREATE'] }))).toEqual([]);
	});

	test('Events empty, or holding names production does not send, named by its label', () => {
		expect(problemsOf(read({ events: [] }))).toEqual([
			'"Events" is required: a trigger with no event would never start its workflow',
		]);
		expect(problemsOf(read({ events: 'CUSTOMER_CREATE, customer.deleted' }))).toEqual([
			expect.stringMatching(/^"Events" holds "customer\.deleted", which Agency CRM does not send: use CUSTOMER_CREATE/),
		]);
	});
});
