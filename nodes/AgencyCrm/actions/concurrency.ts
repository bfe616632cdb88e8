/**
 * Runs `task(0)` … `task(count - 1)` with at most `limit` running at once, started in index order,
 * and returns their results by index. When a task fails, no further task starts; those already
 * running finish, and the failure of the lowest index is thrown (the one a run item by item would
 * have stopped at, when several fail).
 */
export async function mapBounded<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results = new Array<T>(count);
	const failures = new Map<number, unknown>();
	let next = 0;
	const worker = async () => {
		while (next < count && failures.size === 0) {
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
