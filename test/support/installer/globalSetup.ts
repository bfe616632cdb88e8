import { startSandbox } from '../../../sandbox';
import { installedN8n } from '../../../tools/n8n/launcher';

/**
 * One sandbox for one n8n version's run of the installer tests (scripts/test-installer.sh); each
 * test file starts its own registry, so that what one publishes never decides what another finds.
 */
export default async function globalSetup() {
	const sandbox = await startSandbox({ port: 0, quiet: true, seed: 7 });
	(globalThis as { agencyCrmSandbox?: { close(): Promise<void> } }).agencyCrmSandbox = sandbox;
	process.env.AGENCY_CRM_SANDBOX_ORIGIN = sandbox.origin;
	process.env.AGENCY_CRM_SANDBOX_CLIENTS = JSON.stringify(sandbox.clients);
	console.log(`\ninstaller tests on n8n ${installedN8n().version}`);
}
