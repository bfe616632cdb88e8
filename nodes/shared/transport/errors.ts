import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The API's error body (spec section 7). */
export interface ApiErrorBody {
	error?: { code?: string; message?: string; details?: Array<{ field?: string; message?: string }> };
	request_id?: string;
}

export interface FailedResponse {
	statusCode: number;
	body: unknown;
	headers: IDataObject;
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

/**
 * Maps an API error response to a NodeApiError whose message carries the API's code and message,
 * and whose description lists every `details` field and the request id that support asks for.
 */
export function apiError(
	node: INode,
	response: FailedResponse,
	itemIndex?: number,
	accessNeeded?: string,
): NodeApiError {
	const body = asErrorBody(response.body);
	const code = body.error?.code ?? `HTTP_${response.statusCode}`;
	const apiMessage = body.error?.message ?? 'The API gave no message';
	const requestId = body.request_id ?? (response.headers['x-request-id'] as string | undefined);
	const lines = (body.error?.details ?? []).map(
		(detail) => `${detail.field ?? '(request)'}: ${detail.message ?? 'invalid'}`,
	);
	if (response.statusCode === 403 && accessNeeded) lines.push(`This operation needs ${accessNeeded}.`);
	if (requestId) lines.push(`Request ID: ${requestId} (quote it to Agency CRM support)`);
	const error = new NodeApiError(node, { ...body, httpCode: String(response.statusCode) } as JsonObject, {
		message: `${code}: ${apiMessage} (HTTP ${response.statusCode})`,
		description: lines.join('\n') || undefined,
		httpCode: String(response.statusCode),
		itemIndex,
	});
	// Kept as data too, for "Continue On Fail" items and for workflows that branch on the code.
	error.context.apiError = {
		code,
		message: apiMessage,
		details: body.error?.details ?? [],
		request_id: requestId ?? null,
	};
	return error;
}

/** What came back, as an error quotes it: the status, the keys found, the request id. */
function describeAnswer(response: FailedResponse): string {
	const body = asErrorBody(response.body);
	const keys = Object.keys(body);
	const requestId = body.request_id ?? (response.headers['x-request-id'] as string | undefined);
	return [
		`The API answered HTTP ${response.statusCode} with ${keys.length ? `the keys ${keys.join(', ')}` : 'no JSON object'}.`,
		...(requestId ? [`Request ID: ${requestId} (quote it to Agency CRM support)`] : []),
	].join('\n');
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
