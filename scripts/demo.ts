import { startSandbox } from '../sandbox';
import { readExamples, startStandIn, withStandIn } from '../tools/n8n/examples';
import { OWNER, createInstance, importJson, startServer } from '../tools/n8n/launcher';
import { sandboxCredential } from '../tools/n8n/workflows';

/**
 * The main job: the sandbox plus an n8n with this package installed, a credential pointing at the
 * sandbox and the example workflows, ready in the browser. The examples' mailing tool and chat are a
 * local stand-in that prints what it receives. Stop with Ctrl+C.
 */
async function main() {
	const sandboxPort = Number(process.env.AGENCY_CRM_SANDBOX_PORT ?? 4010);
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const sandbox = await startSandbox({ port: sandboxPort, quiet: true });
	const client = sandbox.clients.find((candidate) => candidate.clientId === 'demo-client') ?? sandbox.clients[0];

	const instance = createInstance('demo', n8nPort);
	await importJson(instance, 'credentials', [
		{ ...sandboxCredential('agencyCrmSandbox', sandbox.authUrl, client), name: 'Agency CRM Sandbox' },
	]);
	const standIn = await startStandIn(0, (request) =>
		console.log(`[stand-in] ${request.method} ${request.path} ${JSON.stringify(request.body).slice(0, 200)}`),
	);
	const workflows = [...readExamples().values()].map((workflow) => withStandIn(workflow, standIn.url));
	await importJson(instance, 'workflow', workflows);

	console.log(`Sandbox (Agency CRM API simulator): ${sandbox.origin}  (admin routes under ${sandbox.origin}/_admin)`);
	console.log('Starting n8n…');
	const server = await startServer(instance);
	console.log('');
	console.log(`n8n is ready: ${server.url}`);
	console.log(`  log in as ${OWNER.email} / ${OWNER.password}`);
	console.log(
		`  credential "Agency CRM Sandbox" → ${sandbox.authUrl} (client ${client.clientId}, site ${client.siteId})`,
	);
	console.log(`  ${workflows.length} example workflows imported from examples/ (docs/examples.md)`);
	console.log(`  their mailing tool and chat: a stand-in at ${standIn.url} that prints what it receives`);
	console.log('Press Ctrl+C to stop.');

	const stop = async () => {
		await server.stop();
		await standIn.close();
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
