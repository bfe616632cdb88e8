/**
 * Field readers for JSON bodies and query strings. A reader collects every problem as a
 * `{field, message}` detail so that one 422 answer lists all of them, as the spec's
 * VALIDATION_ERROR does. Required readers return a placeholder on failure: callers must call
 * `throwIfInvalid()` before using the values.
 */
import { ApiError, CriteriaError, CriterionProblem, ErrorDetail, invalidField, toUtc, validationError } from './http';

export type JsonObject = Record<string, unknown>;

const UTC_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON body as an object; an absent body is an empty object. */
export function objectBody(body: unknown): JsonObject {
	if (body === undefined) return {};
	if (!isObject(body)) throw invalidField('body', 'must be a JSON object');
	return body;
}

export function isUtcDateTime(value: unknown): value is string {
	return typeof value === 'string' && UTC_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
}

interface Rule {
	nullable?: boolean;
}
interface StringRule extends Rule {
	maxLength?: number;
	minLength?: number;
}
interface NumberRule extends Rule {
	min?: number;
	max?: number;
}

export class FieldReader {
	constructor(
		readonly source: JsonObject,
		private readonly prefix = '',
		readonly details: ErrorDetail[] = [],
		/** Query strings carry text only: accept "12" for integers and "true" for booleans. */
		private readonly fromQuery = false,
		/** Criteria refused, by `criteria.<id>`: answered in production's criteria shape (http.ts). */
		readonly criteriaProblems: Record<string, CriterionProblem[]> = {},
	) {}

	static forQuery(query: URLSearchParams): FieldReader {
		return new FieldReader(Object.fromEntries(query), '', [], true);
	}

	/** A reader for a nested object that reports into the same details. */
	nested(source: JsonObject, prefix: string): FieldReader {
		return new FieldReader(source, this.field(prefix), this.details, this.fromQuery, this.criteriaProblems);
	}

	/** A criterion refused: `criterion` is its numeric id, or the key given when no criterion has it. */
	failCriterion(criterion: string | number, xml: string, message: string): void {
		(this.criteriaProblems[`criteria.${criterion}`] ??= []).push({ xml, message });
	}

	field(key: string): string {
		if (!this.prefix) return key;
		return key.startsWith('[') ? this.prefix + key : `${this.prefix}.${key}`;
	}

	has(key: string): boolean {
		return this.source[key] !== undefined;
	}

	fail(key: string, message: string): void {
		this.details.push({ field: this.field(key), message });
	}

	/** Whether a detail already refuses the value given for this key. */
	refused(key: string): boolean {
		return this.details.some((detail) => detail.field === this.field(key));
	}

	get valid(): boolean {
		return this.details.length === 0 && Object.keys(this.criteriaProblems).length === 0;
	}

	throwIfInvalid(): void {
		if (!this.valid) throw this.error();
	}

	/** The fields refused, in the spec's shape; else the criteria refused, in production's criteria shape. */
	error(): ApiError {
		if (this.details.length === 0) return new CriteriaError(this.criteriaProblems);
		const first = this.details[0];
		return validationError(this.details, `${first.field}: ${first.message}`);
	}

	/** Rejects keys outside `allowed` (used where the spec restricts what a body may carry). */
	rejectUnknownKeys(allowed: readonly string[], message: string): void {
		for (const key of Object.keys(this.source)) if (!allowed.includes(key)) this.fail(key, message);
	}

	requiredString(key: string, rule: StringRule = {}): string {
		if (!this.has(key) || this.source[key] === null) return this.missing(key, '');
		return this.optionalString(key, rule) ?? '';
	}

	optionalString(key: string, rule: StringRule = {}): string | null | undefined {
		return this.read(key, rule, (value) => {
			if (typeof value !== 'string') return 'must be a string';
			if (rule.minLength !== undefined && value.trim().length < rule.minLength)
				return `must be at least ${rule.minLength} characters long`;
			if (rule.maxLength !== undefined && value.length > rule.maxLength)
				return `must be at most ${rule.maxLength} characters long`;
			return undefined;
		}) as string | null | undefined;
	}

	optionalEmail(key: string, rule: Rule = {}): string | null | undefined {
		return this.read(key, rule, (value) =>
			typeof value === 'string' && EMAIL.test(value) ? undefined : 'must be an email address',
		) as string | null | undefined;
	}

	requiredUtc(key: string): string {
		if (!this.has(key) || this.source[key] === null) return this.missing(key, '');
		return this.optionalUtc(key) ?? '';
	}

	/** A UTC datetime in the spec's format `YYYY-MM-DDTHH:MM:SSZ` (trailing Z required). */
	optionalUtc(key: string, rule: Rule = {}): string | null | undefined {
		return this.read(key, rule, (value) =>
			isUtcDateTime(value) ? undefined : 'must be a UTC datetime formatted YYYY-MM-DDTHH:MM:SSZ',
		) as string | null | undefined;
	}

