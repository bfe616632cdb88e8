import { sleep } from 'n8n-workflow';

/**
 * When a node's requests may go out. A 429 says the API wants no more requests for `Retry-After`,
 * from this client, not only the one that got it: so it pauses every request of the node's run,
 * those waiting to retry and those about to start, and once the pause is over all go on at once.
 * Requests already sent when the pause begins are not called back; their 429s, if any, land in the
 * same pause (it only ever grows to the latest end asked for).
 *
 * The requests held leave in random order: in a fixed order (say, the one that got the 429 first),
 * they would meet the API's limit at the same place after every pause, and the same request would
 * take every 429 until it gave up.
 */
export class Pacing {
	private resumeAt = 0;

	private started = 0;

	/** The requests held by the pause, each resumed by calling it. */
	private held: Array<() => void> = [];

	/** The timer of the pause under way, if one is. */
	private releasing: Promise<void> | undefined;

	constructor(
		private readonly now: () => number = Date.now,
		private readonly random: () => number = Math.random,
	) {}

	/** How many pauses 429s started (a 429 that only lengthened a pause under way starts none). */
	get pauses(): number {
		return this.started;
	}

	/** Holds every request of this run until `delayMs` from now (or later, when a pause already runs longer). */
	pause(delayMs: number): void {
		const now = this.now();
		if (this.resumeAt <= now) this.started++;
		this.resumeAt = Math.max(this.resumeAt, now + delayMs);
	}

	/** Resolves once no pause holds the requests. */
	async ready(): Promise<void> {
		while (this.resumeAt > this.now()) {
			this.releasing ??= this.releaseAtResume();
			await new Promise<void>((resume) => this.held.push(resume));
		}
	}

	/** Waits for the end of the pause (however long it grows), then resumes the held requests in random order. */
	private async releaseAtResume(): Promise<void> {
		for (let wait = this.resumeAt - this.now(); wait > 0; wait = this.resumeAt - this.now()) await sleep(wait);
		this.releasing = undefined;
		const held = this.held;
		this.held = [];
		for (let index = held.length - 1; index > 0; index--) {
			const other = Math.floor(this.random() * (index + 1));
			[held[index], held[other]] = [held[other], held[index]];
		}
		for (const resume of held) resume();
	}
}

/**
 * One Pacing per n8n context: the context object lives exactly as long as one node's run (an
 * execution of the action node, one trigger activation or delivery, one dropdown load), so the
 * pause is shared by every item of the run and forgotten with it. Nothing is kept between runs.
 */
const pacings = new WeakMap<object, Pacing>();

export function pacingOf(context: object): Pacing {
	let pacing = pacings.get(context);
	if (!pacing) {
		pacing = new Pacing();
		pacings.set(context, pacing);
	}
	return pacing;
}
