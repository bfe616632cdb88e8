import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

interface ErrorDetail {
	field?: string;
	message?: string;
}

/** The API's error body (spec section 7). */
export interface ApiErrorBody {
	error?: { code?: string; message?: string; details?: ErrorDetail[] };
	request_id?: string;
}

/**
 * The details of a body in production's other error shape, one list of problems per field and no
 * `error` key: `{"criteria.65": [{xml: "TypeBien", message: "…"}]}` (docs/assumptions.md "Production
 * evidence"). Each problem names its criterion by its XML key. Undefined for any other body.
 */
function fieldProblems(body: IDataObject): ErrorDetail[] | undefined {
	if ('error' in body) return undefined;
	const entries = Object.entries(body).filter(([key]) => key !== 'request_id');
	const lists = entries.filter(([, value]) => Array.isArray(value) && value.length > 0);
	if (!lists.length || lists.length !== entries.length) return undefined;
	return lists.flatMap(([field, problems]) =>
		(problems as unknown[]).map((problem) => {
			const entry = (typeof problem === 'object' && problem !== null ? problem : { message: problem }) as IDataObject;
			const xml = typeof entry.xml === 'string' ? ` ${entry.xml}` : '';
			return { field, message: `${xml ? `${xml.trim()}: ` : ''}${String(entry.message ?? JSON.stringify(entry))}` };
		}),
	);
}

export interface FailedResponse {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
}

/**
 * What the node knows about a request that helps users act on its refusal, in the words of the form
 * (the catalogue's request builder fills it in: catalogue/requests.ts).
 */
export interface RefusalGuide {
	/** "the Customers pack (or Full)": what a 403 may lack. */
	accessNeeded?: string;
	/** The permission and right the API client needs for this operation, where known (`SITE_PRODUCT:READ + RS:PRODUCT_SEARCH`). */
	rightsNeeded?: string;
	/** The field as the form names it (`lastname` → `"Last Name" (lastname)`); undefined for a field the form does not have. */
	labelOf?: (apiField: string) => string | undefined;
	/** After a 404: which value to check, and how to find it again. */
	notFound?: string;
	/** After a 409: what to use instead of a create. */
	conflict?: string;
}

function asErrorBody(body: unknown): ApiErrorBody {
	if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) return body as ApiErrorBody;
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
	try {
		const parsed: unknown = JSON.parse(text);
		return typeof parsed === 'object' && parsed !== null ? (parsed as ApiErrorBody) : {};
	} catch {
		return {};
	}
}

/** The request id support asks for: the body's, else the X-Request-Id header every answer carries. */
function requestIdOf(body: ApiErrorBody, response: FailedResponse): string | undefined {
	return body.request_id ?? (response.headers['x-request-id'] as string | undefined);
}

const supportLine = (requestId: string | undefined) => [
	requestId
		? `Request ID: ${requestId} (quote it to Agency CRM support)`
		: 'The answer carried no request ID (neither request_id nor X-Request-Id): give support the time of the run.',
];

/**
 * A 403 almost always means the API client lacks a permission and a right, granted per client in
 * Agency CRM's back office (docs/assumptions.md "Production evidence"); the pack and the agency's
 * site are the spec's other reasons.
 */
function accessAdvice(guide: RefusalGuide): string {
	const rights = guide.rightsNeeded
		? `its permission and right ${guide.rightsNeeded}`
		: 'its permission and right (each operation has both, e.g. SITE_PRODUCT:READ + RS:PRODUCT_SEARCH to search properties)';
	const pack = guide.accessNeeded ? `${guide.accessNeeded}, and ` : '';
	return `This operation needs ${pack}${rights}, granted to the API client in Agency CRM's back office: ask for what is missing. An agency named in the request must also belong to the credential's site.`;
}

