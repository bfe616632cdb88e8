import { sleep } from 'n8n-workflow';

/**
 * When a node's requests may go out. A 429 says the API wants no more requests for `Retry-After`,
 * from this client, not only the one that got it: so it pauses every request of the node's run,
 * those waiting to retry and those about to start, and once the pause is over all go on at once.
 * Requests already sent when the pause begins are not called back; their 429s, if any, land in the
 * same pause (it only ever grows to the latest end asked for).
 */
export class Pacing {
	private resumeAt = 0;

	private started = 0;

	constructor(private readonly now: () => number = Date.now) {}

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

	/** Resolves once no pause holds the requests, waiting as long as pauses keep being lengthened. */
	async ready(): Promise<void> {
		for (let wait = this.resumeAt - this.now(); wait > 0; wait = this.resumeAt - this.now()) await sleep(wait);
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
