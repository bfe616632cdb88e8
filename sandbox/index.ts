/**
 * The Agency CRM API V2 sandbox: a local simulator of the API (the "Agency CRM API V2 —
 * Specification", version 1.4.0; decisions where it says "not shown": docs/assumptions.md) with
 * deterministic demo data, webhooks, injected faults, admin routes and a console (the CRM's screens),
 * its data optionally kept in a file between runs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminRoutes } from './admin';
import type { AnswerProfileName } from './answerProfiles';
import { AnswerProfiles } from './answerProfiles';
import type { World } from './api';
import { TokenStore } from './auth';
import { CONSOLE_PATH, consoleHandler, isConsolePath } from './console';
import type { ExecutionLinks } from './console/aftermath';
import { Faults } from './faults';
import { Metrics } from './metrics';
import { DataOrigin, DataSaver, loadData } from './persistence';
import { apiRoutes } from './resources';
import { updateHook } from './resources/hooks';
import { RouteTable } from './router';
import { DEMO_CLIENTS, generateDemoData } from './seed/demo';
import { createRequestHandler, ServerContext } from './server';
import { DEFAULT_RETRY_DELAYS_MS, WebhookDispatcher } from './webhooks';

export interface SandboxOptions {
	/** 0 picks a free port (the default here; the CLI defaults to 4010). */
	port?: number;
	host?: string;
	seed?: number;
	/** Customers of site 1 (default 120). */
	customers?: number;
	/** Products of site 1 (default 60). */
	products?: number;
	/** Users of site 1 (default 12). */
	users?: number;
	tokenLifetimeSeconds?: number;
	/** How long a receiver has to answer 200 (production: 10 s). */
	deliveryTimeoutMs?: number;
	/** The delay before each retry of a delivery not acknowledged (default DEFAULT_RETRY_DELAYS_MS: 3 retries). */
	deliveryRetryDelaysMs?: readonly number[];
	/** Whether a delivery whose retries all failed suspends its hook (default true, as production). */
	suspendUndelivered?: boolean;
	quiet?: boolean;
	/** How the API answers every client where the spec leaves it open (sandbox/answerProfiles.ts); `default` when left out. */
	answerProfile?: AnswerProfileName;
	/**
	 * Keeps the data in this file: read at start when it holds a save (the seed's data otherwise),
	 * written soon after each change and at close (sandbox/persistence.ts).
	 */
	dataFile?: string;
	/** Beside an n8n (npm start): where the console finds the execution each delivery started. */
	executions?: ExecutionLinks;
}

export interface DemoClient {
	clientId: string;
	clientSecret: string;
	siteId: number;
	agencyIds: number[];
	name: string;
	packs: string[];
	calendar: ('READ' | 'WRITE')[];
}

export interface Sandbox {
	/** `http://127.0.0.1:PORT`: the token's `domain` and the auth URL. */
	origin: string;
	authUrl: string;
	port: number;
	clients: DemoClient[];
	/** The console's address: the CRM's screens (sandbox/console). */
	consoleUrl: string;
	/** The API's routes, below the API base (`{base_url}`), as `METHOD /path/{param}`. */
	endpoints: { method: string; path: string }[];
	/** With `dataFile`: whether the data came from it or from the seed. */
	data?: DataOrigin;
	/** Points the hooks whose URL starts with `from` at `to` instead (a receiver that moved); answers how many. */
	moveHooks(from: string, to: string): number;
	close(): Promise<void>;
}

export const DEFAULT_SEED = 1;

/** What production's token endpoint answers as `expires_in`: 7 days. */
export const PRODUCTION_TOKEN_LIFETIME_S = 604_800;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const seeded = generateDemoData(options.seed ?? DEFAULT_SEED, {
		customers: options.customers ?? 120,
		products: options.products ?? 60,
		users: options.users ?? 12,
	});
	const loaded = options.dataFile ? loadData(options.dataFile, seeded) : undefined;
	const store = loaded?.store ?? seeded;
	const metrics = new Metrics();
	const faults = new Faults();
	const profiles = new AnswerProfiles(options.answerProfile);
	// Production's tokens last 7 days (docs/sandbox.md "As production").
	const tokens = new TokenStore(options.tokenLifetimeSeconds ?? PRODUCTION_TOKEN_LIFETIME_S);
	let saver: DataSaver | undefined;
	const dispatcher = new WebhookDispatcher(store, metrics, {
		timeoutMs: options.deliveryTimeoutMs ?? 10_000,
		retryDelaysMs: options.deliveryRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
		suspendUndelivered: options.suspendUndelivered ?? true,
		onRecorded: () => saver?.changed(),
	});
	for (const delivery of loaded?.deliveries ?? []) dispatcher.log.push(delivery);
	if (options.dataFile) saver = new DataSaver(options.dataFile, store, dispatcher);
	const world: World = {
		store,
		events: dispatcher,
		consentProofFails: (clientId) => faults.consentProofFails(clientId),
		consentDropped: (clientId) => faults.consentDropped(clientId),
	};
	const routes = apiRoutes(world);
	const context: ServerContext = {
		store,
		tokens,
		faults,
		profiles,
		metrics,
		apiRoutes: new RouteTable(routes),
		adminRoutes: new RouteTable(adminRoutes({ world, tokens, faults, profiles, metrics, dispatcher })),
		origin: '',
		quiet: options.quiet ?? false,
	};
	const handleApi = createRequestHandler(context);
	const handleConsole = consoleHandler({
		world,
		dispatcher,
		requests: metrics.requests,
		executions: options.executions,
	});
	const server = http.createServer({ keepAliveTimeout: 30_000 }, (request, response) => {
		const path = (request.url ?? '/').split('?')[0];
		if (isConsolePath(path)) handleConsole(request, response);
		else handleApi(request, response);
		// Any request but a read may change the data (the API, the admin routes, the console's forms).
		if (saver && request.method !== 'GET' && request.method !== 'HEAD') response.once('close', () => saver?.changed());
	});
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	context.origin = `http://${originHost(host)}:${port}`;

	return {
		origin: context.origin,
		authUrl: context.origin,
		port,
		clients: DEMO_CLIENTS.map((client) => ({
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			siteId: client.siteId,
			agencyIds: store.agencyIdsOfSite(client.siteId),
			name: client.name,
			packs: [...client.packs],
			calendar: [...client.calendar],
		})),
		consoleUrl: `${context.origin}${CONSOLE_PATH}`,
		endpoints: routes.map(({ method, pattern }) => ({ method, path: pattern })),
		data: loaded?.origin,
		moveHooks(from, to) {
			const moved = [...store.hooks.all()].filter((hook) => hook.url.startsWith(from));
			for (const hook of moved) updateHook(hook, { url: to + hook.url.slice(from.length) });
			if (moved.length) saver?.changed();
			return moved.length;
		},
		close: () =>
			new Promise<void>((resolve, reject) => {
				dispatcher.close();
				saver?.close();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}

/** The host to put in URLs: a wildcard listen address is reached through loopback. */
function originHost(host: string): string {
	if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
	return host.includes(':') ? `[${host}]` : host;
}
