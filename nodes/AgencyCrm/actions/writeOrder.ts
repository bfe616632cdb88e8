/** One item's place in the run's write order: its keys once known, then its end. */
export interface Turn {
	/** Records what the item writes, then waits until every earlier item that writes one of its keys has ended. */
	ready(keys: string[]): Promise<boolean>;
	/**
	 * Records the record the item turned out to write (the contact a search found, `contact:10042`),
	 * then waits until every earlier item has said which record it writes, and those that write this
	 * one have ended. One contact can be named two ways in one run (its email in one item, its phone
	 * in another): only once it is found are the two known to write the same record. Answers whether
	 * an earlier item wrote one of them meanwhile (what was read of them before may be stale).
	 */
	resolved(keys: string[]): Promise<boolean>;
	/** The item has ended (written, failed, or never got to write); later items may go on. */
	done(): void;
}

/**
 * One stage at which items tell their keys, in input order (each after the one before it), so that
 * an item waits for exactly the earlier items of its keys.
 */
class Stage {
	/** By item index: resolved once the item has told its keys at this stage (or ended). */
	private readonly told: Array<Promise<void>> = [];

	/** By key: the end of the last item told that writes it. */
	private readonly lastWriter = new Map<string, Promise<void>>();

	/** Item `index`'s place at this stage: `tell` its keys and wait for the earlier writers of each; `skip` if it never will. */
	reserve(index: number, ended: Promise<void>) {
		let tell!: (keys: string[]) => void;
		const keys = new Promise<string[]>((resolve) => (tell = resolve));
		const earlier = (this.told[index - 1] ?? Promise.resolve()).then(() => keys).then((own) => this.claim(own, ended));
		this.told[index] = earlier.then(() => undefined);
		return {
			/** Answers whether an earlier item writes one of the keys (and has now ended). */
			async tell(own: string[]) {
				tell(own);
				const writers = await earlier;
				await Promise.all(writers);
				return writers.length > 0;
			},
			skip: () => tell([]),
		};
	}

	/** Makes `ended` the last writer of each key; answers the ends to wait for first. */
	private claim(keys: string[], ended: Promise<void>): Array<Promise<void>> {
		const before = keys.flatMap((key) => this.lastWriter.get(key) ?? []);
		for (const key of keys) this.lastWriter.set(key, ended);
		return before;
	}
}

/**
 * Keeps the input order of the items of one run that write the same record, whatever the
 * Concurrency: an item waits for every earlier item sharing one of its keys (a record's path, a
 * contact's email or phone) before it sends anything, and, once it knows the record it writes (the
 * contact a search found), for every earlier item that writes that record. Without it, two items
 * with the same new email both search before either creates, and the second one's fields never
 * reach the contact; two items naming one contact by its email and by its phone update it in
 * whichever order their answers come.
 *
 * That cannot deadlock: an item only waits for earlier items, and the runner starts items in input
 * order (actions/concurrency.ts), so every earlier item is running and will tell its keys or end.
 */
export class WriteOrder {
	private readonly stages = { named: new Stage(), resolved: new Stage() };

	/** The turn of item `index`; called as the item starts, before anything it awaits. */
	reserve(index: number): Turn {
		let end!: () => void;
		const ended = new Promise<void>((resolve) => (end = resolve));
		const named = this.stages.named.reserve(index, ended);
		const resolved = this.stages.resolved.reserve(index, ended);
		return {
			ready: named.tell,
			resolved: resolved.tell,
			done() {
				named.skip();
				resolved.skip();
				end();
			},
		};
	}
}
