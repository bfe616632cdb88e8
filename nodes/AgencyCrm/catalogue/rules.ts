import { imageInfo } from './image';
import type { Check, FileValue, Problem, PreparedRequest, Rule, RuleSource } from './types';

/** A rule the specification states; quote the section and its words. Breaking it blocks the request. */
export const spec = (quote: string): RuleSource => ({ spec: quote });

/**
 * A rule production follows where the spec is silent, as the public clients that ran against it show
 * (docs/assumptions.md "Production evidence", word for word). Breaking it blocks the request.
 */
export const evidence = (topic: string): RuleSource => ({ evidence: topic });

/** A rule without which the node cannot send a well-formed request. Breaking it blocks the request. */
export const guard = (reason: string): RuleSource => ({ node: reason });

/** Our choice where the spec says "not shown" (docs/assumptions.md). Breaking it only gives a hint. */
export const guess = (topic: string): RuleSource => ({ guess: topic });

export const blocks = (source: RuleSource): boolean => !('guess' in source);

export function rule(source: RuleSource, test: Rule['test']): Rule {
	return { source, test };
}

export function check(source: RuleSource, test: Check['test']): Check {
	return { source, test };
}

/** Raised before any request when input breaks a rule that blocks; names every field and rule broken. */
export class InputError extends Error {
	constructor(readonly problems: Problem[]) {
		super(problems.map((problem) => `${problem.field} ${problem.message}`).join('; '));
		this.name = 'InputError';
	}
}

/** Spec sections 4 and 8: "maximum 20 MB", read as 20,000,000 bytes, the stricter of the two readings. */
export const MAX_UPLOAD_BYTES = 20_000_000;
export const MIN_PICTURE_WIDTH = 800;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const isAbsent = (value: unknown): value is undefined | null | '' =>
	value === undefined || value === null || value === '';

/** Absent, or an empty list (a multi-select left empty). */
export const isEmpty = (value: unknown): boolean => isAbsent(value) || (Array.isArray(value) && value.length === 0);

// ---- Tests on one value: each returns what is wrong ("must be …"), or undefined ----

export function integer(bounds: { min?: number; max?: number } = {}): Rule['test'] {
	const { min, max } = bounds;
	return (value) => {
		// Digits only: Number() would also take "1e3", "0x10" or true.
		const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '';
		if (!/^-?\d+$/.test(text)) return 'must be a whole number';
		const number = Number(text);
		if (min !== undefined && number < min) return `must be at least ${min}`;
		if (max !== undefined && number > max) return `must be at most ${max}`;
		return undefined;
	};
}

export function numberBetween(min: number, max: number): Rule['test'] {
	return (value) => {
		const number = typeof value === 'number' ? value : Number.NaN;
		return Number.isFinite(number) && number >= min && number <= max
			? undefined
			: `must be a number from ${min} to ${max}`;
	};
}

export const isBoolean: Rule['test'] = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');

export const isText: Rule['test'] = (value) => (typeof value === 'string' ? undefined : 'must be text');

export const isList: Rule['test'] = (value) => (Array.isArray(value) ? undefined : 'must be a list');

export const isObject: Rule['test'] = (value) =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be a JSON object';

export function oneOf(values: readonly string[]): Rule['test'] {
	return (value) => (values.includes(String(value)) ? undefined : `must be one of ${values.join(', ')}`);
}

/** Every entry of a list (or of a comma-separated text) is one of the values. */
export function eachOneOf(values: readonly string[]): Rule['test'] {
	return (value) => {
		const unknown = (Array.isArray(value) ? value : String(value).split(','))
			.map((entry) => String(entry).trim())
			.filter((entry) => entry !== '' && !values.includes(entry));
		return unknown.length ? `has unknown value ${unknown.join(', ')}; known: ${values.join(', ')}` : undefined;
	};
}

/** An email judged as contacts are matched by it: trimmed (spaces around it and capitals are fine). */
export const email: Rule['test'] = (value) =>
	/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value).trim()) ? undefined : 'does not look like an email address';

export const utcDateTime: Rule['test'] = (value) =>
	UTC_DATE_TIME.test(String(value)) ? undefined : 'must be a UTC date-time YYYY-MM-DDTHH:MM:SSZ';

