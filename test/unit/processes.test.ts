import { spawn, spawnSync } from 'node:child_process';

import { procReader, psReader } from '../../tools/processes';

/**
 * Issue 29, point 3: the demo reads processes through /proc on Linux and through `ps` elsewhere
 * (macOS). Both readers, on this Linux machine, must name the same processes the same way.
 */

test('ps and /proc agree on this process and its parent: pid, parent, group and command line', () => {
	for (const pid of [process.pid, process.ppid]) {
		const [fromPs, fromProc] = [psReader.info(pid), procReader.info(pid)];
		expect(fromPs).toBeDefined();
		const { pid: id, ppid, pgid, command } = fromProc!;
		expect({ pid: fromPs!.pid, ppid: fromPs!.ppid, pgid: fromPs!.pgid, command: fromPs!.command }).toEqual({
			pid: id,
			ppid,
			pgid,
			command,
		});
	}
});

test('ps gives a process the same start time each time, and knows nothing of one that exited', () => {
	const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
	try {
		const first = psReader.info(child.pid!);
		expect(first).toMatchObject({ pid: child.pid, ppid: process.pid, command: expect.stringContaining('setTimeout') });
		expect(first!.startTime).toMatch(/^\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}$/);
		expect(psReader.info(child.pid!)!.startTime).toBe(first!.startTime);
	} finally {
		child.kill();
	}
	const exited = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
	expect(psReader.info(Number(exited.stdout.trim()))).toBeUndefined();
});

test("ps lists every process as /proc does (this one and its parent among them), each with its parent's pid", () => {
	const listed = new Map(psReader.all().map((info) => [info.pid, info]));
	expect(listed.get(process.pid)).toMatchObject({ ppid: process.ppid });
	expect(listed.has(process.ppid)).toBe(true);
	// Processes come and go between the two reads: compare the ones both saw.
	const fromProc = procReader.all().filter((info) => listed.has(info.pid));
	expect(fromProc.length).toBeGreaterThan(10);
	expect(fromProc.filter((info) => listed.get(info.pid)!.ppid !== info.ppid)).toEqual([]);
});
