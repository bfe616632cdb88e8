import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { descendants, processInfo, ProcessInfo } from '../processes';

/**
 * `npm start` as a user runs it, driven from code (test/demo): a copy of the repository as a fresh
 * clone has it, and `npm start` processes in it whose output is read and which are stopped by signal.
 */

/**
 * A copy of the repository's files (tracked, and new ones not ignored) in a new folder, as a fresh
 * clone has them, sharing this checkout's installs: node_modules and the installed n8n runtimes
 * and Node 24 (the demo would install the same again). Timestamps are kept, so that the copy's
 * lockfile is not newer than the shared node_modules.
 */
export function checkoutLikeCopy(root: string, runtimes: string[]): string {
	const copy = mkdtempSync(path.join(tmpdir(), 'agency-crm-checkout-'));
	const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
		cwd: root,
		encoding: 'utf8',
	})
		.split('\0')
		.filter((file) => file && file !== 'node_modules' && existsSync(path.join(root, file)));
	for (const file of files) {
		mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
		cpSync(path.join(root, file), path.join(copy, file), { preserveTimestamps: true });
	}
	symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
	mkdirSync(path.join(copy, '.cache'));
	for (const name of [...runtimes.map((runtime) => `n8n-${runtime}`), 'node24']) {
		const installed = path.join(root, '.cache', name);
		if (existsSync(installed)) symlinkSync(realpathSync(installed), path.join(copy, '.cache', name));
	}
	return copy;
}

export interface NpmStart {
	/** npm's own pid: what a process manager signals. */
	pid: number;
	/** Everything it printed so far, stdout and stderr as they came. */
	output(): string;
	/** Resolves with the time from the start when the banner says the demo is ready. */
	ready(timeoutMs: number): Promise<number>;
	/** Resolves with npm's exit code. */
	exited: Promise<number | null>;
	/** npm and every process it started, now. */
	processes(): ProcessInfo[];
}

/** Runs `npm start [-- args]` in `folder`, in a process group of its own (so that nothing else gets its signals). */
export function npmStart(folder: string, env: NodeJS.ProcessEnv, args: string[] = []): NpmStart {
	const started = performance.now();
	const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
		cwd: folder,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const waiters: Array<() => void> = [];
	const collect = (chunk: Buffer) => {
		output += chunk.toString();
		for (const waiter of waiters) waiter();
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return {
		pid: child.pid!,
		output: () => output,
		exited,
		processes: () => [processInfo(child.pid!), ...descendants(child.pid!)].filter((info) => info !== undefined),
		ready: (timeoutMs) =>
			new Promise((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`npm start was not ready within ${timeoutMs} ms:\n${output}`)),
					timeoutMs,
				);
				const check = () => {
					if (/The demo is ready/.test(output)) {
						clearTimeout(timer);
						resolve(performance.now() - started);
					}
				};
				waiters.push(check);
				check();
				void exited.then((code) => {
					clearTimeout(timer);
					reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`));
				});
			}),
	};
}
