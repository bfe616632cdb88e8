/**
 * The sandbox console: the CRM's screens the demo lacks, served by the sandbox under `/console`
 * as server-rendered HTML (no script, no dependency). Browse and search contacts and properties,
 * receive a website lead, edit a contact or a property (the same webhook events as the API), and
 * follow the webhooks: their deliveries, resend one, suspend or reactivate a hook. See docs/sandbox.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../http';
import { isMultipart, parseMultipart } from '../multipart';
import { RouteTable } from '../router';
import { CONSOLE_PATH } from './common';
import type { ConsoleContext, ConsoleRequest, ConsoleRoute } from './common';
import { contactRoutes } from './contacts';
import type { FormFields } from './forms';
import { escapeHtml } from './html';
import { propertyRoutes } from './properties';
import { webhookRoutes } from './webhooks';

export { CONSOLE_PATH } from './common';

/** Pictures are at most 20 MB; a form carries a little more. */
const MAX_FORM_BYTES = 21 * 1024 * 1024;

export function isConsolePath(path: string): boolean {
	return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/** The console's request handler, for the paths `isConsolePath` accepts. */
export function consoleHandler(context: ConsoleContext): (request: IncomingMessage, response: ServerResponse) => void {
	const routes = new RouteTable<ConsoleRoute>([
		...contactRoutes(context),
		...propertyRoutes(context),
		...webhookRoutes(context),
	]);
	return (request, response) => {
		answer(routes, request, response).catch((error: unknown) => {
			const status = error instanceof ApiError ? error.status : 500;
			const message = error instanceof Error ? error.message : String(error);
			if (!response.headersSent) {
				response
					.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' })
					.end(
						`<!doctype html><title>${status}</title><p>${escapeHtml(message)}</p><p><a href="${CONSOLE_PATH}">Back to the console</a></p>`,
					);
			}
		});
	};
}

async function answer(routes: RouteTable<ConsoleRoute>, request: IncomingMessage, response: ServerResponse) {
	const url = new URL(request.url ?? '/', 'http://console');
	const method = request.method ?? 'GET';
	if (url.pathname === CONSOLE_PATH || url.pathname === `${CONSOLE_PATH}/`) {
		response.writeHead(303, { Location: `${CONSOLE_PATH}/contacts` }).end();
		return;
	}
	const match = routes.match(method, url.pathname);
	if (!match) throw new ApiError(404, 'NOT_FOUND', `No console page ${method} ${url.pathname}.`);
	const { form, files } = await readForm(request);
	const consoleRequest: ConsoleRequest = { params: match.params, query: url.searchParams, form, files };
	const reply = await match.route.handler(consoleRequest);
	if ('redirect' in reply) {
		response.writeHead(303, { Location: reply.redirect }).end();
		return;
	}
	response.writeHead(reply.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8' }).end(reply.page.text);
}

/** The fields of a URL-encoded or multipart form (its files apart). */
async function readForm(request: IncomingMessage): Promise<Pick<ConsoleRequest, 'form' | 'files'>> {
	if (request.method === 'GET' || request.method === 'HEAD') return { form: {}, files: [] };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_FORM_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The form is larger than 21 MB.');
		chunks.push(chunk);
	}
	const body = Buffer.concat(chunks);
	const contentType = request.headers['content-type'] ?? '';
	if (!isMultipart(contentType))
		return { form: Object.fromEntries(new URLSearchParams(body.toString('utf8'))), files: [] };
	const parts = parseMultipart(body, contentType);
	const form: FormFields = {};
	for (const part of parts) if (part.filename === undefined) form[part.name] = part.data.toString('utf8');
	return { form, files: parts.filter((part) => part.filename !== undefined) };
}
