import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Processes as the system shows them, for the demo's clean stop and its tests: who a process's
 * parents are, which processes a run started, whether a process group is gone. A process is named
 * by its pid and its start time, so that a pid the system gave again is not taken for the old one.
 * Linux's /proc is read where it exists; elsewhere (macOS) `ps`, which both systems have.
 */

export interface ProcessInfo {
	pid: number;
	ppid: number;
	/** Its process group. */
	pgid: number;
	/** R, S, D, Z (exited, not yet reaped)… */
	state: string;
	/** When it started, as the reader gives it (clock ticks after boot, or ps's date): with the pid, what names the process. */
	startTime: string;
	/** Its command line, arguments joined by spaces. */
	command: string;
}

/** A way to read the process table. */
export interface ProcessReader {
	/** The process, or undefined when there is none with that pid. */
	info(pid: number): ProcessInfo | undefined;
	/** Every process, zombies included. */
	all(): ProcessInfo[];
}

/** Linux's /proc: a file read per process, no program started. */
export const procReader: ProcessReader = {
	info(pid) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			// The command name, in parentheses, may hold spaces: the fields after it are split.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
			return {
				pid,
				state: fields[0],
				ppid: Number(fields[1]),
				pgid: Number(fields[2]),
				startTime: fields[19],
				command,
			};
		} catch {
			return undefined;
		}
	},
	all() {
		return readdirSync('/proc')
			.filter((name) => /^\d+$/.test(name))
			.flatMap((name) => procReader.info(Number(name)) ?? []);
	},
};

/** The columns asked of `ps`; `lstart` is five words ("Thu Nov 26 19:39:35 2026"), the command the rest. */
const PS_COLUMNS = 'pid=,ppid=,pgid=,stat=,lstart=,command=';

function psRows(selection: string[]): ProcessInfo[] {
	let listing: string;
	try {
		// -ww: whole command lines (macOS cuts them at 80 columns otherwise).
		listing = execFileSync('ps', ['-ww', ...selection, '-o', PS_COLUMNS], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
	} catch {
		return []; // ps exits 1 when no process matches
	}
	return listing
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => {
			const [pid, ppid, pgid, stat, ...rest] = line.trim().split(/\s+/);
			return {
				pid: Number(pid),
				ppid: Number(ppid),
				pgid: Number(pgid),
				state: stat[0],
				startTime: rest.slice(0, 5).join(' '),
				command: rest.slice(5).join(' '),
			};
		});
}

/** `ps`, on Linux and macOS alike: a program started per question. */
export const psReader: ProcessReader = {
	info: (pid) => psRows(['-p', String(pid)])[0],
	all: () => psRows(['-A']),
};

const reader: ProcessReader = existsSync('/proc/self/stat') ? procReader : psReader;

/** The process, or undefined when there is none with that pid. */
export function processInfo(pid: number): ProcessInfo | undefined {
	return reader.info(pid);
}

/** Whether the process that had this pid and start time still runs (an exited one not yet reaped does not). */
export function stillRuns({ pid, startTime }: Pick<ProcessInfo, 'pid' | 'startTime'>): boolean {
	const now = processInfo(pid);
	return now !== undefined && now.startTime === startTime && now.state !== 'Z';
}

/** Every process running now. */
export function allProcesses(): ProcessInfo[] {
	return reader.all().filter((info) => info.state !== 'Z');
}

/** The processes of a process group still running. */
export function groupMembers(pgid: number): ProcessInfo[] {
	return allProcesses().filter((info) => info.pgid === pgid);
}

/** The process's descendants (children, their children…) running now. */
export function descendants(pid: number): ProcessInfo[] {
	const processes = allProcesses();
	const found: ProcessInfo[] = [];
	const parents = new Set([pid]);
	for (let grew = true; grew;) {
		grew = false;
		for (const info of processes) {
			if (parents.has(info.ppid) && !parents.has(info.pid)) {
				parents.add(info.pid);
				found.push(info);
				grew = true;
			}
		}
	}
	return found;
}

/** The parent, its parent…, nearest first, up to `levels` of them (pid 1 and beyond excluded). */
export function ancestors(pid: number, levels: number): ProcessInfo[] {
	const found: ProcessInfo[] = [];
	let current = processInfo(pid);
	while (current && found.length < levels && current.ppid > 1) {
		const parent = processInfo(current.ppid);
		if (!parent) break;
		found.push(parent);
		current = parent;
	}
	return found;
}

/** The path of a program found on PATH, or undefined. */
export function onPath(program: string): string | undefined {
	return (process.env.PATH ?? '')
		.split(':')
		.filter(Boolean)
		.map((dir) => path.join(dir, program))
		.find((candidate) => existsSync(candidate));
}
