import { spawn, execFileSync } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { groupMembers, onPath } from '../processes';
import { fetchPatiently } from './network';

/**
 * Drives a real n8n (installed by scripts/ensure-n8n.sh under .cache/) headless on loopback, for the
 * demo and the real-n8n tests: a private user folder, this package installed from its `npm pack`
 * tarball the way a user's community-package install lays it out, CLI imports and executions, and
 * long-running processes (`n8n start`, and `n8n worker` / `n8n webhook` in queue mode).
 * n8n 1.x and 2.x differ in how they start (Node version, owner setup, modules); that is handled
 * here, so that the package and the tests do not branch on the version.
 */

/** The repository root, whether this file runs from tools/ (jest) or compiled from build/ (demo). */
function findRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, 'tools/n8n/runtimes'))) return dir;
	}
	throw new Error(`No repository root above ${start}`);
}

export const ROOT = findRoot(__dirname);
const CACHE = path.join(ROOT, '.cache');
/** The Node 24 scripts/ensure-n8n.sh fetched for this platform, when the machine's Node is older. */
const NODE24 = path.join(CACHE, 'node24/bin/node');
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
export const PACKAGE_NAME = 'n8n-nodes-agency-crm';

export const OWNER = { email: 'owner@agency-crm.test', password: 'Sandbox-Owner-1' };

