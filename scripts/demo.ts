import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox';
import { executionLinks } from '../tools/demo/executions';
import { importIdempotently, ImportItem } from '../tools/demo/imports';
import { watchLifeline } from '../tools/demo/lifeline';
import { DemoPorts, demoPorts, describePorts, portsInUse } from '../tools/demo/ports';
import { claimFolder, releaseFolder } from '../tools/demo/running';
import { recordStart, startKindOf } from '../tools/demo/startResults';
import { readExamples, startStandIn, withStandIn } from '../tools/n8n/examples';
import { installedN8n, N8nVersion, OWNER, prepareInstance, ROOT, startServer } from '../tools/n8n/launcher';
import { sandboxCredential } from '../tools/n8n/workflows';

/**
 * The main job, `npm start`: the sandbox (with its console) plus an n8n with this package
 * installed, a credential pointing at the sandbox and the example workflows, ready in the browser.
 * Both keep their data between runs in .cache/demo/<n8n version> (`--fresh` starts over). The
 * examples' mailing tool and chat are a local stand-in that prints what it receives.
 *
 * It stops cleanly on SIGTERM, SIGINT (Ctrl+C) or SIGHUP, whether sent to npm start's process (npm
 * passes it on to this one, its own child: scripts/start-demo.sh) or to this one, and when the
 * `npm start` that started it is gone (tools/demo/lifeline.ts); n8n and its task runner get SIGTERM
 * if this process dies any other way (tools/n8n/launcher.ts, `tied`).
 */

const CREDENTIAL_ID = 'agencyCrmSandbox';
const CREDENTIAL_NAME = 'Agency CRM Sandbox';
/** n8n's own grace for executions under way at a stop, and ours before we kill it: within 10 s in all. */
const N8N_SHUTDOWN_SECONDS = 5;
const N8N_STOP_GRACE_MS = 6_000;

/** Since `npm start` began (scripts/start-demo.sh sets it), else since this process did. */
const started = Number(process.env.AGENCY_CRM_START_MS) || Date.now();
const secondsSince = (since: number) => (Date.now() - since) / 1000;
const seconds = (since: number) => `${secondsSince(since).toFixed(1)} s`;

function options(): { fresh: boolean } {
	try {
		const { values } = parseArgs({ options: { fresh: { type: 'boolean', default: false } } });
		return { fresh: values.fresh };
	} catch (error) {
		throw new Error(`${(error as Error).message}. npm start takes one option: npm start -- --fresh (start over)`);
	}
}

/** What a second `npm start` says while this one runs. */
function runningMessage(n8n: N8nVersion, ports: DemoPorts, urls: { n8n: string; console: string }): string {
	return [
		`npm start is already running for n8n ${n8n.runtime} (pid ${process.pid}, since ${new Date().toLocaleString()}):`,
		`  n8n ${urls.n8n}   console ${urls.console}`,
		`Use it, or stop it first (Ctrl+C in its terminal, or kill ${process.pid}).`,
		`Its ports: ${describePorts(ports)}.`,
		'Those variables choose other ports for a demo of another n8n version (AGENCY_CRM_N8N_VERSION=1.123 npm start),',
		"which keeps its own data; one demo per n8n version runs at a time, since both would share this one's data.",
	].join('\n');
}

/** Removes the per-run folders earlier versions of `npm start` left in .cache/runs; answers how many. */
function removeOldRunFolders(): number {
	const runs = path.join(ROOT, '.cache', 'runs');
	const old = existsSync(runs) ? readdirSync(runs).filter((name) => name.startsWith('demo-')) : [];
	for (const name of old) rmSync(path.join(runs, name), { recursive: true, force: true });
	return old.length;
}

/** Everything the demo kept in its folder, but the record of this run. */
function startOver(folder: string): void {
	for (const name of readdirSync(folder)) {
		if (name !== 'running.json') rmSync(path.join(folder, name), { recursive: true, force: true });
	}
}

/** The n8n address of the last run: the sandbox's hooks point at it. */
function lastN8nUrl(folder: string): string | undefined {
	try {
		return (JSON.parse(readFileSync(path.join(folder, 'last-run.json'), 'utf8')) as { n8nUrl?: string }).n8nUrl;
	} catch {
		return undefined;
	}
}

