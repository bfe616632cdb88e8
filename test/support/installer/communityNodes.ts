import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { N8nInstance, N8nVersion, restClient } from '../../../tools/n8n/launcher';
import { PACKAGE_NAME, ROOT, createInstance } from '../../../tools/n8n/launcher';
import { portBase } from '../real-n8n/context';

/**
 * n8n's own community package installer, driven as its Settings → Community Nodes page drives it
 * (the page's REST routes), installing from the tests' registry instead of npmjs.org.
 */

export type Rest = Awaited<ReturnType<typeof restClient>>;

/** Where the installer tests keep their n8n folders, registries and staged packages (emptied by each run). */
export const RUNS = path.join(ROOT, '.cache/runs');

/** The ports of the installer tests: the suites' base + 70 (n8n 2.x) or + 74 (n8n 1.x), and the next three. */
export function installerPorts(n8n: N8nVersion) {
	const port = portBase() + (n8n.major >= 2 ? 70 : 74);
	return { n8n: port, broker: port + 1, cliBroker: port + 2 };
}

/**
 * An n8n without the package, whose installer uses `registryUrl`. A registry other than npmjs.org
 * is a licensed feature (`feat:communityNodes:customRegistry`): a preload answers that one licence
 * question, no until enableCustomRegistry (customRegistryLicence.js). n8n 1.x runs `npm outdated`
 * (the page's "update available") with a stripped environment, in the nodes folder: there, only the
 * folder's own .npmrc tells npm which registry to ask, as on a self-hoster's machine.
 */
export function installerInstance(
	name: string,
	n8n: N8nVersion,
	registryUrl: string,
	extraEnv: NodeJS.ProcessEnv = {},
): N8nInstance {
	const instance = createInstance(name, installerPorts(n8n).n8n, n8n, { withPackage: false });
	const nodesFolder = path.join(instance.userFolder, '.n8n/nodes');
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(path.join(nodesFolder, '.npmrc'), `registry=${registryUrl}\n`);
	instance.env = {
		...instance.env,
		N8N_COMMUNITY_PACKAGES_REGISTRY: registryUrl,
		NODE_OPTIONS: `--require ${path.join(__dirname, 'customRegistryLicence.js')}`,
		AGENCY_CRM_CUSTOM_REGISTRY_LICENSED: path.join(instance.userFolder, 'custom-registry-licensed'),
		...extraEnv,
	};
	return instance;
}

export const LICENSE_FEATURE = 'feat:communityNodes:customRegistry';

/** From now on, the licence of this n8n allows a custom registry (read at every install, and at start). */
export function enableCustomRegistry(instance: N8nInstance) {
	writeFileSync(instance.env.AGENCY_CRM_CUSTOM_REGISTRY_LICENSED!, 'licensed\n');
}

/** An installed package as the page lists it. */
export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	updateAvailable?: string;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
}

/** The page's calls: install, list, update, uninstall; each answers its status, body and duration. */
export function communityPackages(rest: Rest) {
	const timed = async <T>(method: string, route: string, body?: unknown) => {
		const started = performance.now();
		const answer = await rest<T>(method, route, body);
		return { ...answer, ms: Math.round(performance.now() - started) };
	};
	return {
		install: (version?: string) =>
			timed<InstalledPackage>('POST', '/community-packages', { name: PACKAGE_NAME, verify: false, version }),
		list: async () => (await rest<InstalledPackage[]>('GET', '/community-packages')).data,
		update: (version: string) =>
			timed<InstalledPackage>('PATCH', '/community-packages', { name: PACKAGE_NAME, version }),
		uninstall: () => timed('DELETE', `/community-packages?name=${PACKAGE_NAME}`),
	};
}

/** A node type's description as the editor fetches it after n8n announces a (re)loaded node; undefined when unknown. */
export async function servedDescription(rest: Rest, type: string, version: number) {
	const { status, data } = await rest<Array<{ properties: Array<{ name: string }> } | null>>('POST', '/node-types', {
		nodeInfos: [{ name: type, version }],
	});
	return status === 200 && Array.isArray(data) ? (data[0] ?? undefined) : undefined;
}