/** Node type names as real users' workflows spell them (community package prefix). */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.agencyCrm`,
	trigger: `${PACKAGE_NAME}.agencyCrmTrigger`,
	answer: `${PACKAGE_NAME}.agencyCrmAnswer`,
};

/** The n8n the demo runs, and the first of the test matrix. */
export const DEFAULT_N8N = '2.41';

/** An installed n8n: a runtime of tools/n8n/runtimes, installed into .cache/n8n-<runtime>. */
export interface N8nVersion {
	/** The runtime's name, e.g. "2.41" (tools/n8n/runtimes/n8n-2.41). */
	runtime: string;
	/** The installed n8n's version, e.g. "2.41.1". */
	version: string;
	major: number;
	/** The Node binary it runs on: the Node running this, unless the runtime asks for 24 and this one is older. */
	node: string;
	bin: string;
}

/** The n8n a runtime installed (AGENCY_CRM_N8N_VERSION, else the default). */
export function installedN8n(runtime: string = process.env.AGENCY_CRM_N8N_VERSION ?? DEFAULT_N8N): N8nVersion {
	const runtimeDir = path.join(ROOT, 'tools/n8n/runtimes', `n8n-${runtime}`);
	const installDir = path.join(CACHE, `n8n-${runtime}`);
	const packageFile = path.join(installDir, 'node_modules/n8n/package.json');
	if (!existsSync(packageFile)) {
		throw new Error(`n8n ${runtime} is not installed: run bash scripts/ensure-n8n.sh ${runtime}`);
	}
	const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
	const wanted = JSON.parse(readFileSync(path.join(runtimeDir, 'package.json'), 'utf8')) as {
		engines?: { node?: string };
	};
	return {
		runtime,
		version,
		major: Number(version.split('.')[0]),
		node: /^>=\s*24/.test(wanted.engines?.node ?? '') && NODE_MAJOR < 24 ? NODE24 : process.execPath,
		bin: path.join(installDir, 'node_modules/n8n/bin/n8n'),
	};
}

export interface N8nInstance {
	userFolder: string;
	port: number;
	env: NodeJS.ProcessEnv;
	n8n: N8nVersion;
}

/**
 * The owner's password hash, with which n8n 2.x creates its owner without a setup screen. It is made
 * once per user folder and kept there: n8n signs its sessions with the hash, so a new one at each
 * start (bcrypt salts every hash anew) signed the user out of the editor at every restart.
 */
function ownerPasswordHash(password: string, n8n: N8nVersion, userFolder: string): string {
	// bcryptjs ships inside n8n (not a dependency of ours): loaded from n8n's own installation.
	const loadFromN8n = createRequire(n8n.bin);
	const bcrypt = loadFromN8n('bcryptjs') as {
		hashSync(text: string, rounds: number): string;
		compareSync(text: string, hash: string): boolean;
	};
	const file = path.join(userFolder, 'owner-password-hash');
	const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
	if (kept && bcrypt.compareSync(password, kept)) return kept;
	const hash = bcrypt.hashSync(password, 10);
	writeFileSync(file, hash);
	return hash;
}

/** Unpacks the package tarball where n8n looks for installed community packages, replacing an older copy. */
function installPackage(userFolder: string, tarball: string) {
	const target = path.join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	writeFileSync(
		path.join(userFolder, '.n8n/nodes/package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: 'file:' } }),
	);
}

/** The newest tarball made by `npm pack` into .cache/pack (scripts/test-real-n8n.sh makes it). */
export function packedTarball(): string {
	const dir = path.join(CACHE, 'pack');
	const tarballs = readdirSync(dir).filter((file) => file.endsWith('.tgz'));
	if (!tarballs.length) throw new Error(`No package tarball in ${dir}: run scripts/test-real-n8n.sh`);
	return path.join(dir, tarballs.sort().pop()!);
}

/** What differs between n8n 1.x and 2.x at start. */
function versionEnv(n8n: N8nVersion, userFolder: string): NodeJS.ProcessEnv {
	if (n8n.major >= 2) {
		return {
			N8N_DISABLED_MODULES: 'mcp-registry,instance-ai,agents,agent-evals,chat-hub,workflow-builder,insights',
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: ownerPasswordHash(OWNER.password, n8n, userFolder),
		};
	}
	// 1.x: isolated-vm has no Node 20 binary, and unknown module names stop n8n 1.x; the owner is
	// created through the setup API once a server answers (setUpOwner).
	return { N8N_EXPRESSION_ENGINE: 'legacy' };
}

/**
 * n8n copies its editor's scripts into each user folder under .cache/: `n8n-node lint` (eslint . with
 * the config nearest each file, package.json's lint) must not read them as the package's code.
 */
function keepCacheOutOfLint() {
	writeFileSync(path.join(CACHE, 'eslint.config.mjs'), "export default [{ ignores: ['**'] }];\n");
}

/**
 * A fresh user folder with the package installed (unless `withPackage` is false: the installer tests
 * let n8n install it), and the environment of a quiet, isolated n8n on loopback. `port` is the HTTP
 * port; `port + 1` is the task-runner broker's.
 */
export function createInstance(
	name: string,
	port: number,
	n8n: N8nVersion = installedN8n(),
	{ withPackage = true }: { withPackage?: boolean } = {},
): N8nInstance {
	mkdirSync(path.join(CACHE, 'runs'), { recursive: true });
	const userFolder = mkdtempSync(path.join(CACHE, 'runs', `${name}-${n8n.runtime}-`));
	return prepareInstance({ userFolder, port, n8n, withPackage });
}

/**
 * An n8n in `userFolder` (made when missing, kept when it exists: the demo's workflows live on), with
 * the package installed from the newest tarball unless `withPackage` is false; `brokerPort` defaults
 * to `port + 1`.
 */
export function prepareInstance({
	userFolder,
	port,
	brokerPort = port + 1,
	n8n = installedN8n(),
	withPackage = true,
}: {
	userFolder: string;
	port: number;
	brokerPort?: number;
	n8n?: N8nVersion;
	withPackage?: boolean;
}): N8nInstance {
	mkdirSync(userFolder, { recursive: true });
	keepCacheOutOfLint();
	if (withPackage) installPackage(userFolder, packedTarball());
	const env: NodeJS.ProcessEnv = {
		PATH: `${path.dirname(n8n.node)}:${process.env.PATH ?? ''}`,
		HOME: userFolder,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'agency-crm-real-n8n-tests',
		DB_TYPE: 'sqlite',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		// The variable both n8n 1.x and 2.x read (2.x also reads N8N_WEBHOOK_URL).
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LOG_LEVEL: 'info',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		...versionEnv(n8n, userFolder),
	};
	return { userFolder, port, env, n8n };
}

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs one n8n CLI command; a command run beside a server gets its own task-runner port. Its output
 * goes to files, not pipes: n8n exits with process.exit() right after logging `execute`'s result,
 * and Node writes to a pipe asynchronously, so a large result (800 KB for 200 items) could be cut
 * short, which n8n 1.123 once did. Writes to a file are synchronous and always complete.
 */
export function n8nCli(instance: N8nInstance, args: string[], brokerPort?: number): Promise<CliResult> {
	const folder = mkdtempSync(path.join(instance.userFolder, 'cli-'));
	const outputs = { stdout: path.join(folder, 'stdout'), stderr: path.join(folder, 'stderr') };
	const stdout = openSync(outputs.stdout, 'w');
	const stderr = openSync(outputs.stderr, 'w');
	return new Promise<CliResult>((resolve, reject) => {
		const env = brokerPort ? { ...instance.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort) } : instance.env;
		const child = spawn(instance.n8n.node, [instance.n8n.bin, ...args], {
			env,
			cwd: instance.userFolder,
			stdio: ['ignore', stdout, stderr],
		});
		child.on('error', reject);
		child.on('close', (code) =>
			resolve({
				code: code ?? 1,
				stdout: readFileSync(outputs.stdout, 'utf8'),
				stderr: readFileSync(outputs.stderr, 'utf8'),
			}),
		);
	}).finally(() => {
		closeSync(stdout);
		closeSync(stderr);
		rmSync(folder, { recursive: true, force: true });
	});
}

/** Imports credentials or workflows with the CLI; answers what the command printed. */
export async function importJson(
	instance: N8nInstance,
	kind: 'credentials' | 'workflow',
	data: unknown,
): Promise<CliResult> {
	const file = path.join(instance.userFolder, `import-${kind}-${Date.now()}.json`);
	writeFileSync(file, JSON.stringify(data));
	const result = await n8nCli(instance, [`import:${kind}`, `--input=${file}`]);
	rmSync(file);
	if (result.code !== 0) throw new Error(`n8n import:${kind} failed:\n${result.stdout}\n${result.stderr}`);
	return result;
}

/** The result JSON that `n8n execute --rawOutput` prints between log lines (a line `{` … a line `}`). */
function resultJson(stdout: string): unknown {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{' || line === '[');
	if (start === -1) return undefined;
	const closer = lines[start] === '{' ? '}' : ']';
	const end = lines.findIndex((line, index) => index > start && line === closer);
	return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

export interface ExecutionResult {
	code: number;
	/** runData by node name: the output items of each node's runs. */
	output: Record<string, Array<Record<string, unknown>>>;
	raw: unknown;
	error?: { message?: string; description?: string };
	log: string;
}

interface RunData {
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown>; binary?: unknown }>> } }>
			>;
			error?: { message?: string; description?: string };
		};
	};
}

/**
 * Executes an imported workflow with the CLI and returns each node's output items; beside a running
 * server, give the CLI a task-runner port of its own (`brokerPort`).
 */
export async function executeWorkflow(
	instance: N8nInstance,
	workflowId: string,
	brokerPort?: number,
): Promise<ExecutionResult> {
	const result = await n8nCli(instance, ['execute', `--id=${workflowId}`, '--rawOutput'], brokerPort);
	let raw: unknown;
	let unreadable: string | undefined;
	try {
		raw = resultJson(result.stdout);
	} catch (error) {
		unreadable = (error as Error).message;
	}
	const runData = (raw as RunData | undefined)?.data?.resultData?.runData ?? {};
	const output: ExecutionResult['output'] = {};
	for (const [node, runs] of Object.entries(runData)) {
		output[node] = runs
			.flatMap((run) => (run.data?.main ?? []).flat())
			.map((item) => ({ ...item.json, ...(item.binary ? { $binary: item.binary } : {}) }));
	}
	// Without a result, the CLI's own last words are the error (the workflow could not start), or,
	// when it exited 0, that the result could not be read: a run must never look empty but fine.
	const lastLines = result.stdout.trim().split('\n').slice(-5).join('\n');
	const cliError =
		raw !== undefined
			? undefined
			: result.code !== 0
				? { message: result.stdout.trim().split('\n').pop() }
				: {
						message: `n8n execute exited 0 but printed no readable result (${unreadable ?? 'no line "{"'}); its last lines:\n${lastLines}`,
					};
	return {
		code: result.code,
		output,
		raw,
		error: (raw as RunData | undefined)?.data?.resultData?.error ?? cliError,
		log: `${result.stdout}\n${result.stderr}`,
	};
}

export interface N8nProcess {
	/** Its HTTP address (the worker's is its port, though it serves nothing there). */
	url: string;
	pid: number;
	/** Whether it gets SIGTERM when this process dies (see StartOptions.tied). */
	diesWithThisProcess: boolean;
	/** Resolves with its exit code when it exits, whoever stopped it. */
	exited: Promise<number | null>;
	stop(): Promise<void>;
	log(): string;
}

/** The long-running n8n commands: the main instance, and queue mode's worker and webhook processor. */
export type N8nCommand = 'start' | 'worker' | 'webhook';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `done` becomes true within `ms` (polled). */
async function within(ms: number, done: () => boolean): Promise<boolean> {
	for (const end = Date.now() + ms; !done(); await pause(50)) if (Date.now() > end) return false;
	return true;
}

async function answers(url: string): Promise<boolean> {
	try {
		return (await fetch(url)).ok;
	} catch (error) {
		// A port the Fetch standard blocks (6000, 6665-6669, ...) would otherwise read as "not up yet".
		if ((error as { cause?: Error }).cause?.message === 'bad port') {
			throw new Error(`${url}: Node's fetch refuses this port; choose another AGENCY_CRM_N8N_PORT_BASE`);
		}
		return false;
	}
}

