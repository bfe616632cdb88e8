import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { testContext } from '../support/real-n8n/context';
import type { Rest } from '../support/installer/communityNodes';
import {
	RUNS,
	communityPackages,
	enableCustomRegistry,
	installerInstance,
	installerPorts,
	servedDescription,
} from '../support/installer/communityNodes';
import { RELEASED, stageWorkingTree } from '../support/installer/packages';
import type { StagedPackage } from '../support/installer/packages';
import type { Registry, RegistryServer } from '../support/installer/registry';
import { cleanNpmEnv, registryClient, startRegistry } from '../support/installer/registry';
import type { N8nInstance, N8nProcess } from '../../tools/n8n/launcher';
import {
	NODE_TYPES,
	PACKAGE_NAME,
	executeWorkflow,
	importJson,
	installedN8n,
	restClient,
	startServer,
} from '../../tools/n8n/launcher';
import { byId, crmNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 21: what a self-hoster sets for community packages, each in an n8n started with it (the
 * variables' names are n8n's own, found in its source for each version), and the README's install
 * paths other than the page: packages named in the environment (n8n 2.x), and `npm install` in
 * `~/.n8n/nodes`, the way queue-mode workers get the package.
 */
const { origin, client } = testContext();
const n8n = installedN8n();
const run = promisify(execFile);

let registryServer: RegistryServer;
let registry: Registry;
let next: StagedPackage;
let server: N8nProcess | undefined;

beforeAll(async () => {
	registryServer = await startRegistry(RUNS);
	registry = registryClient(registryServer);
	await registry.publish(RELEASED.tarball);
	next = stageWorkingTree(RUNS);
	await registry.publish(next.folder);
}, 120_000);

afterEach(async () => {
	await server?.stop();
	server = undefined;
});

afterAll(async () => {
	await registryServer?.stop();
});

async function start(name: string, env: NodeJS.ProcessEnv): Promise<{ instance: N8nInstance; rest: Rest }> {
	const instance = installerInstance(name, n8n, registry.url, env);
	enableCustomRegistry(instance);
	server = await startServer(instance);
	return { instance, rest: await restClient(server) };
}

const settings = async (rest: Rest) =>
	(await rest<{ communityNodesEnabled: boolean; unverifiedCommunityNodesEnabled: boolean }>('GET', '/settings')).data;

test('N8N_COMMUNITY_PACKAGES_ENABLED=false: the editor hides the Community Nodes page', async () => {
	const { rest } = await start('disabled', { N8N_COMMUNITY_PACKAGES_ENABLED: 'false' });
	expect(await settings(rest)).toMatchObject({ communityNodesEnabled: false });
	// The page's REST route is still there: measured, it installs on n8n 2.41 (200) and fails on 1.123
	// (500). The README says not to rely on the variable to keep packages out.
	const answer = await communityPackages(rest).install();
	console.log(
		`N8N_COMMUNITY_PACKAGES_ENABLED=false, n8n ${n8n.version}: ${answer.status} ${JSON.stringify(answer.data).slice(0, 300)}`,
	);
	expect(answer.status).toBe(n8n.major >= 2 ? 200 : 500);
});

test('N8N_UNVERIFIED_PACKAGES_ENABLED=false: a package n8n has not verified is refused before any download', async () => {
	const { rest } = await start('verified-only', { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' });
	expect(await settings(rest)).toMatchObject({ communityNodesEnabled: true, unverifiedCommunityNodesEnabled: false });
	const refused = await communityPackages(rest).install();
	expect(refused.status).toBeGreaterThanOrEqual(400);
	expect(JSON.stringify(refused.data)).toContain('Installation of unverified community packages is forbidden');
	expect(await communityPackages(rest).list()).toEqual([]);
});

(n8n.major >= 2 ? test : test.skip)(
	'n8n 2.x, N8N_COMMUNITY_PACKAGES: the version named is installed at start, and the page cannot change it',
	async () => {
		const { rest } = await start('managed-by-env', {
			N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
			N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version: next.version }]),
		});
		const [installed] = await communityPackages(rest).list();
		expect(installed).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: next.version });
		for (const type of Object.values(NODE_TYPES)) expect(await servedDescription(rest, type, 1)).toBeDefined();
		const refused = await communityPackages(rest).update(RELEASED.version);
		expect(refused.status).toBe(400);
		expect(JSON.stringify(refused.data)).toContain('managed via environment variables');
	},
);

test('`npm install --legacy-peer-deps n8n-nodes-agency-crm` in ~/.n8n/nodes (as on a queue-mode worker): n8n loads it and runs a workflow', async () => {
	const instance = installerInstance('npm-install', n8n, registry.url);
	const nodesFolder = path.join(instance.userFolder, '.n8n/nodes');
	// The README's commands, in the nodes folder of an n8n that never ran (its .npmrc names the
	// registry, as a private registry's would).
	for (const command of [
		['init', '-y'],
		['install', '--legacy-peer-deps', PACKAGE_NAME],
	]) {
		await run('npm', command, { cwd: nodesFolder, env: cleanNpmEnv({ HOME: instance.userFolder }) });
	}
	const credential = sandboxCredential('credNpmInstall01', origin, client('demo-client'));
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		linearWorkflow('wfNpmInstall0001', [
			crmNode('Get Agency', credential, { resource: 'agency', operation: 'get', agencyId: byId(101) }),
		]),
	]);
	const result = await executeWorkflow(instance, 'wfNpmInstall0001', installerPorts(n8n).cliBroker);
	expect(result.error).toBeUndefined();
	expect(result.output['Get Agency']).toEqual([expect.objectContaining({ agency_id: 101 })]);
});