/** What users can do about a refusal with this status; undefined where nothing better than the API's message can be said. */
function nextStep(status: number, guide: RefusalGuide, fields: number): string | undefined {
	switch (status) {
		case 401:
			return 'Agency CRM refused the access token even after a new token exchange: open the credential, check the Client ID and Client Secret, and press Save, which tests them.';
		case 403:
			return accessAdvice(guide);
		case 404:
			return guide.notFound ?? 'Check the IDs given.';
		case 409:
			return guide.conflict ?? 'It already exists.';
		case 422:
			if (!fields) return 'Check the values given and run again.';
			// The fields are in the node's parameters, wherever n8n shows this error (or an item's `description`).
			return `Fix ${fields > 1 ? 'these fields' : 'this field'} in the node's parameters and run again.`;
		case 429:
			return "Agency CRM still limited the requests after the node waited: lower the node's Concurrency option, or run the workflow with fewer items or later.";
	}
	return status >= 500 ? 'Agency CRM could not answer: try again later.' : undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const HTML_UNESCAPES = Object.fromEntries(
	Object.entries(HTML_ESCAPES).map(([character, entity]) => [entity, character]),
);
const LINE_BREAK = '<br>';

/**
 * An error description of one detail per line. n8n's editor shows descriptions as HTML, where a
 * newline is a space: the lines are escaped and joined by line breaks (plainDescription reads them back).
 */
export function linesDescription(lines: string[]): string | undefined {
	if (!lines.length) return undefined;
	return lines.map((line) => line.replace(/[&<>]/g, (character) => HTML_ESCAPES[character])).join(LINE_BREAK);
}

/** The error with one more line at the top of its description: a fact the transport adds, such as how long it waited. */
export function withFirstLine(error: NodeApiError, line: string): NodeApiError {
	error.description = [linesDescription([line]), error.description].filter(Boolean).join(LINE_BREAK);
	return error;
}

/** A description as plain text lines, for output items and logs, which do not read HTML. */
export function plainDescription(description: string): string {
	return description
		.split(LINE_BREAK)
		.map((line) => line.replace(/&(amp|lt|gt);/g, (entity) => HTML_UNESCAPES[entity]))
		.join('\n');
}

/**
 * The title's words for the API's message: the message, unless it only restates one of its details
 * (`email: must be an email address`), which the description says with the field's label: then how
 * many fields were refused, so that nothing is said twice.
 */
function headline(apiMessage: string, details: ErrorDetail[]): string {
	const said = (text: string) => text.trim().toLowerCase();
	const restated = details.some((detail) =>
		[detail.message ?? '', `${detail.field ?? ''}: ${detail.message ?? ''}`].some(
			(text) => said(text) === said(apiMessage),
		),
	);
	return restated ? `${details.length} field${details.length > 1 ? 's' : ''} refused` : apiMessage;
}

/**
 * Maps an API error response to a NodeApiError whose message carries the API's code and message,
 * and whose description has one line per `details` item (each field as the form names it), what to
 * do next, and the request id that support asks for.
 */
export function apiError(node: INode, response: FailedResponse, itemIndex?: number, guide: RefusalGuide = {}) {
	const body = asErrorBody(response.body);
	const perField = fieldProblems(body as IDataObject);
	const code = body.error?.code ?? (perField ? 'VALIDATION_ERROR' : `HTTP_${response.statusCode}`);
	const apiMessage =
		body.error?.message ?? (perField ? 'The API refused some values, field by field' : 'The API gave no message');
	const requestId = requestIdOf(body, response);
	const details = body.error?.details ?? perField ?? [];
	const lines = details.map((detail) => {
		const field = detail.field ? (guide.labelOf?.(detail.field) ?? detail.field) : '(request)';
		return `${field}: ${detail.message ?? 'invalid'}`;
	});
	const step = nextStep(response.statusCode, guide, details.length);
	if (step) lines.push(step);
	const error = new NodeApiError(node, { ...body, httpCode: String(response.statusCode) } as unknown as JsonObject, {
		message: `${code}: ${headline(apiMessage, details)} (HTTP ${response.statusCode})`,
		description: linesDescription([...lines, ...supportLine(requestId)]),
		httpCode: String(response.statusCode),
		itemIndex,
	});
	// Kept as data too, for "Continue On Fail" items and for workflows that branch on the code.
	error.context.apiError = {
		code,
		message: apiMessage,
		details,
		request_id: requestId ?? null,
	};
	return error;
}

/** The HTTP status of a failed request's error (`NodeApiError.httpCode`), or undefined for other failures. */
export function statusOf(error: unknown): number | undefined {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
}

/** What came back, as an error quotes it: the status, the keys found, the request id. */
function describeAnswer(response: FailedResponse): string | undefined {
	const body = asErrorBody(response.body);
	const keys = Object.keys(body);
	return linesDescription([
		`The API answered HTTP ${response.statusCode} with ${keys.length ? `the keys ${keys.join(', ')}` : 'no JSON object'}.`,
		...supportLine(requestIdOf(body, response)),
	]);
}

/**
 * A successful answer the node cannot understand: the item fails quoting what came back, rather
 * than giving no record or a wrong one in silence.
 */
export function unreadableAnswer(
	node: INode,
	request: { method: string; path: string; itemIndex?: number },
	response: FailedResponse,
	why: string,
): NodeApiError {
	return new NodeApiError(node, { httpCode: String(response.statusCode) } as JsonObject, {
		message: `The API's answer to ${request.method} ${request.path} could not be read: ${why}`,
		description: describeAnswer(response),
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
}