export interface StartOptions {
	args?: string[];
	timeoutMs?: number;
	/**
	 * Runs n8n and its task runner in a process group of their own, tied to this process: they get
	 * SIGTERM when it dies, however it dies (Linux's parent-death signal, set by util-linux's
	 * `setpriv` where it is installed), and stop() ends the whole group, the task runner included.
	 */
	tied?: boolean;
	/** Sees n8n's output as it comes. */
	onOutput?: (text: string) => void;
	/** How long stop() lets n8n shut down before it kills it (default 20 s). */
	stopGraceMs?: number;
}

const SETPRIV = onPath('setpriv');

/**
 * Starts an n8n process on loopback and waits until it is ready: a server answers its readiness
 * probe (about 10 s); a worker has logged that it is ready.
 */
export async function startN8n(
	instance: N8nInstance,
	command: N8nCommand = 'start',
	{ args = [], timeoutMs = 120_000, tied = false, onOutput, stopGraceMs = 20_000 }: StartOptions = {},
): Promise<N8nProcess> {
	const n8nCommand = [instance.n8n.node, instance.n8n.bin, command, ...args];
	const diesWithThisProcess = tied && SETPRIV !== undefined;
	const [program, ...programArgs] = diesWithThisProcess
		? [SETPRIV, '--pdeathsig', 'TERM', '--', ...n8nCommand]
		: n8nCommand;
	const child = spawn(program, programArgs, { env: instance.env, cwd: instance.userFolder, detached: tied });
	let output = '';
	const collect = (chunk: Buffer) => {
		const text = chunk.toString();
		output += text;
		onOutput?.(text);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const url = `http://127.0.0.1:${instance.port}`;
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const ready = () =>
		command === 'worker' ? Promise.resolve(/worker is now ready/i.test(output)) : answers(`${url}/healthz/readiness`);
	const signal = (name: NodeJS.Signals) => {
		try {
			// A tied n8n leads its own process group: the signal reaches its task runner too.
			process.kill(tied ? -child.pid! : child.pid!, name);
		} catch {
			// already gone
		}
	};
	const gone = () => (tied ? groupMembers(child.pid!).length === 0 : child.exitCode !== null);
	const deadline = Date.now() + timeoutMs;
	try {
		for (;;) {
			if (child.exitCode !== null) throw new Error(`n8n ${command} exited while starting:\n${output}`);
			if (await ready()) break;
			if (Date.now() > deadline) throw new Error(`n8n ${command} did not start within ${timeoutMs} ms:\n${output}`);
			await pause(250);
		}
		if (command === 'start' && instance.n8n.major < 2) await setUpOwner(url, deadline);
	} catch (error) {
		signal('SIGKILL');
		throw error;
	}
	return {
		url,
		pid: child.pid!,
		diesWithThisProcess,
		exited,
		log: () => output,
		async stop() {
			if (gone()) return;
			signal('SIGTERM');
			if (await within(stopGraceMs, gone)) return;
			signal('SIGKILL');
			await within(2000, gone);
		},
	};
}

/** The main instance (`n8n start`). */
export async function startServer(instance: N8nInstance, options: StartOptions = {}): Promise<N8nProcess> {
	return await startN8n(instance, 'start', options);
}

/**
 * n8n 1.x creates its owner through the setup screen's API; a second call finds it done. Its REST
 * routes may come up a moment after the readiness probe answers.
 */
async function setUpOwner(url: string, deadline: number) {
	let settings: { data?: { userManagement?: { showSetupOnFirstLoad?: boolean } } } | undefined;
	while (!settings) {
		// Before the REST routes are up, the editor's HTML answers instead.
		settings = await fetch(`${url}/rest/settings`)
			.then(async (response) => (await response.json()) as typeof settings)
			.catch(() => undefined);
		if (!settings && Date.now() > deadline) throw new Error(`n8n at ${url} never served /rest/settings`);
		if (!settings) await pause(250);
	}
	if (!settings.data?.userManagement?.showSetupOnFirstLoad) return;
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: OWNER.email, firstName: 'Sandbox', lastName: 'Owner', password: OWNER.password }),
	});
	if (!response.ok) throw new Error(`n8n owner setup failed: ${response.status} ${await response.text()}`);
}