/** Spec section 4 "Users": 12 to 40 characters with upper, lower, digit and special character. */
export const password: Rule['test'] = (value) => {
	const text = String(value);
	const missing = [
		[/[A-Z]/, 'an uppercase letter'],
		[/[a-z]/, 'a lowercase letter'],
		[/\d/, 'a digit'],
		[/[^A-Za-z0-9]/, 'a special character'],
	]
		.filter(([pattern]) => !(pattern as RegExp).test(text))
		.map(([, label]) => label as string);
	if (text.length >= 12 && text.length <= 40 && !missing.length) return undefined;
	const lacks = missing.length ? `; it lacks ${missing.join(', ')}` : '';
	return `must be 12 to 40 characters with an uppercase letter, a lowercase letter, a digit and a special character (it has ${text.length} characters${lacks})`;
};

export function maxBytes(limit: number): Rule['test'] {
	return (value) => {
		const file = value as FileValue;
		return file.data.length > limit
			? `must be at most ${limit.toLocaleString('en-US')} bytes (20 MB); "${file.fileName}" has ${file.data.length.toLocaleString('en-US')}`
			: undefined;
	};
}

/** The image types whose header the node reads (catalogue/image.ts), by MIME type. */
const READABLE_IMAGES: Record<string, string> = {
	'image/png': 'PNG',
	'image/jpeg': 'JPEG',
	'image/jpg': 'JPEG',
	'image/webp': 'WebP',
	'image/gif': 'GIF',
};

const mimeTypeOf = (file: FileValue) =>
	String(file.mimeType ?? '')
		.toLowerCase()
		.split(';')[0]
		.trim();

/**
 * An image, by its first bytes (PNG, JPEG, WebP, GIF). A file labelled as one of those whose bytes
 * are not an image (text named `photo.png`) is refused: no width or size rule can hold for it.
 * Another `image/*` type (AVIF, HEIC), whose header the node does not read, passes: the API judges
 * it, and `unreadableImage` gives the hint.
 */
export const imageOnly: Rule['test'] = (value) => {
	const file = value as FileValue;
	if (imageInfo(file.data)) return undefined;
	const type = mimeTypeOf(file);
	if (READABLE_IMAGES[type]) {
		return `must be an image; "${file.fileName}" is labelled ${type} but its content is not a ${READABLE_IMAGES[type]} image`;
	}
	if (type.startsWith('image/')) return undefined;
	return `must be an image; "${file.fileName}" is ${file.mimeType || 'not one'}`;
};

/** An image in a format whose header the node cannot read: sent, with a hint that its limits were not checked. */
export const unreadableImage: Rule = rule(guess('images the node cannot read are judged by the API'), (value) => {
	const file = value as FileValue;
	const type = mimeTypeOf(file);
	if (imageInfo(file.data) || READABLE_IMAGES[type] || !type.startsWith('image/')) return undefined;
	return `is ${type}, a format the node cannot read: its width and type are left to the API`;
});

/** The width read from the image header; an image whose header the node cannot read is left to the API. */
export function minImageWidth(pixels: number): Rule['test'] {
	return (value) => {
		const file = value as FileValue;
		const info = imageInfo(file.data);
		return info && info.width < pixels
			? `must be at least ${pixels} px wide ("${file.fileName}" is ${info.width} px)`
			: undefined;
	};
}

/**
 * Why a value cannot be one segment of a path, or undefined when it can. Encoded, `/` and `\\`
 * become `%2F` and `%5C`, which a gateway that decodes them before routing (a common proxy setting)
 * turns back into separators; `.` and `..` are resolved by URL rules. Either way the request would
 * reach another endpoint than the one named: a Delete could delete something else.
 */
export function pathSegmentProblem(value: unknown): string | undefined {
	const text = String(value).trim();
	if (text === '.' || text === '..') return 'cannot be "." or ".."';
	return /[/\\]/.test(text) ? 'cannot contain "/" or "\\"' : undefined;
}

/** Whole-number ids where the spec types them as integers (webhooks, calendar events and agencies). */
export function integerId(quote: string): Rule {
	return rule(spec(quote), (value) => (/^\d+$/.test(String(value)) ? undefined : 'must be a whole-number ID'));
}

/**
 * A check across fields: at least one of the values read off the request is given (a boolean
 * counts only when true), e.g. "profile or signature picture".
 */
export function atLeastOne(
	source: RuleSource,
	field: string,
	message: string,
	values: (request: PreparedRequest) => unknown[],
): Check {
	return check(source, (request) =>
		values(request).some((value) => !isEmpty(value) && value !== false) ? [] : [{ field, message }],
	);
}
