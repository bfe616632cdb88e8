import { startSandbox } from '../../sandbox';
import { createInstance } from './harness/n8n';

/** One sandbox and one n8n user folder (with this package installed) for the whole real-n8n run. */
export default async function globalSetup() {
	const sandbox = await startSandbox({ port: 0, quiet: true, seed: 7 });
	(globalThis as { agencyCrmSandbox?: { close(): Promise<void> } }).agencyCrmSandbox = sandbox;
	process.env.AGENCY_CRM_SANDBOX_ORIGIN = sandbox.origin;
	process.env.AGENCY_CRM_SANDBOX_CLIENTS = JSON.stringify(sandbox.clients);
	process.env.AGENCY_CRM_N8N = JSON.stringify(createInstance('real-n8n', 5710));
}
