import { ENDPOINTS, findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { extrasGroupOf, optionalGroupOf } from '../../nodes/AgencyCrm/catalogue/form';
import { takesBody } from '../../nodes/AgencyCrm/catalogue/nodeOptions';
import { keyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import type { Endpoint, FieldSpec, Problem, RuleSource } from '../../nodes/AgencyCrm/catalogue/types';
import { padded, png } from '../support/fixtures/images';
import type { Parameters } from '../support/cases/baseline';
import { baselineOf, inCollection, operationKey, prepareItem, withField } from '../support/cases/baseline';
import type { Binary } from '../support/fakeN8n';
import { useRunner } from '../support/inprocess/runner';

/**
 * Issue 11, "Bad input table": every rule the spec states, on every operation it applies to, and
 * malformed input (wrong types, empty ids, non-numeric ids where the spec types them as integers,
 * `.` and `..` as ids, invalid JSON in every JSON field, missing or non-image binaries). Each case
 * starts from the in-process case of its operation and breaks one thing. All cases run as the items
 * of one run with Continue On Fail: each must give an error naming the field, and the sandbox must
 * have received nothing at all.
 */

interface BadInput {
	name: string;
	parameters: Parameters;
	binary?: Record<string, Binary>;
	/** What the error must contain: the field as the user sees it. */
	field: string;
}

/** Spec: "Path hookId integer", "eventId integer", "agency_id integer", "user_id integer". */
const SPEC_INTEGER_IDS = ['hookId', 'eventId', 'agencyId', 'userId'];
/** Spec sections 4 and 8: product photos and user photos are images. */
const IMAGE_UPLOADS = ['product:uploadPublicPicture', 'product:uploadPrivatePicture', 'user:uploadPhoto'];
const TWENTY_MB = 20_000_000;

const shown = (field: FieldSpec) => `"${field.property.displayName}"`;

function baseline(key: string) {
	const [resource, operation] = key.split(':');
	const found = baselineOf(resource, operation);
	if (!found) throw new Error(`no in-process case for ${key}`);
	return found;
}

/**
 * One broken input of an operation: top-level parameters replaced, options of its collections added,
 * binary data added to the item's.
 */
function bad(
	key: string,
	name: string,
	field: string,
	change: { top?: Parameters; options?: Parameters; extras?: Parameters; binary?: Record<string, Binary> },
): BadInput {
	const { endpoint, parameters, binary } = baseline(key);
	let broken = { ...parameters, ...change.top };
	if (change.options) broken = inCollection(broken, optionalGroupOf(endpoint), change.options);
	if (change.extras) broken = inCollection(broken, extrasGroupOf(endpoint), change.extras);
	return { name: `${key}: ${name}`, parameters: broken, binary: { ...binary, ...change.binary }, field };
}

// ---- Malformed input, generated over the whole catalogue ----

function setField(endpoint: Endpoint, field: FieldSpec, value: unknown, name: string): BadInput {
	const { parameters, binary } = baseline(operationKey(endpoint));
	return {
		name: `${operationKey(endpoint)}: ${shown(field)} ${name}`,
		parameters: withField(endpoint, parameters, field, value),
		binary,
		field: shown(field),
	};
}

const pathFields = (endpoint: Endpoint) => endpoint.fields.filter((field) => field.in === 'path');

const malformedIds = ENDPOINTS.flatMap((endpoint) => [
	...pathFields(endpoint).flatMap((field) =>
		[
			['', 'is empty'],
			['.', 'is "."'],
			['..', 'is ".."'],
			[' .. ', 'is " .. "'],
		].map(([value, name]) => setField(endpoint, field, value, name)),
	),
	...endpoint.fields
		.filter((field) => SPEC_INTEGER_IDS.includes(field.property.name))
		.flatMap((field) =>
			[
				['12x', 'is not a number'],
				['1e3', 'is a number in exponent form'],
				['-4', 'is negative'],
				...(field.in === 'path' ? [['12/34', 'holds a slash']] : []),
			].map(([value, name]) => setField(endpoint, field, value, name)),
		),
]);

const EXTRA_QUERY = '"Extra Query Parameters (JSON)"';
const EXTRA_BODY = '"Extra Body Fields (JSON)"';

const invalidJson = ENDPOINTS.flatMap((endpoint) => {
	const key = operationKey(endpoint);
	const hatches: Array<[string, string]> = [
		['extraQueryJson', EXTRA_QUERY],
		...(takesBody(endpoint) ? [['extraBodyJson', EXTRA_BODY] as [string, string]] : []),
	];
	return hatches.flatMap(([name, field]) => [
		bad(key, `${field} is not JSON`, field, { extras: { [name]: '{"lang": "fr"' } }),
		bad(key, `${field} is a list, not an object`, field, { extras: { [name]: '["lang", "fr"]' } }),
	]);
});

const PDF: Binary = { data: Buffer.from('%PDF-1.7\n'), fileName: 'contract.pdf', mimeType: 'application/pdf' };

const badFiles = ENDPOINTS.flatMap((endpoint) =>
	endpoint.fields
		.filter((field) => field.in === 'file')
		.flatMap((field) => {
			const cases = [setField(endpoint, field, 'not-attached', 'names a binary field the item does not have')];
			if (IMAGE_UPLOADS.includes(operationKey(endpoint))) {
				const nonImage = setField(endpoint, field, 'document', 'holds a PDF, not an image');
				cases.push({ ...nonImage, binary: { ...nonImage.binary, document: PDF } });
			}
			return cases;
		}),
);

const badPaging = ENDPOINTS.filter((endpoint) => endpoint.pagination).flatMap((endpoint) => {
	const key = operationKey(endpoint);
	return [
		bad(key, 'Limit is text', '"Limit"', { top: { returnAll: false, limit: 'ten' } }),
		bad(key, 'Limit is 0', '"Limit"', { top: { returnAll: false, limit: 0 } }),
		bad(key, 'Page Size is 0', '"Page Size"', { extras: { perPage: 0 } }),
		bad(key, 'Page Size is text', '"Page Size"', { extras: { perPage: 'many' } }),
		...(endpoint.paginationModes
			? [bad(key, 'Pagination Mode is unknown', '"Pagination Mode"', { extras: { paginationMode: 'page' } })]
			: []),
	];
});

/** An update that names no field would change nothing (issue 9, defect 2), on every update. */
const emptyUpdates = ENDPOINTS.filter((endpoint) => ['PATCH', 'PUT'].includes(endpoint.method)).map((endpoint) => {
	const { parameters } = baseline(operationKey(endpoint));
	// Body fields of their own left empty too (the change of Archive or Restore Event).
	const ownBodyFields = endpoint.fields.filter((field) => field.in === 'body' && field.placement === 'top');
	return {
		name: `${operationKey(endpoint)}: nothing to change`,
		parameters: {
			...parameters,
			...Object.fromEntries(ownBodyFields.map((field) => [field.property.name, ''])),
			[optionalGroupOf(endpoint)]: {},
		},
		field: '"Additional Fields"',
	};
});

// ---- What the spec states, operation by operation ----

const recurrence = (rule: Parameters) => ({
	recurrence: { rule: { dtstart: '2026-12-01T09:00:00Z', freq: 'weekly', interval: 1, ...rule } },
});
const participants = (...rows: Array<[number | string, boolean, boolean]>) => ({
	participants: {
		participant: rows.map(([userId, isOrganizer, isCreator]) => ({ userId, isOrganizer, isCreator })),
	},
});

/**
 * The spec's event rules, on Create Event (the fields a new event needs are parameters of their own,
 * required) and on Update Event (the same fields, each optional: production evidence).
 */
function eventRules(key: string, isNew: boolean): BadInput[] {
	const essential = (change: Parameters) => (isNew ? { top: change } : { options: change });
	const requiredOnCreate = (cases: BadInput[]) => (isNew ? cases : []);
	return [
		...requiredOnCreate([
			bad(key, 'no type', '"Type Name or ID"', { top: { eventType: '' } }),
			bad(key, 'no start', '"Starts At"', { top: { startsAt: '' } }),
			bad(key, 'no end', '"Ends At"', { top: { endsAt: '' } }),
			bad(key, 'no all-day flag', '"All Day"', { top: { allDay: '' } }),
		]),
		bad(key, 'type given as a number in the extra JSON', `${EXTRA_BODY} (type)`, {
			...essential({ eventType: '' }),
			extras: { extraBodyJson: '{"type": 1}' },
		}),
		bad(key, 'a start that is not a date-time', '"Starts At"', essential({ startsAt: 'next Tuesday' })),
		bad(key, 'an end that is not a date-time', '"Ends At"', essential({ endsAt: '2026-12-01 at noon' })),
		bad(
			key,
			'an end before the start',
			'"Ends At"',
			essential({ startsAt: '2026-12-01T10:00:00+01:00', endsAt: '2026-12-01T08:00:00Z' }),
		),
		bad(
			key,
			'an end equal to the start',
			'"Ends At"',
			essential({ startsAt: '2026-12-01T10:00:00+01:00', endsAt: '2026-12-01T09:00:00Z' }),
		),
		bad(key, 'an all-day flag that is text', '"All Day"', essential({ allDay: 'yes' })),
		bad(key, 'no organizer', '"Participants"', essential(participants([1002, false, true]))),
		bad(key, 'two organizers', '"Participants"', essential(participants([1002, true, true], [1003, true, false]))),
		bad(key, 'no creator', '"Participants"', essential(participants([1002, true, false]))),
		bad(key, 'two creators', '"Participants"', essential(participants([1002, true, true], [1003, false, true]))),
		bad(
			key,
			'a user listed twice',
			'"Participants"',
			essential(participants([1002, true, true], [1002, false, false])),
		),
		bad(
			key,
			'a participant whose user ID is not a number',
			'"Participants"',
			essential(participants(['Nina', true, true])),
		),
		bad(key, 'a location without longitude', '"Location Geo" Longitude', {
			options: { locationGeo: { point: { lat: 45.77 } } },
		}),
		bad(key, 'a latitude above 90', '"Location Geo" Latitude', {
			options: { locationGeo: { point: { lat: 91, lng: 4.83 } } },
		}),
		bad(key, 'a longitude below -180', '"Location Geo" Longitude', {
			options: { locationGeo: { point: { lat: 45.77, lng: -181 } } },
		}),
		...[
			['title', '"Title"'],
			['location', '"Location"'],
			['notes', '"Notes"'],
			['visioUrl', '"Video Call URL"'],
			['visit360OrganizerUrl', '"Virtual Visit Organizer URL"'],
			['visit360ParticipationUrl', '"Virtual Visit Participation URL"'],
		].map(([name, field]) => bad(key, `${field} is a number, not text`, field, { options: { [name]: 42 } })),
		...(
			[
				['sequenceDuration', '"Sequence Duration"', 'half an hour'],
				['gatheringGauge', '"Gathering Gauge"', 2.5],
				['commuteDuration', '"Commute Duration"', '10 min'],
				['remindTimeInMin', '"Reminder"', 7.5],
				['parentId', '"Parent ID"', 'first'],
			] as Array<[string, string, unknown]>
		).map(([name, field, value]) => bad(key, `${field} is not a whole number`, field, { options: { [name]: value } })),
		...[
			['communicateLocation', '"Communicate Location"'],
			['isConfidential', '"Is Confidential"'],
			['archived', '"Archived"'],
		].map(([name, field]) => bad(key, `${field} is text`, field, { options: { [name]: 'true' } })),
		bad(key, 'an appointment mode off the spec list', '"Appointment Mode"', { options: { appointmentMode: 'HOME' } }),
		bad(key, 'a recurrence without start', '"Recurrence" Start', { options: recurrence({ dtstart: '' }) }),
		bad(key, 'a recurrence with an unknown frequency', '"Recurrence" Frequency', {
			options: recurrence({ freq: 'fortnightly' }),
		}),
		bad(key, 'a recurrence with interval 0', '"Recurrence" Interval', { options: recurrence({ interval: 0 }) }),
		bad(key, 'a recurrence with both count and until', '"Recurrence" Until', {
			options: recurrence({ count: 3, until: '2027-01-01T00:00:00Z' }),
		}),
		bad(key, 'a recurrence whose until is not a date-time', '"Recurrence" Until', {
			options: recurrence({ until: 'Christmas' }),
		}),
		bad(key, 'a recurrence with a negative count', '"Recurrence" Count', { options: recurrence({ count: -2 }) }),
		bad(key, 'a recurrence with an unknown weekday', '"Recurrence" By Weekday', {
			options: recurrence({ byweekday: ['MO', 'XX'] }),
		}),
		bad(key, 'a recurrence with a weekday index of 7', '"Recurrence" By Nth Weekday (JSON)', {
			options: recurrence({ bynweekday: '[[7, 1]]' }),
		}),
		bad(key, 'a recurrence whose By Nth Weekday is not JSON', '"Recurrence" By Nth Weekday (JSON)', {
			options: recurrence({ bynweekday: '[[0, 1]' }),
		}),
		...[
			['bymonth', '"Recurrence" By Month', '1, July'],
			['bymonthday', '"Recurrence" By Month Day', '1, last'],
			['bynmonthday', '"Recurrence" By Month Day From End', '-1.5'],
			['byyearday', '"Recurrence" By Year Day', 'first'],
			['byweekno', '"Recurrence" By Week Number', '27, W28'],
			['bysetpos', '"Recurrence" By Set Position', 'last'],
		].map(([part, field, value]) =>
			bad(key, `a recurrence whose ${field} is not whole numbers`, field, { options: recurrence({ [part]: value }) }),
		),
		bad(key, 'a recurrence excluding a date that is not a date-time', '"Recurrence" Excluded Dates', {
			options: recurrence({ exdate: '2026-12-08T09:00:00Z, tomorrow' }),
		}),
	];
}

const calendarRules: BadInput[] = [
	...eventRules('calendar:createEvent', true),
	...eventRules('calendar:updateEvent', false),
	bad('calendar:getPermanenceTimeframe', 'no agency', '"Agency"', { top: { agencyId: '' } }),
];

const PASSWORD = '"Password"';
const passwordRules: BadInput[] = [
	['short', '11 characters', 'Sh0rt&Pass!'],
	['long', '41 characters', `Aa1!${'x'.repeat(37)}`],
	['lowercase', 'no uppercase letter', 'str0ng&secret!'],
	['uppercase', 'no lowercase letter', 'STR0NG&SECRET!'],
	['digit', 'no digit', 'Strong&Secret!'],
	['special', 'no special character', 'Str0ngSecret12'],
].flatMap(([, name, password]) => [
	bad('user:create', `a password with ${name}`, PASSWORD, { top: { password } }),
	bad('user:update', `a password with ${name}`, PASSWORD, { options: { password } }),
]);
passwordRules.push(
	bad('user:update', 'a short password in the extra JSON', `${EXTRA_BODY} (password)`, {
		options: { extraBodyJson: '{"password": "short"}' },
	}),
);

const photo = (width: number, bytes?: number): Binary => {
	const image = png(width, 600);
	return { data: bytes ? padded(image, bytes) : image, fileName: 'photo.png', mimeType: 'image/png' };
};
const uploadRules: BadInput[] = [
	...['product:uploadPublicPicture', 'product:uploadPrivatePicture'].flatMap((key) => [
		bad(key, 'no binary field named', '"Input Binary Field"', { top: { binaryPropertyName: '' } }),
		bad(key, 'a photo 799 px wide', '"Input Binary Field"', { binary: { data: photo(799) } }),
		bad(key, 'a photo of 20,000,001 bytes', '"Input Binary Field"', {
			binary: { data: photo(1200, TWENTY_MB + 1) },
		}),
	]),
	...[
		['profilePictureBinaryField', '"Profile Picture Input Binary Field"'],
		['signaturePictureBinaryField', '"Signature Picture Input Binary Field"'],
	].map(([name, field]) =>
		bad('user:uploadPhoto', `${field} holds 20,000,001 bytes`, field, {
			options: { [name]: 'big' },
			binary: { big: photo(400, TWENTY_MB + 1) },
		}),
	),
	bad('user:uploadPhoto', 'neither picture', '"Profile Picture" or "Signature Picture"', {
		top: { additionalFields: {} },
	}),
];

const WEBHOOK = 'webhook:update';
const otherRules: BadInput[] = [
	bad('product:update', 'a product_id other than the path', `${EXTRA_BODY} (product_id)`, {
		extras: { extraBodyJson: '{"product_id": 5003}' },
	}),
	bad(WEBHOOK, 'a URL that is a number', '"URL"', { options: { url: 42 } }),
	bad(WEBHOOK, 'events that are not a list', `${EXTRA_BODY} (origines)`, {
		options: { origines: undefined, extraBodyJson: '{"origines": "PRODUCT_UPDATE"}' },
	}),
	bad(WEBHOOK, 'headers that are not an object', `${EXTRA_BODY} (headers)`, {
		options: { extraBodyJson: '{"headers": ["X-Token: abc"]}' },
	}),
	bad(WEBHOOK, 'an auth ID that is not a whole number', '"Auth ID"', { options: { authId: 1.5 } }),
	bad(WEBHOOK, 'a format that is a number', '"Format"', { options: { format: 7 } }),
	bad(WEBHOOK, 'a field to clear that the spec does not make nullable', '"Clear Fields"', {
		options: { clearFields: ['url'] },
	}),
	bad('customer:upsert', 'no email nor phone to find the contact by', '"Email", "Phone" or "Mobile Phone"', {
		top: { additionalFields: {} },
	}),
];

const CASES: BadInput[] = [
	...malformedIds,
	...invalidJson,
	...badFiles,
	...badPaging,
	...emptyUpdates,
	...calendarRules,
	...passwordRules,
	...uploadRules,
	...otherRules,
];

/** The problems prepareRequest reports for a case (none when it prepares a request). */
async function problemsOf(input: BadInput): Promise<Problem[]> {
	const endpoint = findEndpoint(String(input.parameters.resource), String(input.parameters.operation))!;
	return await prepareItem(endpoint, input.parameters, input.binary).then(
		() => [],
		(error: unknown) => (error instanceof InputError ? error.problems : Promise.reject(error)),
	);
}

/** What the spec states for an operation: every spec-sourced rule, option list, requirement and check. */
function specRulesOf(endpoint: Endpoint): string[] {
	const key = operationKey(endpoint);
	const of = (target: string, source: RuleSource | undefined) =>
		source && 'spec' in source ? [`${key} ${target} ${source.spec}`] : [];
	// A field's parts (a recurrence rule, a point) are fields of their own, under `parent.part`.
	const stated = (field: FieldSpec, target: string): string[] => [
		...(field.rules ?? []).flatMap((rule) => of(target, rule.source)),
		...of(target, field.values),
		...of(target, field.required),
		...(field.parts ?? []).flatMap((part) => stated(part, `${target}.${keyOf(part)}`)),
	];
	return [
		...endpoint.fields.flatMap((field) => stated(field, keyOf(field))),
		...(endpoint.checks ?? []).flatMap((check) => of('(check)', check.source)),
	];
}

const runner = useRunner();

test('every rule the spec states is broken by a case, on every operation it applies to', async () => {
	const broken = new Set<string>();
	for (const input of CASES) {
		const key = `${String(input.parameters.resource)}:${String(input.parameters.operation)}`;
		for (const problem of await problemsOf(input)) {
			if (!('spec' in problem.source)) continue;
			const target = /\(([\w.]+)\)$/.exec(problem.field)?.[1];
			broken.add(`${key} ${target} ${problem.source.spec}`).add(`${key} (check) ${problem.source.spec}`);
		}
	}
	const unbroken = ENDPOINTS.flatMap(specRulesOf).filter((rule) => !broken.has(rule));
	expect(unbroken).toEqual([]);
});

test('the bad input table: each case gives an error naming the field (each problem once, several one per line), and nothing is sent', async () => {
	const result = await runner.run(
		CASES.map((input) => input.parameters),
		{ binaries: CASES.map((input) => input.binary ?? {}), continueOnFail: true },
	);
	const unclear = CASES.filter((input, index) => {
		const item = result.items[index];
		const error = String(item?.json.error ?? '');
		const description = String(item?.json.description ?? '');
		const problems = error.replace(/^Invalid input: /, '').split('; ');
		// Several problems come one per line, then what to do; one alone is the message.
		const lines = description.split('\n');
		const listed = lines.slice(0, -1);
		const clear =
			item?.pairedItem !== undefined &&
			(item.pairedItem as { item: number }).item === index &&
			error.startsWith('Invalid input: ') &&
			error.includes(input.field) &&
			new Set(problems).size === problems.length &&
			(listed.length === 0 || (listed.length > 1 && listed.join('; ') === error.replace(/^Invalid input: /, ''))) &&
			lines[lines.length - 1].startsWith('Nothing was sent to Agency CRM.');
		return !clear;
	});
	const line = `${CASES.length} cases, ${CASES.length - unclear.length} clear errors, ${result.logged.length} requests sent`;
	process.stdout.write(`${line}\n`);
	expect(unclear.map((input) => input.name)).toEqual([]);
	expect(result.items).toHaveLength(CASES.length);
	expect(line).toBe(`${CASES.length} cases, ${CASES.length} clear errors, 0 requests sent`);
});

test('limits are inclusive: a photo of exactly 20,000,000 bytes and 800 px wide is prepared', async () => {
	for (const key of ['product:uploadPublicPicture', 'user:uploadPhoto']) {
		const { parameters } = baseline(key);
		const name = key === 'user:uploadPhoto' ? 'portrait' : 'data';
		const problems = await problemsOf({
			name: key,
			parameters,
			binary: { [name]: photo(800, TWENTY_MB) },
			field: '',
		});
		expect(problems).toEqual([]);
	}
});

test('an id with "/" or "\\" that the spec does not type as an integer is refused before sending, naming its field (issue 17, point 9)', async () => {
	const targets = ENDPOINTS.flatMap((endpoint) =>
		pathFields(endpoint)
			.filter((field) => !SPEC_INTEGER_IDS.includes(field.property.name))
			.map((field) => ({ endpoint, field })),
	);
	expect(targets.length).toBeGreaterThan(0);
	for (const { endpoint, field } of targets) {
		const { parameters, binary } = baseline(operationKey(endpoint));
		for (const value of ['../hooks', 'A\\B']) {
			const result = await runner.run([withField(endpoint, parameters, field, value)], {
				binaries: binary ? [binary] : [],
				continueOnFail: true,
			});
			expect({
				operation: operationKey(endpoint),
				sent: result.requests.length,
				error: result.output[0].error,
			}).toEqual({
				operation: operationKey(endpoint),
				sent: 0,
				error: expect.stringMatching(/^Invalid input: ".*" \(\w+\) cannot contain "\/" or "\\"$/),
			});
		}
	}
});