	/**
	 * An ISO 8601 date-time with its zone (`…Z` or `…+02:00`, milliseconds allowed), as production's
	 * action dates take it; answered in UTC `YYYY-MM-DDTHH:MM:SSZ`.
	 */
	optionalIsoDateTime(key: string, rule: Rule = {}): string | null | undefined {
		const value = this.read(key, rule, (given) =>
			typeof given === 'string' && ISO_DATE_TIME.test(given) && !Number.isNaN(Date.parse(given))
				? undefined
				: 'must be an ISO 8601 date-time with its zone, e.g. 2026-05-01T10:00:00Z',
		) as string | null | undefined;
		return typeof value === 'string' ? toUtc(new Date(value)) : value;
	}

	optionalDate(key: string, rule: Rule = {}): string | null | undefined {
		return this.read(key, rule, (value) =>
			typeof value === 'string' && CALENDAR_DATE.test(value) && !Number.isNaN(Date.parse(value))
				? undefined
				: 'must be a date formatted YYYY-MM-DD',
		) as string | null | undefined;
	}

	requiredInteger(key: string, rule: NumberRule = {}): number {
		if (!this.has(key) || this.source[key] === null) return this.missing(key, 0);
		return this.optionalInteger(key, rule) ?? 0;
	}

	optionalInteger(key: string, rule: NumberRule = {}): number | null | undefined {
		return this.readNumber(key, rule, true);
	}

	optionalNumber(key: string, rule: NumberRule = {}): number | null | undefined {
		return this.readNumber(key, rule, false);
	}

	requiredBoolean(key: string): boolean {
		if (!this.has(key) || this.source[key] === null) return this.missing(key, false);
		return this.optionalBoolean(key) ?? false;
	}

	optionalBoolean(key: string, rule: Rule = {}): boolean | null | undefined {
		if (this.fromQuery && (this.source[key] === 'true' || this.source[key] === 'false'))
			return this.source[key] === 'true';
		return this.read(key, rule, (value) => (typeof value === 'boolean' ? undefined : 'must be a boolean')) as
			boolean | null | undefined;
	}

	requiredOneOf<T extends string>(key: string, values: readonly T[]): T {
		if (!this.has(key) || this.source[key] === null) return this.missing(key, values[0]);
		return this.optionalOneOf(key, values) ?? values[0];
	}

	optionalOneOf<T extends string>(key: string, values: readonly T[], rule: Rule = {}): T | null | undefined {
		return this.read(key, rule, (value) =>
			values.includes(value as T) ? undefined : `must be one of: ${values.join(', ')}`,
		) as T | null | undefined;
	}

	optionalIntegerList(key: string, rule: Rule = {}): number[] | null | undefined {
		return this.read(key, rule, (value) =>
			Array.isArray(value) && value.every((item) => Number.isInteger(item))
				? undefined
				: 'must be an array of integers',
		) as number[] | null | undefined;
	}

	optionalStringList(key: string, rule: Rule = {}): string[] | null | undefined {
		return this.read(key, rule, (value) =>
			Array.isArray(value) && value.every((item) => typeof item === 'string')
				? undefined
				: 'must be an array of strings',
		) as string[] | null | undefined;
	}

	optionalArray(key: string, rule: Rule = {}): unknown[] | null | undefined {
		return this.read(key, rule, (value) => (Array.isArray(value) ? undefined : 'must be an array')) as
			unknown[] | null | undefined;
	}

	optionalObject(key: string, rule: Rule = {}): JsonObject | null | undefined {
		return this.read(key, rule, (value) => (isObject(value) ? undefined : 'must be an object')) as
			JsonObject | null | undefined;
	}

	private missing<T>(key: string, placeholder: T): T {
		this.fail(key, 'is required');
		return placeholder;
	}

	private read(key: string, rule: Rule, problemWith: (value: unknown) => string | undefined): unknown {
		const value = this.source[key];
		if (value === undefined) return undefined;
		if (value === null) {
			if (!rule.nullable) this.fail(key, 'must not be null');
			return null;
		}
		const problem = problemWith(value);
		if (problem) {
			this.fail(key, problem);
			return undefined;
		}
		return value;
	}

	private readNumber(key: string, rule: NumberRule, integer: boolean): number | null | undefined {
		const raw = this.source[key];
		const value = this.fromQuery && typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
		const kind = integer ? 'an integer' : 'a number';
		const accepted = this.read(key, rule, () => {
			if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value)))
				return `must be ${kind}`;
			if (rule.min !== undefined && value < rule.min) return `must be ${kind} of at least ${rule.min}`;
			if (rule.max !== undefined && value > rule.max) return `must be ${kind} of at most ${rule.max}`;
			return undefined;
		});
		return accepted === undefined || accepted === null ? accepted : (value as number);
	}
}
