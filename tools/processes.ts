import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Processes as Linux's /proc shows them, for the demo's clean stop and its tests: who a process's
 * parents are, which processes a run started, whether a process group is gone. A process is named
 * by its pid and its start time, so that a pid the system gave again is not taken for the old one.
 */

export interface ProcessInfo {
	pid: number;
	ppid: number;
	/** Its process group. */
	pgid: number;
	/** R, S, D, Z (exited, not yet reaped)… */
	state: string;
	/** Clock ticks after boot: with the pid, what names the process. */
	startTime: string;
	/** Its command line, arguments joined by spaces. */
	command: string;
}

/** The process, or undefined when there is none with that pid. */
export function processInfo(pid: number): ProcessInfo | undefined {
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
}

/** Whether the process that had this pid and start time still runs (an exited one not yet reaped does not). */
export function stillRuns({ pid, startTime }: Pick<ProcessInfo, 'pid' | 'startTime'>): boolean {
	const now = processInfo(pid);
	return now !== undefined && now.startTime === startTime && now.state !== 'Z';
}

/** Every process running now. */
export function allProcesses(): ProcessInfo[] {
	return readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.flatMap((name) => processInfo(Number(name)) ?? [])
		.filter((info) => info.state !== 'Z');
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