async function main() {
	const { fresh } = options();
	const n8n = installedN8n();
	const ports = demoPorts();
	const folder = path.join(ROOT, '.cache', 'demo', n8n.runtime);
	const urls = { n8n: `http://127.0.0.1:${ports.n8n}`, console: `http://127.0.0.1:${ports.sandbox}/console` };
	mkdirSync(folder, { recursive: true });
	const claim = claimFolder(folder, runningMessage(n8n, ports, urls));
	if (!claim.claimed) {
		console.error(claim.running.message);
		process.exit(1);
	}

	// What is started is stopped in reverse order, once, whatever stops the demo.
	const closers: Array<{ name: string; close: () => Promise<void> }> = [];
	let stopping: Promise<void> | undefined;
	const stop = (why: string, code = 0) => {
		stopping ??= (async () => {
			const since = Date.now();
			console.log(`\nStopping (${why})…`);
			await Promise.all(
				closers
					.reverse()
					.map(({ name, close }) =>
						close().catch((error: Error) => console.error(`  ${name} did not stop cleanly: ${error.message}`)),
					),
			);
			releaseFolder(folder);
			console.log(`Stopped in ${seconds(since)}: n8n, the sandbox and the stand-in are down, their ports free.`);
			process.exit(code);
		})();
		return stopping;
	};
	for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
	const lifeline = watchLifeline((gone) => void stop(`the process that started it, pid ${gone.pid}, is gone`));
	if (lifeline.watched.length === 0 && process.env.npm_lifecycle_event) {
		releaseFolder(folder);
		throw new Error('The npm start that started this is gone.');
	}

	try {
		const busy = await portsInUse(ports);
		if (busy.length) throw new Error(`Cannot start: ${busy.join('; ')}.`);
		const removedRuns = removeOldRunFolders();
		if (fresh) startOver(folder);
		const userFolder = path.join(folder, 'n8n');
		const newN8nFolder = !existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));

		const executions = executionLinks();
		const sandbox = await startSandbox({
			port: ports.sandbox,
			quiet: true,
			dataFile: path.join(folder, 'sandbox.json'),
			executions,
		});
		closers.push({ name: 'the sandbox', close: () => sandbox.close() });
		const client = sandbox.clients.find((candidate) => candidate.clientId === 'demo-client') ?? sandbox.clients[0];
		const standIn = await startStandIn(ports.standIn, (request) =>
			console.log(`[stand-in] ${request.method} ${request.path} ${JSON.stringify(request.body).slice(0, 200)}`),
		);
		closers.push({ name: 'the stand-in', close: () => standIn.close() });
		const previousN8n = lastN8nUrl(folder);
		const movedHooks =
			previousN8n && previousN8n !== urls.n8n ? sandbox.moveHooks(`${previousN8n}/`, `${urls.n8n}/`) : 0;

		const instance = prepareInstance({ userFolder, port: ports.n8n, brokerPort: ports.broker, n8n });
		instance.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT = String(N8N_SHUTDOWN_SECONDS);
		const examples = [...readExamples()];
		const items: ImportItem[] = [
			{
				kind: 'credentials',
				data: { ...sandboxCredential(CREDENTIAL_ID, sandbox.authUrl, client), name: CREDENTIAL_NAME },
				label: `the credential "${CREDENTIAL_NAME}"`,
			},
			...examples.map(([file, workflow]): ImportItem => ({
				kind: 'workflow',
				data: withStandIn(workflow, standIn.url),
				label: `examples/${file}`,
			})),
		];
		const imports = await importIdempotently(instance, folder, items, newN8nFolder);

		console.log(`Starting n8n ${n8n.version}…`);
		const log = createWriteStream(path.join(folder, 'n8n.log'), { flags: 'a' });
		const server = await startServer(instance, {
			tied: true,
			onOutput: (text) => log.write(text),
			stopGraceMs: N8N_STOP_GRACE_MS,
		});
		closers.push({ name: 'n8n', close: () => server.stop().finally(() => log.end()) });
		executions.connect(urls.n8n);
		const logFile = path.relative(ROOT, path.join(folder, 'n8n.log'));
		void server.exited.then((code) => stop(`n8n exited by itself (code ${code}); its log: ${logFile}`, 1));
		writeFileSync(path.join(folder, 'last-run.json'), JSON.stringify({ n8nUrl: urls.n8n }));

		const readyIn = secondsSince(started);
		recordStart(startKindOf(process.env), readyIn);
		const kept = path.relative(ROOT, folder);
		const sandboxState =
			sandbox.data?.state === 'restored'
				? `restored as saved at ${sandbox.data.savedAt}`
				: `the demo data${sandbox.data?.setAside ? ` (the saved data could not be read: ${sandbox.data.setAside})` : ''}`;
		const lines = [
			'',
			`The demo is ready in ${readyIn.toFixed(1)} s: n8n ${n8n.version} with this package, and the Agency CRM sandbox.`,
			'',
			`  n8n         ${urls.n8n}   log in as ${OWNER.email} / ${OWNER.password}`,
			`  console     ${urls.console}   the CRM's screens: contacts, properties, webhooks; make trigger events happen here`,
			'              (the trigger examples start unpublished: publish one in n8n first, then receive a lead or save a listing)',
			`  sandbox API ${sandbox.origin}   credential "${CREDENTIAL_NAME}": client ${client.clientId}, site ${client.siteId}`,
			`  stand-in    ${standIn.url}   the examples' mailing tool and chat: prints what it receives`,
			'',
			fresh
				? `  Started over (--fresh): n8n and the sandbox begin from the demo data, kept from now on in ${kept}.`
				: `  Kept between runs in ${kept} (npm start -- --fresh starts over):`,
			`    n8n: ${newN8nFolder ? 'a new instance' : 'as you left it: workflows, credentials, executions, published workflows, login'}`,
			`    sandbox: ${sandboxState}`,
			`    examples and credential: ${imports.added.length ? `imported ${imports.added.join(', ')}` : 'already in n8n'}`,
			...imports.notes.map((note) => `      ${note}`),
			...(movedHooks ? [`    ${movedHooks} webhooks moved from ${previousN8n} to ${urls.n8n}`] : []),
			...(removedRuns ? [`    removed ${removedRuns} per-run folders of earlier versions from .cache/runs`] : []),
			`  Ports: ${describePorts(ports)} (set these variables to change them)`,
			...(server.diesWithThisProcess
				? []
				: ['  (no setpriv here, as on macOS: if this process is killed with SIGKILL, stop n8n yourself)']),
			`  n8n's log: ${logFile}`,
			'',
			"Stop with Ctrl+C, or a SIGINT or SIGTERM to npm start's process: everything stops within seconds.",
		];
		console.log(lines.join('\n'));
	} catch (error) {
		console.error((error as Error).message);
		await stop('it could not start', 1);
	}
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
