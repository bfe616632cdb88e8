import type { IDataObject, IHttpRequestOptions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { RequestLogEntry } from '../../sandbox/metrics';
import type { Binary } from './context';
import { inProcessContext } from './context';

/**
 * The node's router run in-process against a sandbox of its own: each run starts from clean
 * counters and request log, so that what the sandbox logged is exactly what that run sent.
 */

/** Where the API's paths start on the sandbox. */
export const API_BASE = '/api/v2/site';

/** An entry of the sandbox's request log (`GET /_admin/requests`); its path is raw, encoded as received. */
export type LoggedRequest = RequestLogEntry;

export interface RunResult {
	items: INodeExecutionData[];
	/** The items' JSON. */
	output: IDataObject[];
	/** What the sandbox logged below the API base, oldest first. */
	requests: LoggedRequest[];
	/** Everything the sandbox logged, token exchanges included. */
	logged: LoggedRequest[];
	/** The API requests as the HTTP client sent them (a multipart body as its bytes). */
	sent: IHttpRequestOptions[];
	hints: NodeExecutionHint[];
}

export interface RunOptions {
	/** Binary data of each item, by item index. */
	binaries?: Array<Record<string, Binary>>;
	continueOnFail?: boolean;
}

export interface SandboxRunner {
	sandbox: Sandbox;
	/** Runs the node once with these items (one parameter object per item). */
	run(items: Array<Record<string, unknown>>, options?: RunOptions): Promise<RunResult>;
	close(): Promise<void>;
}

export async function startRunner(): Promise<SandboxRunner> {
	const sandbox = await startSandbox({ port: 0, quiet: true });
	const admin = async <T>(method: string, path: string): Promise<T> => {
		const response = await fetch(`${sandbox.origin}/_admin${path}`, { method });
		return (await response.json()) as T;
	};
	const demo = sandbox.clients.find((client) => client.clientId === 'demo-client')!;
	return {
		sandbox,
		async run(items, { binaries = [], continueOnFail = false } = {}) {
			await admin('POST', '/reset');
			const { context, hints, sent } = inProcessContext(
				{
					authUrl: sandbox.authUrl,
					clientId: demo.clientId,
					clientSecret: demo.clientSecret,
					scope: 'site',
					siteId: demo.siteId,
				},
				items,
				binaries,
				continueOnFail,
			);
			const [output] = await route.call(context);
			const { data: logged } = await admin<{ data: LoggedRequest[] }>('GET', '/requests?limit=2000');
			return {
				items: output,
				output: output.map((item) => item.json),
				requests: logged.filter((entry) => entry.path.startsWith(`${API_BASE}/`)),
				logged,
				sent,
				hints,
			};
		},
		close: () => sandbox.close(),
	};
}
