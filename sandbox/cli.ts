/**
 * Starts the sandbox from the command line:
 *   node build/sandbox/cli.js --port 4010 --customers 20000 --seed 1 --token-lifetime 604800
 * The port can also come from AGENCY_CRM_SANDBOX_PORT; `--data-file <path>` keeps the data in that
 * file between runs; `--answer-profile <name>` answers every client as that profile says
 * (sandbox/answerProfiles.ts). Stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED, startSandbox } from './index';
import type { AnswerProfileName } from './answerProfiles';
import { ANSWER_PROFILES, isAnswerProfile } from './answerProfiles';
import type { DataOrigin } from './persistence';

const DEFAULT_PORT = 4010;

function integerOption(value: string | undefined, name: string): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer (got "${value}")`);
	return Number(value);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			seed: { type: 'string' },
			customers: { type: 'string' },
			products: { type: 'string' },
			users: { type: 'string' },
			'token-lifetime': { type: 'string' },
			'delivery-timeout-ms': { type: 'string' },
			'delivery-retry-delays-ms': { type: 'string' },
			'data-file': { type: 'string' },
			'answer-profile': { type: 'string' },
		},
	});
	const started = performance.now();
	const sandbox = await startSandbox({
		port: integerOption(values.port ?? process.env.AGENCY_CRM_SANDBOX_PORT, 'port') ?? DEFAULT_PORT,
		host: values.host,
		seed: integerOption(values.seed, 'seed') ?? DEFAULT_SEED,
		customers: integerOption(values.customers, 'customers'),
		products: integerOption(values.products, 'products'),
		users: integerOption(values.users, 'users'),
		tokenLifetimeSeconds: integerOption(values['token-lifetime'], 'token-lifetime'),
		deliveryTimeoutMs: integerOption(values['delivery-timeout-ms'], 'delivery-timeout-ms'),
		deliveryRetryDelaysMs: delaysOption(values['delivery-retry-delays-ms'], 'delivery-retry-delays-ms'),
		dataFile: values['data-file'],
		answerProfile: answerProfileOption(values['answer-profile']),
	});
	const lines = [
		`Agency CRM API V2 sandbox ready in ${Math.round(performance.now() - started)} ms`,
		`  Auth URL:  ${sandbox.authUrl}   (token: POST ${sandbox.authUrl}/api/client/token/site)`,
		`  API base:  ${sandbox.origin}/api/v2/site`,
		`  Console:   ${sandbox.consoleUrl}   (contacts, properties, webhooks and their deliveries)`,
		...(sandbox.data ? [`  Data:      ${describeData(sandbox.data)}`] : []),
		...(values['answer-profile']
			? [`  Answers:   profile ${values['answer-profile']} (docs/sandbox.md, "Answer profiles")`]
			: []),
		'',
		'Demo clients:',
		...sandbox.clients.map(
			(client) =>
				`  ${client.name.padEnd(16)} client id: ${client.clientId.padEnd(15)} secret: ${client.clientSecret.padEnd(15)} site id: ${client.siteId}  agencies: ${client.agencyIds.join(', ')}  packs: ${client.packs.join(', ')}  calendar: ${client.calendar.join('+') || 'none'}`,
		),
		'',
		`Admin routes (no auth): GET ${sandbox.origin}/_admin lists them all — faults, answer-profile, revoke-tokens, tokens, counters, reset, requests, hooks, deliveries, deliveries/burst, deliveries/late-acks, duplicate-contacts, simulate-edit, records.`,
	];
	console.log(lines.join('\n'));

	const stop = () => {
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

/** `10000,60000,300000` (one delay per retry), or `none` for no retry. */
function delaysOption(value: string | undefined, name: string): number[] | undefined {
	if (value === undefined) return undefined;
	if (value === 'none') return [];
	return value.split(',').map((delay) => integerOption(delay.trim(), name) as number);
}

function answerProfileOption(value: string | undefined): AnswerProfileName | undefined {
	if (value === undefined || isAnswerProfile(value)) return value;
	throw new Error(`--answer-profile must be one of ${ANSWER_PROFILES.join(', ')} (got "${value}")`);
}

function describeData(data: DataOrigin): string {
	if (data.state === 'restored') return `${data.file}, as saved at ${data.savedAt}; kept there as it changes`;
	const setAside = data.setAside ? ` (the file there was set aside: ${data.setAside})` : '';
	return `the demo data${setAside}, kept in ${data.file} as it changes`;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
