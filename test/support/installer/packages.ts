import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import type { INodeTypeDescription } from 'n8n-workflow';

import { PACKAGE_NAME, ROOT, packedTarball } from '../../../tools/n8n/launcher';

/**
 * The two versions the installer tests publish and update between. X is the released 0.1.0 as
 * built at its release commit (6272631, the tree CHANGELOG.md's 0.1.0 describes), kept as a small
 * tarball: building a commit of another era in a fresh clone would need that era's dev
 * dependencies. X+1 is the working tree, packed as users get it: whatever changed since 0.1.0
 * (parameters renamed or moved, a node version 2) is what the update test puts in front of
 * workflows saved under 0.1.0.
 */

export const RELEASED = {
	version: '0.1.0',
	tarball: path.join(ROOT, 'test/support/fixtures', `${PACKAGE_NAME}-0.1.0.tgz`),
};

function unpack(tarball: string, folder: string): string {
	mkdirSync(folder, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1']);
	return folder;
}

const versionParts = (version: string) => version.split(/[.-]/).slice(0, 3).map(Number);

/** Whether `a` is a later x.y.z than `b`. */
function isLater(a: string, b: string): boolean {
	const [x, y] = [versionParts(a), versionParts(b)];
	const index = x.findIndex((part, at) => part !== y[at]);
	return index !== -1 && x[index] > y[index];
}

export interface StagedPackage {
	folder: string;
	version: string;
}

/**
 * The working tree's package, ready for `npm publish` in its folder: the packed tarball unpacked,
 * under its own version when that is later than 0.1.0 and the next patch number otherwise (the
 * unreleased changes still say 0.1.0). Its `prepublishOnly` is the real guard, so publishing runs
 * it (outside the repository, whose .npmrc turns scripts off); `publishConfig`'s provenance is left
 * out, because npm can make none outside GitHub Actions, and a registry on loopback needs none.
 */
export function stageWorkingTree(parent: string): StagedPackage {
	mkdirSync(parent, { recursive: true });
	const folder = unpack(packedTarball(), mkdtempSync(path.join(parent, 'next-')));
	const manifestFile = path.join(folder, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
		version: string;
		scripts: Record<string, string>;
	};
	const [major, minor, patch] = versionParts(RELEASED.version);
	const version = isLater(manifest.version, RELEASED.version) ? manifest.version : `${major}.${minor}.${patch + 1}`;
	const guard = 'scripts/require-provenance.js';
	if (manifest.scripts.prepublishOnly !== `node ${guard}`) {
		throw new Error(`package.json's prepublishOnly is no longer "node ${guard}": update the installer tests`);
	}
	mkdirSync(path.join(folder, 'scripts'));
	copyFileSync(path.join(ROOT, guard), path.join(folder, guard));
	writeFileSync(
		manifestFile,
		JSON.stringify(
			{ ...manifest, version, scripts: { prepublishOnly: manifest.scripts.prepublishOnly }, publishConfig: undefined },
			null,
			2,
		),
	);
	return { folder, version };
}

interface DescribedNode {
	description: INodeTypeDescription & { defaultVersion?: number };
	nodeVersions?: Record<number, { description: INodeTypeDescription }>;
}

/** The names of a node description's parameters, sorted, each once. */
export const parameterNames = (description: { properties: Array<{ name: string }> }) =>
	[...new Set(description.properties.map((property) => property.name))].sort();

/**
 * The action node's parameter names in a package tarball, by version of the node as n8n would show
 * it (the description of a versioned node's default version): what an update makes visible.
 */
export function actionParameters(tarball: string, parent: string): string[] {
	const folder = unpack(tarball, mkdtempSync(path.join(parent, 'describe-')));
	const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	const file = manifest.n8n.nodes.find((node) => node.endsWith('/AgencyCrm.node.js'))!;
	const loaded = createRequire(path.join(ROOT, 'package.json'))(path.join(folder, file)) as Record<
		string,
		new () => DescribedNode
	>;
	const node = new loaded.AgencyCrm();
	// A versioned node (n8n's VersionedNodeType) describes each version apart.
	const { description } = node.nodeVersions ? node.nodeVersions[node.description.defaultVersion!] : node;
	return parameterNames(description);
}
