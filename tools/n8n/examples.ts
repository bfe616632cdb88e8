import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { ROOT } from './launcher';

/**
 * The example workflows of examples/, as the demo and the tests import them. Their HTTP Request
 * nodes point at placeholder hosts of the reserved `.example` domain (the user's mailing tool, the
 * agents' chat); here those requests go to a local stand-in that records what it receives.
 */

export const EXAMPLES_DIR = path.join(ROOT, 'examples');

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	[key: string]: unknown;
}

/** Every example, by file name, in file name order. */
export function readExamples(): Map<string, ExampleWorkflow> {
	const files = readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	return new Map(
		files.map((file) => [file, JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow]),
	);
}

const PLACEHOLDER_URL = /^https:\/\/([a-z0-9-]+)\.example(\/.*)?$/;

/**
 * The workflow with every HTTP Request to a `https://<name>.example/<path>` placeholder sent to
 * `<standIn>/<name>/<path>` instead.
 */
export function withStandIn(workflow: ExampleWorkflow, standIn: string): ExampleWorkflow {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const url = node.type === 'n8n-nodes-base.httpRequest' ? node.parameters.url : undefined;
			const placeholder = typeof url === 'string' ? PLACEHOLDER_URL.exec(url) : null;
			if (!placeholder) return node;
			return {
				...node,
				parameters: { ...node.parameters, url: `${standIn}/${placeholder[1]}${placeholder[2] ?? ''}` },
			};
		}),
	};
}

export interface StandInRequest {
	at: string;
	method: string;
	path: string;
	body: unknown;
}

export interface StandIn {
	url: string;
	/** What it received, oldest first; `GET /_received` answers the same as JSON. */
	received: StandInRequest[];
	close(): Promise<void>;
}

/**
 * A stand-in for the services the examples call (a mailing tool, a chat): answers every request
 * 200 `{received: true}` and records it. `onRequest` sees each one (the demo prints them).
 */
export async function startStandIn(
	port = 0,
	onRequest: (request: StandInRequest) => void = () => undefined,
): Promise<StandIn> {
	const received: StandInRequest[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			if (request.method === 'GET' && request.url === '/_received') {
				response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
				return;
			}
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = text ? JSON.parse(text) : null;
			} catch {
				// not JSON: kept as text
			}
			const entry = { at: new Date().toISOString(), method: request.method ?? 'GET', path: request.url ?? '/', body };
			received.push(entry);
			onRequest(entry);
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
		});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
