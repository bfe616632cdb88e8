import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { claimFolder, releaseFolder } from '../../tools/demo/running';
import { processInfo } from '../../tools/processes';

/** One demo per data folder (tools/demo/running.ts): what a second start finds, and what a stale record is. */
let folder: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'agency-crm-running-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const record = () => JSON.parse(readFileSync(path.join(folder, 'running.json'), 'utf8'));

test('the first claim records this process; a second one finds it running, with its message', () => {
	expect(claimFolder(folder, 'the first demo')).toEqual({ claimed: true });
	expect(record()).toEqual({
		pid: process.pid,
		startTime: processInfo(process.pid)!.startTime,
		message: 'the first demo',
	});
	expect(claimFolder(folder, 'a second demo')).toEqual({
		claimed: false,
		running: { pid: process.pid, startTime: expect.any(String), message: 'the first demo' },
	});
	releaseFolder(folder);
	expect(existsSync(path.join(folder, 'running.json'))).toBe(false);
});

test('a record left by a process that is gone, or by another process that now has its pid, is stale', () => {
	const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
	writeFileSync(
		path.join(folder, 'running.json'),
		JSON.stringify({ pid: Number(gone.stdout.trim()), startTime: '1', message: 'a demo that died' }),
	);
	expect(claimFolder(folder, 'this demo')).toEqual({ claimed: true });
	writeFileSync(
		path.join(folder, 'running.json'),
		JSON.stringify({ pid: process.pid, startTime: 'another start', message: 'a demo whose pid was given again' }),
	);
	expect(claimFolder(folder, 'this demo')).toEqual({ claimed: true });
	expect(record().message).toBe('this demo');
});

test('a record of another process is not removed when this one stops', () => {
	writeFileSync(path.join(folder, 'running.json'), JSON.stringify({ pid: 1, startTime: '0', message: 'not ours' }));
	releaseFolder(folder);
	expect(record().message).toBe('not ours');
});
