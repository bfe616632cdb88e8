import type { IDataObject, IHttpRequestOptions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { route } from '../../../nodes/AgencyCrm/actions/router';
import type { RequestLogEntry } from '../../../sandbox/metrics';
import { API_BASE, useSandbox } from '../sandbox/harness';
import type { Binary } from '../fakeN8n';
import type { NodeVersion } from '../../../nodes/AgencyCrm/catalogue/form';
import { asVersion } from '../versions';
import { credentialsOf, inProcessContext } from './context';

/**
 * The node's router run in-process against a sandbox of its own: each run starts from clean
 * counters and request log, so that what the sandbox logged is exactly what that run sent.
 */

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
	/**
	 * The node's version: the items' parameters are written as version 1 holds them, and moved to
	 * where this version's form has them (test/support/versions.ts).
	 */
	version?: NodeVersion;
}

export interface SandboxRunner {
	/** Runs the node once with these items (one parameter object per item), as demo-client. */
	run(items: Array<Record<string, unknown>>, options?: RunOptions): Promise<RunResult>;
}

/** A runner for the tests of one file, with a sandbox of its own started before them. */
export function useRunner(): SandboxRunner {
	const harness = useSandbox();
	return {
		async run(items, { binaries = [], continueOnFail = false, version = 1 } = {}) {
			const { sandbox } = harness;
			await harness.admin('POST', '/reset');
			const { context, hints, sent } = inProcessContext(
				credentialsOf(sandbox),
				items.map((parameters) => asVersion(parameters, version)),
				binaries,
				continueOnFail,
				version,
			);
			const [output] = await route.call(context);
			const logged: LoggedRequest[] = (await harness.admin('GET', '/requests?limit=2000')).body.data;
			return {
				items: output,
				output: output.map((item) => item.json),
				requests: logged.filter((entry) => entry.path.startsWith(`${API_BASE}/`)),
				logged,
				sent,
				hints,
			};
		},
	};
}
