import { mapBounded } from '../../nodes/AgencyCrm/actions/concurrency';
import { WriteOrder } from '../../nodes/AgencyCrm/actions/writeOrder';

/**
 * Issue 17, point 1: items of one run that write the same record keep their input order, whatever
 * the Concurrency; items that write different records do not wait for each other.
 */
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs items with the runner and the order as the router does; each item's work takes `ms(index)`. */
async function runItems(
	keys: string[][],
	concurrency: number,
	ms: (index: number) => number,
	fails = new Set<number>(),
) {
	const order = new WriteOrder();
	const written: number[] = [];
	let writing = 0;
	let mostAtOnce = 0;
	await mapBounded(keys.length, concurrency, async (index) => {
		const turn = order.reserve(index);
		try {
			// Preparing takes longer for early items, so that later ones are ready first.
			await wait((keys.length - index) * 2);
			if (fails.has(index)) throw new Error(`item ${index} failed before writing`);
			await turn.ready(keys[index]);
			mostAtOnce = Math.max(mostAtOnce, ++writing);
			await wait(ms(index));
			writing--;
			written.push(index);
		} catch {
			// A failed item (Continue On Fail) ends its turn like any other.
		} finally {
			turn.done();
		}
	});
	return { written, mostAtOnce };
}

test('items sharing a key write in input order, though later ones are ready first and faster', async () => {
	const keys = [['email:a'], ['email:b'], ['email:a'], ['email:a', 'phone:1'], ['phone:1'], ['email:b']];
	const { written } = await runItems(keys, 10, (index) => 40 - index * 6);
	const orderOf = (key: string) => written.filter((index) => keys[index].includes(key));
	expect(orderOf('email:a')).toEqual([0, 2, 3]);
	expect(orderOf('phone:1')).toEqual([3, 4]);
	expect(orderOf('email:b')).toEqual([1, 5]);
});

test('items with no shared key do not wait for each other: ten different records are written at once', async () => {
	const keys = Array.from({ length: 10 }, (_, index) => [`path:/customers/${index}`]);
	expect((await runItems(keys, 10, () => 300)).mostAtOnce).toBe(10);
});

test('an item that fails before telling its keys does not hold the later ones', async () => {
	const keys = [['email:a'], ['email:a'], ['email:a']];
	expect((await runItems(keys, 3, () => 5, new Set([1]))).written).toEqual([0, 2]);
});

test('at Concurrency 1 nothing waits on an item that has not started', async () => {
	const keys = [['email:a'], ['email:a'], ['email:b'], ['email:a']];
	expect((await runItems(keys, 1, () => 1)).written).toEqual([0, 1, 2, 3]);
});
