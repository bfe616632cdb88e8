import { spawn, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from '../../../tools/n8n/launcher';
import { waitFor } from '../waitFor';

/**
 * Verdaccio, a real npm registry server (installed by scripts/ensure-verdaccio.sh into
 * .cache/verdaccio), on a free loopback port with its storage in a temporary folder and no
 * uplinks: it serves only what the tests publish to it, and asks nothing of the npm registry.
 */

const VERDACCIO = path.join(ROOT, '.cache/verdaccio/node_modules/verdaccio/bin/verdaccio');
const run = promisify(execFile);

export interface RegistryServer {
	/** `http://127.0.0.1:PORT/`, as npm and n8n are given it. */
	url: string;
	/** An npm config file that points npm at this registry, with a publisher's token. */
	npmrc: string;
	log(): string;
	stop(): Promise<void>;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** npm's environment without the npm_* variables of the run that started the tests (npm test sets them). */
export function cleanNpmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
	return { ...env, ...extra };
}

export async function startRegistry(folder: string): Promise<RegistryServer> {
	mkdirSync(folder, { recursive: true });
	const home = mkdtempSync(path.join(folder, 'registry-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/`;
	const config = path.join(home, 'config.yaml');
	// No uplinks: a name it does not hold is a 404, never a question to the npm registry. Anyone may
	// read; a registered user publishes (npm sends a token with every publish).
	writeFileSync(
		config,
		[
			`storage: ${path.join(home, 'storage')}`,
			'auth:',
			`  htpasswd: { file: ${path.join(home, 'htpasswd')} }`,
			'uplinks: {}',
			'packages:',
			"  '**': { access: $all, publish: $authenticated, unpublish: $authenticated }",
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const child = spawn(process.execPath, [VERDACCIO, '--config', config, '--listen', `127.0.0.1:${port}`], {
		cwd: home,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null) child.kill('SIGTERM');
		await exited;
		rmSync(home, { recursive: true, force: true });
	};
	try {
		await waitFor(
			`Verdaccio on port ${port}`,
			async () => {
				if (child.exitCode !== null) throw new Error(`Verdaccio exited:\n${output}`);
				return (await fetch(`${url}-/ping`)).ok;
			},
			60_000,
		);
		// Verdaccio's own user registration, as `npm adduser` does it: the answer carries a token.
		const user = { name: 'publisher', password: 'publisher-password' };
		const response = await fetch(`${url}-/user/org.couchdb.user:${user.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(user),
		});
		const { token } = (await response.json()) as { token?: string };
		if (!token) throw new Error(`Verdaccio gave no token: ${response.status}`);
		const npmrc = path.join(home, 'npmrc');
		writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
		return {
			url,
			npmrc,
			log: () => output,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** What the tests do with the registry: publish to it, and read what it holds. */
export function registryClient({ url, npmrc }: Pick<RegistryServer, 'url' | 'npmrc'>) {
	return {
		url,
		/** `npm publish` of a tarball, or in a package folder (then its lifecycle scripts run, the guard included). */
		publish: async (target: string, extraArgs: string[] = []) => {
			const isFolder = !target.endsWith('.tgz');
			const args = [
				'publish',
				...(isFolder ? [] : [target]),
				`--registry=${url}`,
				`--userconfig=${npmrc}`,
				...extraArgs,
			];
			return await run('npm', args, { cwd: isFolder ? target : path.dirname(npmrc), env: cleanNpmEnv() });
		},
		/** The versions of a package the registry holds, and its `latest` dist-tag. */
		versions: async (name: string) => {
			const answer = await fetch(`${url}${name}`);
			if (answer.status === 404) return { versions: [] as string[], latest: undefined };
			const body = (await answer.json()) as { versions: Record<string, unknown>; 'dist-tags': { latest?: string } };
			return { versions: Object.keys(body.versions), latest: body['dist-tags'].latest };
		},
	};
}

export type Registry = ReturnType<typeof registryClient>;