/** The editor's REST API, logged in as the owner (cookie session). */
export async function restClient(server: Pick<N8nProcess, 'url'>) {
	const login = await fetchPatiently(`${server.url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (!login.ok) throw new Error(`n8n login failed: ${login.status} ${await login.text()}`);
	const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
	return async function rest<T = unknown>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; data: T }> {
		const response = await fetchPatiently(`${server.url}/rest${path}`, {
			method,
			headers: { cookie, 'content-type': 'application/json', 'browser-id': 'agency-crm-tests' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: keep the text
		}
		const data = (parsed as { data?: T })?.data ?? (parsed as T);
		return { status: response.status, data };
	};
}

/** n8n's public API (executions with their data, activation) through an API key of the owner. */
export async function publicApi(server: Pick<N8nProcess, 'url'>) {
	const rest = await restClient(server);
	const scopes = await rest<string[]>('GET', '/api-keys/scopes');
	const created = await rest<{ rawApiKey?: string; apiKey?: string }>('POST', '/api-keys', {
		label: `tests-${Date.now()}`,
		scopes: scopes.data,
		expiresAt: null,
	});
	const key = created.data.rawApiKey ?? created.data.apiKey;
	if (!key) throw new Error(`Could not create an n8n API key: ${created.status} ${JSON.stringify(created.data)}`);
	return async function api<T = Record<string, unknown>>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		const response = await fetchPatiently(`${server.url}/api/v1${path}`, {
			method,
			headers: { 'X-N8N-API-KEY': key, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
	};
}
