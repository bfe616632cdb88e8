import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { testContext } from '../support/real-n8n/context';
import { RUNS, installerPorts } from '../support/installer/communityNodes';
import { cleanNpmEnv } from '../support/installer/registry';
import { checkoutLikeCopy } from '../../tools/demo/session';
import type { N8nInstance } from '../../tools/n8n/launcher';
import {
	PACKAGE_NAME,
	ROOT,
	createInstance,
	executeWorkflow,
	importJson,
	installedN8n,
} from '../../tools/n8n/launcher';
import { byId, crmNode, linearWorkflow, sandboxCredential } from '../../tools/n8n/workflows';

/**
 * Issue 29, point 2: the install path that works before the package is on npm, run as
 * docs/installation.md writes it. Its blocks are read from the page itself and run in bash: the
 * pack in a copy of the repository as a fresh clone has it (its first three lines, the clone and
 * `npm ci`, are not run again: the copy shares this checkout's installed dependencies), the install
 * into the nodes folder of an n8n that never ran, and the Docker install with `docker` taken away
 * (`docker cp` as cp, `docker exec n8n sh -c '…'` as `sh -c '…'` with the container's home, `docker
 * restart` as a new n8n process), as no Docker runs here. Each n8n then runs a workflow with the node.
 */
const { origin, client } = testContext();
const n8n = installedN8n();
const run = promisify(execFile);
const PAGE = path.join(ROOT, 'docs/installation.md');
/** How npm records a package installed from a tarball in the folder's package.json. */
const TARBALL = /^file:.*n8n-nodes-agency-crm[-\d.]*\.tgz$/;

/** The bash block of the page marked `<!-- install: name -->`, line by line. */
function block(name: string): string[] {
	const page = readFileSync(PAGE, 'utf8');
	const found = new RegExp(`<!-- install: ${name} -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\``).exec(page);
	if (!found) throw new Error(`docs/installation.md has no block "${name}"`);
	return found[1].trim().split('\n');
}

/** Runs the lines in one bash session, in `cwd`, with `env`; answers what it printed and the value of `tarball`. */
async function bash(lines: string[], cwd: string, env: NodeJS.ProcessEnv) {
	const script = ['set -euo pipefail', ...lines, 'echo "tarball=${tarball:-}"'].join('\n');
	// The user's shell: no npm_* variables of jest's npm, no N8N_USER_FOLDER.
	const shell = cleanNpmEnv(env);
	delete shell.N8N_USER_FOLDER;
	const { stdout } = await run('bash', ['-c', script], { cwd, env: shell, maxBuffer: 16 * 1024 * 1024 });
	return { stdout, tarball: /^tarball=(.*)$/m.exec(stdout)?.[1] ?? '' };
}

let copy: string;
let tarball: string;

beforeAll(async () => {
	copy = checkoutLikeCopy(ROOT, []);
	const pack = block('pack');
	expect(pack.slice(0, 3)).toEqual([
		'git clone https://github.com/agency-crm/n8n-nodes-agency-crm.git',
		'cd n8n-nodes-agency-crm',
		'npm ci',
	]);
	({ tarball } = await bash(pack.slice(3), copy, { HOME: copy }));
}, 180_000);

afterAll(() => {
	rmSync(copy, { recursive: true, force: true });
	rmSync('/tmp/n8n-nodes-agency-crm.tgz', { force: true });
});

/** An n8n without the package, whose home holds the nodes folder the commands install into. */
function freshN8n(name: string): N8nInstance {
	mkdirSync(RUNS, { recursive: true });
	return createInstance(name, installerPorts(n8n).n8n, n8n, { withPackage: false });
}

/** What the install left in the nodes folder: the package at the version packed, and no n8n-workflow of its own. */
function installed(instance: N8nInstance) {
	const folder = path.join(instance.userFolder, '.n8n/nodes');
	const manifest = JSON.parse(readFileSync(path.join(folder, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'));
	return {
		version: manifest.version as string,
		ownWorkflowCopy: existsSync(path.join(folder, 'node_modules/n8n-workflow')),
		dependency: JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).dependencies?.[PACKAGE_NAME],
	};
}

/** n8n, started on the folder, runs a workflow that reads an agency through the node. */
async function runsTheNode(instance: N8nInstance, id: string) {
	const credential = sandboxCredential(`cred${id}`, origin, client('demo-client'));
	await importJson(instance, 'credentials', [credential]);
	await importJson(instance, 'workflow', [
		linearWorkflow(`wf${id}`, [
			crmNode('Get Agency', credential, { resource: 'agency', operation: 'get', agencyId: byId(101) }),
		]),
	]);
	const result = await executeWorkflow(instance, `wf${id}`, installerPorts(n8n).cliBroker);
	expect(result.error).toBeUndefined();
	expect(result.output['Get Agency']).toEqual([expect.objectContaining({ agency_id: 101 })]);
}

test('step 1 packs the package into the folder: $tarball names it', () => {
	const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
	expect(tarball).toBe(path.join(copy, `${PACKAGE_NAME}-${version}.tgz`));
	expect(existsSync(tarball)).toBe(true);
});

test('step 2, n8n on the machine: the commands install into ~/.n8n/nodes, and n8n runs the node', async () => {
	const instance = freshN8n('manual-install');
	// The user's shell: the tarball of step 1, a home, no N8N_USER_FOLDER.
	await bash([`tarball='${tarball}'`, ...block('nodes-folder')], copy, { HOME: instance.userFolder });
	const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
	expect(installed(instance)).toEqual({ version, ownWorkflowCopy: false, dependency: expect.stringMatching(TARBALL) });
	await runsTheNode(instance, 'ManualInstall01');
});

test('step 2, n8n in Docker: the same install in the container home, and n8n runs the node', async () => {
	const instance = freshN8n('docker-install');
	const container = mkdtempSync(path.join(RUNS, 'container-'));
	const lines = block('docker').map((line) =>
		line
			.replace(/^docker cp (\S+) n8n:(\S+)$/, 'cp $1 $2')
			.replace(/^docker exec n8n sh -c /, `HOME='${instance.userFolder}' sh -c `)
			.replace(/^docker restart n8n$/, 'true'),
	);
	expect(lines.filter((line) => line.startsWith('docker'))).toEqual([]);
	await bash([`tarball='${tarball}'`, ...lines], container, { HOME: container });
	const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
	expect(installed(instance)).toEqual({ version, ownWorkflowCopy: false, dependency: expect.stringMatching(TARBALL) });
	await runsTheNode(instance, 'DockerInstall01');
});
