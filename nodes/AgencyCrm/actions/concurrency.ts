import { sleep } from 'n8n-workflow';

/**
 * Runs `task(0)` … `task(count - 1)` with at most `limit` running at once, started in index order,
 * and returns their results by index. When a task fails, no further task starts; those already
 * running finish, and the failure of the lowest index is thrown (the one a run item by item would
 * have stopped at, when several fail).
 *
 * With more than one at once, tasks start one per turn of the event loop (n8n's `sleep(0)` between
 * two starts). A task begins with synchronous work (an item's parameters read through n8n's
 * expression engine, milliseconds of CPU), and the request it then opens is only written out when
 * the event loop next looks at its sockets. Started back to back, the tasks would write their
 * requests together after the last one's parameters were read, wait for the answers together, and
 * leave the CPU idle meanwhile: in n8n, 1,000 creates at 20 ms of latency spent 2 s of 7.7 s idle
 * that way (`npm run bench:profile -- creates`). As `sleep` counts in milliseconds, at most about a
 * thousand tasks start a second, fewer than n8n's own work per item (milliseconds) lets through.
 */
export async function mapBounded<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results = new Array<T>(count);
	const failures = new Map<number, unknown>();
	let next = 0;
	let turns: Promise<void> | undefined;
	const turn = () => {
		turns = turns && limit > 1 ? turns.then(async () => await sleep(0)) : Promise.resolve();
		return turns;
	};
	const worker = async () => {
		while (next < count && failures.size === 0) {
			await turn();
			if (next >= count || failures.size > 0) return;
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				failures.set(index, error);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	if (failures.size) throw failures.get(Math.min(...failures.keys()));
	return results;
}
