/** A small seeded PRNG (mulberry32): the demo data is the same for the same seed. */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Up to `count` distinct items, in their original order. */
	sample<T>(items: readonly T[], count: number): T[] {
		const chosen = new Set<number>();
		while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(this.next() * items.length));
		return [...chosen].sort((a, b) => a - b).map((index) => items[index]);
	}

	/** Picks by weight: `weighted([['a', 3], ['b', 1]])` returns 'a' three times out of four. */
	weighted<T>(choices: readonly (readonly [T, number])[]): T {
		const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
		let roll = this.next() * total;
		for (const [value, weight] of choices) {
			roll -= weight;
			if (roll < 0) return value;
		}
		return choices[choices.length - 1][0];
	}
}
