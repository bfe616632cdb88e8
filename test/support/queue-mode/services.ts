import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Redis and PostgreSQL for queue mode, from Debian's packages (scripts/ensure-queue-services.sh
 * installs them), each started on a free loopback port with its data in a temporary folder.
 */

export interface Service {
	port: number;
	stop(): Promise<void>;
	log(): string;
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/** Starts a server and resolves once its output says it is ready. */
function supervise(
	name: string,
	child: ChildProcess,
	ready: RegExp,
): Promise<{ exited: Promise<void>; log(): string }> {
	let output = '';
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 60_000);
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			if (!ready.test(output)) return;
			clearTimeout(timer);
			resolve({ exited, log: () => output });
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`${name} exited (${code}) while starting:\n${output}`));
		});
	});
}

export async function startRedis(): Promise<Service> {
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'agency-crm-redis-'));
	const child = spawn(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const { exited, log } = await supervise('redis-server', child, /Ready to accept connections/);
	return {
		port,
		log,
		async stop() {
			child.kill('SIGTERM');
			await exited;
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** The newest PostgreSQL that Debian's packages installed. */
function postgresBin(): string {
	const versions = readdirSync('/usr/lib/postgresql')
		.filter((name) => /^\d+$/.test(name))
		.sort((a, b) => Number(a) - Number(b));
	if (!versions.length) throw new Error('PostgreSQL is not installed: run scripts/ensure-queue-services.sh');
	return path.join('/usr/lib/postgresql', versions[versions.length - 1], 'bin');
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** A new cluster (trust authentication, loopback only, no fsync) holding one empty database. */
export async function startPostgres(database: string): Promise<Service> {
	const bin = postgresBin();
	const port = await freePort();
	const dir = mkdtempSync(path.join(tmpdir(), 'agency-crm-postgres-'));
	if (process.getuid?.() === 0) {
		const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
		chownSync(dir, id('-u'), id('-g'));
	}
	const data = path.join(dir, 'data');
	const run = (command: string, args: string[]) => {
		const [file, argv] = asPostgres(path.join(bin, command), args);
		return execFileSync(file, argv, { stdio: 'pipe' });
	};
	run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
	const [file, argv] = asPostgres(path.join(bin, 'postgres'), [
		...['-D', data, '-p', String(port), '-k', dir],
		...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
	]);
	const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
	const { exited, log } = await supervise('postgres', child, /ready to accept connections/);
	run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);
	return {
		port,
		log,
		async stop() {
			run('pg_ctl', ['stop', '-D', data, '-m', 'fast']);
			await exited;
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
