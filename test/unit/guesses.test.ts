import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { keyOf } from '../../nodes/AgencyCrm/catalogue/fields';
import { blocks, InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import type { Endpoint, FieldSpec, PreparedRequest, RuleSource } from '../../nodes/AgencyCrm/catalogue/types';
import type { Baseline, Parameters } from '../support/cases/baseline';
import { baselineOf, inCollection, operationKey, prepareItem, withField } from '../support/cases/baseline';
import type { Binary } from '../support/fakeN8n';

/**
 * Issue 9: a rule that comes from an assumption (a `guess` source) never refuses input. For every
 * guess in the catalogue (a field's rules, option values and requirement; the checks across fields),
 * input that breaks it is prepared from the in-process case of the operation: the request must be prepared, carry the value as given (or leave it out), and
 * a hint must name the field. A guess no input could break fails the test.
 */

const UNLISTED = 'unlisted-value';
/** Values tried against a guessed rule: the first it rejects, and that nothing else changes, is used. */
const CANDIDATES: unknown[] = ['not a date, nor an email', -1, 1.5, 99999, 'abc', true, 'a long title '.repeat(10)];
const ENV = { timezone: 'Europe/Paris' };
/** An image in a format whose header the node does not read, for the guesses on uploads. */
const UNREADABLE_IMAGE = 'avif';
const AVIF: Binary = { data: Buffer.from('....ftypavif'), fileName: 'photo.avif', mimeType: 'image/avif' };

const isGuess = (source: RuleSource | undefined): source is RuleSource => source !== undefined && !blocks(source);

/** What the editor holds when the field is left empty. */
function emptyValue(property: INodeProperties): unknown {
	if (property.type === 'fixedCollection' || property.type === 'collection') return {};
	return property.type === 'multiOptions' ? [] : '';
}

/** The criteria rows a body carries, wherever its endpoint places them (`criterias`, `product.criteria`…). */
function criteriaRowsIn(node: unknown): IDataObject[] {
	if (typeof node !== 'object' || node === null) return [];
	return Object.entries(node).flatMap(([key, value]) =>
		/^criterias?$/.test(key) && Array.isArray(value) ? (value as IDataObject[]) : criteriaRowsIn(value),
	);
}

/**
 * The value the prepared request carries for the field (a field sent as a criterion: its row's, as
 * typed, since nothing of the site's criteria is read here).
 */
function valueOf(request: PreparedRequest, field: FieldSpec): unknown {
	if (field.criterion) return criteriaRowsIn(request.body).find((row) => row.id === field.criterion?.keys[0])?.value;
	const source = field.in === 'query' ? request.qs : request.body;
	return keyOf(field)
		.split('.')
		.reduce<unknown>((node, key) => (node as IDataObject | undefined)?.[key], source);
}

/** A value the guessed rule rejects, that the field's conversion leaves as it is and no blocking rule rejects. */
function breakingValue(field: FieldSpec, test: (value: unknown) => string | undefined): unknown {
	const blocking = (field.rules ?? []).filter((candidate) => blocks(candidate.source));
	return CANDIDATES.find((candidate) => {
		const converted = field.convert ? field.convert(candidate, ENV) : { value: candidate };
		return (
			'value' in converted &&
			converted.value === candidate &&
			test(candidate) !== undefined &&
			blocking.every((rule) => rule.test(candidate) === undefined)
		);
	});
}

interface GuessCase {
	name: string;
	endpoint: Endpoint;
	/** The guess broken. */
	source?: RuleSource;
	/** Text a hint must contain to name the field (a check names its fields itself, quoted). */
	field: string;
	kind: 'rule' | 'values' | 'required' | 'check';
	/** The broken input, or undefined when none could be found (the case then fails). */
	parameters?: Parameters;
	binary?: Record<string, Binary>;
	/** What the prepared request must show. */
	expectSent?: (request: PreparedRequest) => void;
}

/** A calendar period whose end comes before its start. */
const ENDS_BEFORE_IT_STARTS = { from: '2025-11-10T00:00:00Z', to: '2025-11-03T00:00:00Z' };

/** Input that breaks each guessed check across fields, keyed by operation. */
const BREAKING_CHECKS: Record<string, (parameters: Parameters) => Parameters> = {
	'lead:createSeller': (parameters) => ({ ...parameters, additionalFields: {} }),
	'lead:createBuyer': (parameters) => ({ ...parameters, additionalFields: {} }),
	'user:deletePhoto': (parameters) => ({ ...parameters, profilePicture: false, signaturePicture: false }),
	'calendar:getAllEvents': (parameters) => inCollection(parameters, 'filters', ENDS_BEFORE_IT_STARTS),
	'calendar:getPermanenceUsers': (parameters) => inCollection(parameters, 'options', ENDS_BEFORE_IT_STARTS),
	'calendar:getUserAvailability': (parameters) => inCollection(parameters, 'options', ENDS_BEFORE_IT_STARTS),
};

function fieldCases(endpoint: Endpoint, baseline: Baseline | undefined): GuessCase[] {
	return endpoint.fields.flatMap((field) => {
		const named = `"${field.property.displayName}"`;
		const base = { endpoint, field: named, binary: baseline?.binary };
		const at = (value: unknown) => baseline && withField(endpoint, baseline.parameters, field, value);
		const found: GuessCase[] = [];
		for (const rule of (field.rules ?? []).filter((candidate) => isGuess(candidate.source))) {
			if (field.in === 'file') {
				found.push({
					...base,
					name: `${named} is an image the node cannot read`,
					kind: 'rule',
					source: rule.source,
					parameters: at(UNREADABLE_IMAGE),
					binary: { ...baseline?.binary, [UNREADABLE_IMAGE]: AVIF },
					expectSent: (request) => expect(request.files.map(({ file }) => file)).toContainEqual(AVIF),
				});
				continue;
			}
			const value = breakingValue(field, rule.test);
			found.push({
				...base,
				name: `${named} breaks its rule`,
				kind: 'rule',
				source: rule.source,
				parameters: value === undefined ? undefined : at(value),
				expectSent: (request) => expect(valueOf(request, field)).toEqual(value),
			});
		}
		if (isGuess(field.values)) {
			const value = field.property.type === 'multiOptions' ? [UNLISTED] : UNLISTED;
			found.push({
				...base,
				name: `${named} takes a value off its list`,
				kind: 'values',
				source: field.values,
				parameters: at(value),
				expectSent: (request) => expect([UNLISTED, [UNLISTED]]).toContainEqual(valueOf(request, field)),
			});
		}
		if (isGuess(field.required)) {
			found.push({
				...base,
				name: `${named} is left empty`,
				kind: 'required',
				source: field.required,
				parameters: at(emptyValue(field.property)),
				expectSent: (request) => expect(valueOf(request, field)).toBeUndefined(),
			});
		}
		return found;
	});
}

function endpointCases(endpoint: Endpoint, baseline: Baseline | undefined): GuessCase[] {
	const found = fieldCases(endpoint, baseline);
	for (const check of (endpoint.checks ?? []).filter((candidate) => isGuess(candidate.source))) {
		const breaking = BREAKING_CHECKS[operationKey(endpoint)];
		found.push({
			endpoint,
			name: 'a check across fields fails',
			kind: 'check',
			source: check.source,
			field: '"',
			parameters: baseline && breaking?.(baseline.parameters),
			binary: baseline?.binary,
		});
	}
	return found;
}

const baselineFor = (endpoint: Endpoint) => baselineOf(endpoint.resource, endpoint.operation.value);
const GUESSES = ENDPOINTS.flatMap((endpoint) => endpointCases(endpoint, baselineFor(endpoint)));
const exercised = new Map<GuessCase['kind'], number>();
const fieldsExercised = new Set<string>();

afterAll(() => {
	const count = (kind: GuessCase['kind']) => exercised.get(kind) ?? 0;
	process.stdout.write(
		`${fieldsExercised.size} guess-sourced fields exercised (${count('rule')} rules, ${count('values')} value lists, ` +
			`${count('required')} requirements) and ${count('check')} checks: ` +
			'each sent with a hint, none refused\n',
	);
});

test.each(GUESSES.map((guess) => ({ ...guess, title: `${operationKey(guess.endpoint)}: ${guess.name}` })))(
	'$title: sent as given, with a hint',
	async (guess) => {
		expect({ input: guess.parameters !== undefined, for: guess.title }).toEqual({ input: true, for: guess.title });
		const request = await prepareItem(guess.endpoint, guess.parameters!, guess.binary).catch((error: unknown) => {
			throw new Error(
				`refused: ${error instanceof InputError ? JSON.stringify(error.problems) : (error as Error).message}`,
			);
		});
		expect(request.hints).toContainEqual(
			expect.objectContaining({
				field: expect.stringContaining(guess.field),
				source: guess.source ?? { guess: expect.any(String) },
			}),
		);
		guess.expectSent?.(request);
		exercised.set(guess.kind, (exercised.get(guess.kind) ?? 0) + 1);
		if (guess.kind !== 'check') {
			fieldsExercised.add(`${operationKey(guess.endpoint)} ${guess.field}`);
		}
	},
);

test('every operation has a baseline, and every guessed check has input that breaks it', () => {
	expect(ENDPOINTS.filter((endpoint) => !baselineFor(endpoint)).map(operationKey)).toEqual([]);
	const guessedChecks = ENDPOINTS.filter((endpoint) => endpoint.checks?.some((check) => isGuess(check.source)));
	expect(guessedChecks.map(operationKey).sort()).toEqual(Object.keys(BREAKING_CHECKS).sort());
});
