/** Replies and errors shared by the API, the token endpoint and the admin routes. */

export interface ErrorDetail {
	field: string;
	message: string;
}

export interface Reply {
	status: number;
	/** Serialised as JSON unless `bytes` is set. */
	body?: unknown;
	bytes?: Buffer;
	contentType?: string;
	headers?: Record<string, string>;
}

/** Thrown by handlers; the server turns it into `{error: {code, message, details?}, request_id}`. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details?: ErrorDetail[],
		readonly headers?: Record<string, string>,
	) {
		super(message);
	}
}

/** What production says of one criterion it refuses: the criterion's XML key and why. */
export interface CriterionProblem {
	xml: string;
	message: string;
}

/**
 * Production's answer to criteria it refuses (docs/assumptions.md "Production evidence"): one key per
 * criterion, `criteria.<id>` (its numeric id, or the key given when no criterion has it), each a list
 * of `{xml, message}`, and no `error` key. The sandbox adds the spec's `request_id` beside them.
 */
export class CriteriaError extends ApiError {
	constructor(readonly byCriterion: Record<string, CriterionProblem[]>) {
		const details = Object.entries(byCriterion).flatMap(([field, problems]) =>
			problems.map((problem) => ({ field, message: problem.message })),
		);
		const [field, [first]] = Object.entries(byCriterion)[0];
		super(422, 'VALIDATION_ERROR', `${field} (${first.xml}): ${first.message}`, details);
	}
}

export function validationError(details: ErrorDetail[], message = 'The request is invalid.'): ApiError {
	return new ApiError(422, 'VALIDATION_ERROR', message, details);
}

export function invalidField(field: string, message: string): ApiError {
	return validationError([{ field, message }], `${field}: ${message}`);
}

export function notFound(what: string): ApiError {
	return new ApiError(404, 'NOT_FOUND', `${what} not found.`);
}

export function forbidden(message: string, code = 'FORBIDDEN'): ApiError {
	return new ApiError(403, code, message);
}

export const ok = (data: unknown, meta?: Record<string, unknown>): Reply => ({
	status: 200,
	body: meta ? { data, meta } : { data },
});
export const created = (data: unknown): Reply => ({ status: 201, body: { data } });
export const noContent = (): Reply => ({ status: 204 });

export function errorBody(error: ApiError, requestId: string): unknown {
	if (error instanceof CriteriaError) return { ...error.byCriterion, request_id: requestId };
	const { code, message, details } = error;
	return { error: details ? { code, message, details } : { code, message }, request_id: requestId };
}

/** The current time as the spec's UTC format `YYYY-MM-DDTHH:MM:SSZ`. */
export function utcNow(): string {
	return toUtc(new Date());
}

export function toUtc(date: Date): string {
	return date.toISOString().slice(0, 19) + 'Z';
}
