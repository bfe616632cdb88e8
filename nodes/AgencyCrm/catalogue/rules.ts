import { imageInfo } from './image';
import type { Check, FileValue, Rule, Violation, WireRequest } from './types';

/** Raised before any request when input breaks a rule; names every field and rule broken. */
export class RuleViolation extends Error {
	constructor(readonly violations: Violation[]) {
		super(violations.map((violation) => `${violation.field} ${violation.message}`).join('; '));
		this.name = 'RuleViolation';
	}
}

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const MIN_PICTURE_WIDTH = 800;
export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

/** Skips absent values: "required" is its own rule. */
function when(test: (value: unknown) => boolean, message: string): Rule {
	return (value) => (isAbsent(value) || test(value) ? undefined : message);
}

export const required: Rule = (value) =>
	isAbsent(value) || (Array.isArray(value) && value.length === 0) ? 'is required' : undefined;

export function integer(bounds: { min?: number; max?: number } = {}): Rule {
	const { min, max } = bounds;
	return (value) => {
		if (isAbsent(value)) return undefined;
		// Digits only: Number() would also take "1e3", "0x10" or true.
		const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '';
		if (!/^-?\d+$/.test(text)) return 'must be a whole number';
		const number = Number(text);
		if (min !== undefined && number < min) return `must be at least ${min}`;
		if (max !== undefined && number > max) return `must be at most ${max}`;
		return undefined;
	};
}

export function numberBetween(min: number, max: number): Rule {
	return when((value) => {
		const number = Number(value);
		return Number.isFinite(number) && number >= min && number <= max;
	}, `must be a number from ${min} to ${max}`);
}

export function oneOf(values: readonly string[]): Rule {
	return when((value) => values.includes(String(value)), `must be one of ${values.join(', ')}`);
}

/** Every entry of a list must be one of the known values (e.g. transaction `include`). */
export function eachOneOf(values: readonly string[]): Rule {
	return (value) => {
		const unknown = (Array.isArray(value) ? value : String(value ?? '').split(','))
			.map((entry) => String(entry).trim())
			.filter((entry) => entry !== '' && !values.includes(entry));
		return unknown.length ? `has unknown value ${unknown.join(', ')}; allowed: ${values.join(', ')}` : undefined;
	};
}

export const email: Rule = when(
	(value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value)),
	'must be an email address like name@example.com',
);

export const utcDateTime: Rule = when(
	(value) => UTC_DATE_TIME.test(String(value)),
	'must be a UTC date-time YYYY-MM-DDTHH:MM:SSZ',
);

/** Spec section 4 "Users": 12 to 40 characters with upper, lower, digit and special character. */
export const password: Rule = (value) => {
	if (isAbsent(value)) return undefined;
	const text = String(value);
	const missing = [
		[/[A-Z]/, 'an uppercase letter'],
		[/[a-z]/, 'a lowercase letter'],
		[/\d/, 'a digit'],
		[/[^A-Za-z0-9]/, 'a special character'],
	]
		.filter(([pattern]) => !(pattern as RegExp).test(text))
		.map(([, label]) => label as string);
	if (text.length < 12 || text.length > 40 || missing.length) {
		const lacks = missing.length ? `; it lacks ${missing.join(', ')}` : '';
		return `must be 12 to 40 characters with an uppercase letter, a lowercase letter, a digit and a special character (it has ${text.length} characters${lacks})`;
	}
	return undefined;
};

export function maxBytes(limit: number): Rule {
	return (value) => {
		const file = value as FileValue | undefined;
		if (!file?.data) return undefined;
		return file.data.length > limit
			? `must be at most ${limit / 1024 / 1024} MB (the file "${file.fileName}" has ${(file.data.length / 1024 / 1024).toFixed(1)} MB)`
			: undefined;
	};
}

export const imageOnly: Rule = (value) => {
	const file = value as FileValue | undefined;
	if (!file?.data) return undefined;
	return imageInfo(file.data) ? undefined : `must be an image (PNG, JPEG, WebP or GIF); "${file.fileName}" is not`;
};

export function minImageWidth(pixels: number): Rule {
	return (value) => {
		const file = value as FileValue | undefined;
		if (!file?.data) return undefined;
		const info = imageInfo(file.data);
		if (!info) return `must be a PNG, JPEG, WebP or GIF image; "${file.fileName}" is not`;
		return info.width < pixels
			? `must be at least ${pixels} px wide ("${file.fileName}" is ${info.width} px)`
			: undefined;
	};
}

/**
 * A check across fields: at least one of the values read off the wire request is given (a
 * boolean counts only when true), e.g. "profile or signature picture".
 */
export function atLeastOne(field: string, message: string, values: (wire: WireRequest) => unknown[]): Check {
	return (wire) => (values(wire).some((value) => !isAbsent(value) && value !== false) ? [] : [{ field, message }]);
}
