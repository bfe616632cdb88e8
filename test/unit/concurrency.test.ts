import { mapBounded } from '../../nodes/AgencyCrm/actions/concurrency';

/** The runner the router sends items through (nodes/AgencyCrm/actions/concurrency.ts). */

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task log: which tasks started, how many ran at once at most. */
function tracked(behaviour: (index: number) => { ms: number; fails?: boolean }) {
	const started: number[] = [];
	const finished: number[] = [];
	let running = 0;
	let mostAtOnce = 0;
	const task = async (index: number) => {
		started.push(index);
		running++;
		mostAtOnce = Math.max(mostAtOnce, running);
		const { ms, fails } = behaviour(index);
		await wait(ms);
		running--;
		finished.push(index);
		if (fails) throw new Error(`task ${index} failed`);
		return `result ${index}`;
	};
	return { task, started, finished, mostAtOnce: () => mostAtOnce };
}

test('results come back by index whatever order the tasks finish in', async () => {
	// Each task waits to be released; once all eight have started they are released last first (tasks
	// start a turn of the event loop apart, so durations alone would order them only on an idle machine).
	const finished: number[] = [];
	const release: Array<() => void> = [];
	const task = async (index: number) => {
		await new Promise<void>((resolve) => (release[index] = resolve));
		finished.push(index);
		return `result ${index}`;
	};
	const results = mapBounded(8, 8, task);
	while (release.filter(Boolean).length < 8) await wait(1);
	for (let index = 7; index >= 0; index--) release[index]();
	expect(await results).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((index) => `result ${index}`));
	expect(finished).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
});

test('never more than the limit at once, and the limit is reached when there is work', async () => {
	// Tasks start a turn of the event loop apart: long enough that four overlap.
	const { task, mostAtOnce, started } = tracked((index) => ({ ms: 20 + (index % 3) * 10 }));
	await mapBounded(50, 4, task);
	expect(mostAtOnce()).toBe(4);
	expect(started).toEqual([...Array(50).keys()]);
});

test('a limit of 1 runs one task after another, in order', async () => {
	const { task, mostAtOnce, finished } = tracked(() => ({ ms: 1 }));
	await mapBounded(5, 1, task);
	expect(mostAtOnce()).toBe(1);
	expect(finished).toEqual([0, 1, 2, 3, 4]);
});

test('a limit above the count starts every task at once', async () => {
	const { task, mostAtOnce } = tracked(() => ({ ms: 50 }));
	expect(await mapBounded(3, 10, task)).toHaveLength(3);
	expect(mostAtOnce()).toBe(3);
});

test('no task is started once one failed; those running finish; the lowest index failure is thrown', async () => {
	// Limit 3: tasks 0, 1 and 2 start together (a turn of the event loop apart). Task 2 fails first
	// (50 ms); task 1 fails later (150 ms); task 0 succeeds (250 ms). Nothing after task 2's failure starts.
	const { task, started, finished } = tracked((index) =>
		index === 0 ? { ms: 250 } : index === 1 ? { ms: 150, fails: true } : { ms: 50, fails: index === 2 },
	);
	await expect(mapBounded(10, 3, task)).rejects.toThrow('task 1 failed');
	expect(started).toEqual([0, 1, 2]);
	expect(finished.sort()).toEqual([0, 1, 2]);
});

test('a failure after other tasks completed stops the tasks not yet started', async () => {
	const { task, started } = tracked((index) => ({ ms: 2, fails: index === 5 }));
	await expect(mapBounded(20, 2, task)).rejects.toThrow('task 5 failed');
	// Task 6 may have started beside task 5 (two at once); nothing later.
	expect(Math.max(...started)).toBeLessThanOrEqual(6);
});

test('tasks start one per turn of the event loop: what a started task set off runs before the next starts', async () => {
	const log: string[] = [];
	await mapBounded(4, 4, async (index) => {
		log.push(`start ${index}`);
		// Like a request opened by the task, written out when the event loop next turns.
		setImmediate(() => log.push(`written ${index}`));
		await wait(5);
	});
	expect(log).toEqual([0, 1, 2, 3].flatMap((index) => [`start ${index}`, `written ${index}`]));
});

test('no tasks: an empty result, nothing run', async () => {
	const { task, started } = tracked(() => ({ ms: 1 }));
	expect(await mapBounded(0, 4, task)).toEqual([]);
	expect(started).toEqual([]);
});
