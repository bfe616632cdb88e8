import { execFileSync } from 'node:child_process';
import net from 'node:net';

import { onPath, processInfo } from '../processes';

/**
 * The demo's ports: defaults that a local n8n (5678, and 5679 for its task runners) and the test
 * suites (5710 and up) leave free, each settable by a variable. The broker's follows n8n's and the
 * stand-in's the sandbox's unless set.
 */

export interface DemoPorts {
	/** n8n: the editor, its REST API and the webhooks. */
	n8n: number;
	/** n8n's task-runner broker. */
	broker: number;
	/** The sandbox: the API, its token endpoint and the console. */
	sandbox: number;
	/** The stand-in for the examples' mailing tool and chat. */
	standIn: number;
}

export const PORT_VARIABLES: Record<keyof DemoPorts, string> = {
	n8n: 'AGENCY_CRM_N8N_PORT',
	broker: 'AGENCY_CRM_N8N_BROKER_PORT',
	sandbox: 'AGENCY_CRM_SANDBOX_PORT',
	standIn: 'AGENCY_CRM_STAND_IN_PORT',
};

export const DEFAULT_PORTS: DemoPorts = { n8n: 5690, broker: 5691, sandbox: 4010, standIn: 4011 };

/** Ports Node's fetch refuses to call (the Fetch standard's "bad ports" in the range a user may pick). */
const FETCH_BLOCKED = new Set([
	1719, 1720, 1723, 2049, 3659, 4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080,
]);

/** The ports the environment asks for; a bad value is an error naming its variable. */
export function demoPorts(env: NodeJS.ProcessEnv = process.env): DemoPorts {
	const read = (name: keyof DemoPorts, fallback: number): number => {
		const text = env[PORT_VARIABLES[name]];
		if (text === undefined || text === '') return fallback;
		const port = Number(text);
		if (!/^\d+$/.test(text) || port < 1024 || port > 65_535)
			throw new Error(`${PORT_VARIABLES[name]} must be a port from 1024 to 65535 (got "${text}")`);
		if (FETCH_BLOCKED.has(port))
			throw new Error(`${PORT_VARIABLES[name]}=${port}: Node's fetch refuses to call this port; choose another`);
		return port;
	};
	const n8n = read('n8n', DEFAULT_PORTS.n8n);
	const sandbox = read('sandbox', DEFAULT_PORTS.sandbox);
	const ports: DemoPorts = {
		n8n,
		broker: read('broker', n8n + 1),
		sandbox,
		standIn: read('standIn', sandbox + 1),
	};
	const names = Object.keys(ports) as Array<keyof DemoPorts>;
	for (const [index, name] of names.entries()) {
		const other = names.slice(index + 1).find((candidate) => ports[candidate] === ports[name]);
		if (other)
			throw new Error(
				`${PORT_VARIABLES[name]} and ${PORT_VARIABLES[other]} are both ${ports[name]}: each needs its own port`,
			);
	}
	return ports;
}

/** `AGENCY_CRM_N8N_PORT=5690 AGENCY_CRM_N8N_BROKER_PORT=5691 …`: the ports with their variables. */
export function describePorts(ports: DemoPorts): string {
	return (Object.keys(ports) as Array<keyof DemoPorts>)
		.map((name) => `${PORT_VARIABLES[name]}=${ports[name]}`)
		.join(' ');
}

function isFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** The pid listening on the port, as Linux's `ss` or (macOS) `lsof` tells it. */
function listenerOf(port: number): number | undefined {
	const ss = onPath('ss');
	const lsof = onPath('lsof');
	try {
		if (ss)
			return Number(/pid=(\d+)/.exec(execFileSync(ss, ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' }))?.[1]);
		if (lsof)
			return Number(
				execFileSync(lsof, ['-t', '-nP', `-iTCP:${port}`, '-sTCP:LISTEN'], { encoding: 'utf8' }).split('\n')[0],
			);
	} catch {
		// neither could tell
	}
	return undefined;
}

/** Who listens on the port, when the system can tell: `pid 1234 (node …/n8n start)`. */
function holderOf(port: number): string | undefined {
	const pid = listenerOf(port);
	const command = pid ? processInfo(pid)?.command : undefined;
	return command ? `pid ${pid} (${command.slice(0, 100)})` : undefined;
}

/** One line per port already in use, naming its variable and who holds it; empty when all are free. */
export async function portsInUse(ports: DemoPorts): Promise<string[]> {
	const problems: string[] = [];
	for (const name of Object.keys(ports) as Array<keyof DemoPorts>) {
		if (await isFree(ports[name])) continue;
		const holder = holderOf(ports[name]);
		problems.push(
			`port ${ports[name]} (${PORT_VARIABLES[name]}) is in use${holder ? ` by ${holder}` : ''}: set ${PORT_VARIABLES[name]} to a free port`,
		);
	}
	return problems;
}
