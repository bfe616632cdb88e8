/** One item's place in the run's write order: its keys once known, then its end. */
export interface Turn {
	/** Records what the item writes, then waits until every earlier item that writes one of its keys has ended. */
	ready(keys: string[]): Promise<void>;
	/** The item has ended (written, failed, or never got to write); later items may go on. */
	done(): void;
}

/**
 * Keeps the input order of the items of one run that write the same record, whatever the
 * Concurrency: an item waits for every earlier item sharing one of its keys (a record's path, a
 * contact's email or phone) before it sends anything. Without it, two items with the same new email
 * both search before either creates, and the second one's fields never reach the contact.
 *
 * Items tell their keys in input order (each after the one before it), so that an item waits for
 * exactly the earlier items of its keys. That cannot deadlock: the runner starts items in input
 * order (actions/concurrency.ts), so every earlier item is running and will tell its keys or end.
 */
export class WriteOrder {
	/** By item index: resolved once the item has told its keys (or ended). */
	private readonly told: Array<Promise<void>> = [];

	/** By key: the end of the last item told that writes it. */
	private readonly lastWriter = new Map<string, Promise<void>>();

	/** The turn of item `index`; called as the item starts, before anything it awaits. */
	reserve(index: number): Turn {
		let tell!: (keys: string[]) => void;
		const keys = new Promise<string[]>((resolve) => (tell = resolve));
		let end!: () => void;
		const ended = new Promise<void>((resolve) => (end = resolve));
		const earlier = (this.told[index - 1] ?? Promise.resolve()).then(() => keys).then((own) => this.claim(own, ended));
		this.told[index] = earlier.then(() => undefined);
		return {
			async ready(own) {
				tell(own);
				await Promise.all(await earlier);
			},
			done() {
				tell([]);
				end();
			},
		};
	}

	/** Makes `ended` the last writer of each key; answers the ends to wait for first. */
	private claim(keys: string[], ended: Promise<void>): Array<Promise<void>> {
		const before = keys.flatMap((key) => this.lastWriter.get(key) ?? []);
		for (const key of keys) this.lastWriter.set(key, ended);
		return before;
	}
}
