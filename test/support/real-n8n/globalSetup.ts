import { execFileSync } from 'node:child_process';

import { startSandbox } from '../../../sandbox';
import { createInstance, installedN8n } from '../../../tools/n8n/launcher';
import { portBase, RETRY_DELAYS_MS } from './context';

/**
 * One sandbox and one n8n user folder (with this package installed) for the whole real-n8n run of
 * one n8n version (AGENCY_CRM_N8N_VERSION, see scripts/test-real-n8n.sh).
 */
export default async function globalSetup() {
	// Production's retries and suspension, with delays of seconds rather than minutes (docs/sandbox.md).
	const sandbox = await startSandbox({ port: 0, quiet: true, seed: 7, deliveryRetryDelaysMs: RETRY_DELAYS_MS });
	(globalThis as { agencyCrmSandbox?: { close(): Promise<void> } }).agencyCrmSandbox = sandbox;
	process.env.AGENCY_CRM_SANDBOX_ORIGIN = sandbox.origin;
	process.env.AGENCY_CRM_SANDBOX_CLIENTS = JSON.stringify(sandbox.clients);
	const n8n = installedN8n();
	const port = portBase() + (n8n.major >= 2 ? 0 : 10);
	process.env.AGENCY_CRM_N8N = JSON.stringify(createInstance('real-n8n', port, n8n));
	const node = execFileSync(n8n.node, ['--version']).toString().trim();
	console.log(`\nreal n8n ${n8n.version} on Node ${node}, port ${port}`);
}
