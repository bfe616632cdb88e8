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

test('issue 26: one contact named two ways (email in one item, phone in another) is written in input order once found', async () => {
	const order = new WriteOrder();
	const written: number[] = [];
	// Item 0 names the contact by email and finds it late; item 1 by phone and finds it first.
	const named = [['email:ana@example.com'], ['phone:612345678'], ['email:bob@example.com']];
	const found = ['contact:42', 'contact:42', 'contact:43'];
	const searchMs = [40, 5, 5];
	await mapBounded(3, 3, async (index) => {
		const turn = order.reserve(index);
		try {
			await turn.ready(named[index]);
			await wait(searchMs[index]);
			await turn.resolved([found[index]]);
			await wait(5);
			written.push(index);
		} finally {
			turn.done();
		}
	});
	expect(written.indexOf(0)).toBeLessThan(written.indexOf(1));
	expect(written).toHaveLength(3);
});

test('issue 26: an item that never finds its contact (it fails, or creates) does not hold later ones past its end', async () => {
	const order = new WriteOrder();
	const written: number[] = [];
	await mapBounded(2, 2, async (index) => {
		const turn = order.reserve(index);
		try {
			await turn.ready([`email:${index}`]);
			if (index === 0) throw new Error('search failed');
			await turn.resolved(['contact:7']);
			written.push(index);
		} catch {
			// Continue On Fail: the item ends its turn like any other.
		} finally {
			turn.done();
		}
	});
	expect(written).toEqual([1]);
});
