import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { processInfo, stillRuns } from '../processes';

/**
 * One demo at a time per data folder: the running demo leaves `running.json` there (its pid, its
 * start time, and what a second `npm start` must say). scripts/start-demo.sh asks `liveDemo` (as
 * built by the running demo) before any install or build, so a second start answers at once.
 */

export interface RunningDemo {
	pid: number;
	startTime: string;
	/** What a second `npm start` prints before it exits. */
	message: string;
}

const RECORD = 'running.json';

function readRecord(file: string): RunningDemo | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as RunningDemo;
	} catch {
		return undefined;
	}
}

/** The demo holding the folder, while it runs (a record whose process is gone, or another process now, is stale). */
export function liveDemo(folder: string): RunningDemo | undefined {
	const holder = readRecord(path.join(folder, RECORD));
	return holder && stillRuns(holder) ? holder : undefined;
}

/**
 * Records this process as the folder's demo; when another live demo holds it, answers that one
 * instead. `message` is what a second start will print.
 */
export function claimFolder(
	folder: string,
	message: string,
): { claimed: true } | { claimed: false; running: RunningDemo } {
	const file = path.join(folder, RECORD);
	const self = processInfo(process.pid)!;
	const record: RunningDemo = { pid: process.pid, startTime: self.startTime, message };
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			// `wx`: created only if absent, so that of two demos starting at once, one claims it.
			writeFileSync(file, JSON.stringify(record), { flag: 'wx' });
			return { claimed: true };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const holder = liveDemo(folder);
		if (holder) return { claimed: false, running: holder };
		rmSync(file, { force: true });
	}
	throw new Error(`Could not claim ${file}: another demo keeps recreating it`);
}

/** Removes the record, if it is still this process's. */
export function releaseFolder(folder: string): void {
	const file = path.join(folder, RECORD);
	if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
}
