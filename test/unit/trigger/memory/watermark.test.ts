import * as fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { ScopeMemory, applyJournal } from '../../../../nodes/AgencyCrmTrigger/memory/scope';
import type { OwedDelivery, Progress, ReplayWindow } from '../../../../nodes/AgencyCrmTrigger/memory/store';
import {
	UNDER_WAY_MS,
	activated,
	followed,
	owe,
	owedDue,
	progressOf,
	restarted,
	settle,
	windowReplayed,
	writeProgress,
} from '../../../../nodes/AgencyCrmTrigger/memory/store';
import { MARGIN_MS } from '../../../../nodes/AgencyCrmTrigger/replay/missedChanges';

/**
 * The watermark (memory/store.ts): one transition at a time, then on generated runs of production's
 * silent contract against a model of it, apart from the trigger's code. Invariant: every change made
 * while the workflow was published, unpublished, suspended or n8n down is started once the workflow
 * is activated again (and its replay answered), but contact updates made while nothing could be
 * delivered, which the API offers no search for (docs/trigger.md).
 */
const NOW = Date.parse('2026-11-28T12:00:00Z');
const HOUR = 3_600_000;
const delivery = (id: number, at: number, event = 'PRODUCT_UPDATE'): OwedDelivery => ({ event, id, at });

describe('one transition at a time', () => {
	test('what cannot be read counts as never followed; the same progress written again changes nothing', () => {
		expect(
			progressOf({ progress: { watermark: 'yesterday', replaying: { until: 'now' }, owed: [{ id: 1 }] } }),
		).toEqual({
			watermark: undefined,
			replaying: undefined,
			owed: [],
		});
		const staticData: IDataObject = {};
		const progress: Progress = { watermark: NOW, owed: [delivery(5, NOW)] };
		expect(writeProgress(staticData, progress)).toBe(true);
		expect(writeProgress(staticData, { ...progress })).toBe(false);
		expect(progressOf(staticData)).toEqual({ ...progress, replaying: undefined });
	});

	test('the first activation follows from now and replays nothing; with the replay off, the owed are dropped', () => {
		expect(activated({ owed: [] }, { now: NOW, enabled: true })).toEqual({
			progress: { watermark: NOW, followedFrom: NOW, owed: [] },
			dropped: [],
		});
		const owed = [delivery(5, NOW - HOUR)];
		expect(activated({ watermark: NOW - HOUR, owed }, { now: NOW, enabled: false })).toEqual({
			progress: { watermark: NOW, followedFrom: NOW, owed: [] },
			dropped: owed,
		});
	});

	test('every later activation replays from the watermark to now, whether the hook existed, was suspended or is new', () => {
		const { progress, window } = activated({ watermark: NOW - HOUR, owed: [] }, { now: NOW, enabled: true });
		expect(window).toEqual({ since: NOW - HOUR, followedFrom: undefined, until: NOW, attempts: 1 });
		expect(progress.replaying).toEqual({ until: NOW, attempts: 1 });
		// A replay not completed: the next activation looks from the same watermark, one attempt more.
		expect(activated(progress, { now: NOW + HOUR, enabled: true }).window).toEqual({
			since: NOW - HOUR,
			followedFrom: undefined,
			until: NOW + HOUR,
			attempts: 2,
		});
	});

	test('journals move the watermark on, never back, and never while a replay is owed', () => {
		expect(followed({ watermark: NOW, owed: [] }, NOW + 1000).watermark).toBe(NOW + 1000);
		expect(followed({ watermark: NOW, owed: [] }, NOW - 1000).watermark).toBe(NOW);
		expect(
			followed({ watermark: NOW, replaying: { until: NOW + 5, attempts: 1 }, owed: [] }, NOW + 1000).watermark,
		).toBe(NOW);
		expect(followed({ owed: [] }, NOW).watermark).toBeUndefined();
	});

	test('a window replayed in full moves the watermark to its end; an older report leaves a newer window owed', () => {
		const replaying = { until: NOW, attempts: 1 };
		expect(windowReplayed({ watermark: NOW - HOUR, replaying, owed: [] }, NOW)).toEqual({
			watermark: NOW,
			owed: [],
			replaying: undefined,
		});
		expect(windowReplayed({ watermark: NOW - HOUR, replaying, owed: [] }, NOW - 1)).toEqual({
			watermark: NOW - 1,
			replaying,
			owed: [],
		});
	});

	test("n8n's start replays from the watermark to the start, unless an activation since the start replays it", () => {
		const started = NOW - 60_000;
		expect(restarted({ watermark: NOW - HOUR, owed: [] }, started).window).toEqual({
			since: NOW - HOUR,
			until: started,
			attempts: 1,
		});
		expect(restarted({ watermark: NOW, owed: [] }, started).window).toBeUndefined();
		expect(
			restarted({ watermark: NOW - HOUR, replaying: { until: NOW, attempts: 1 }, owed: [] }, started).window,
		).toBeUndefined();
		expect(restarted({ owed: [] }, started).window).toBeUndefined();
	});

	test('deliveries owed are kept each once, settled one by one, and due once no read can still be under way', () => {
		const a = delivery(1, NOW - UNDER_WAY_MS - 1);
		const b = delivery(1, NOW - 1000);
		const progress = owe(owe({ owed: [] }, [a, b]), [b]);
		expect(progress.owed).toEqual([a, b]);
		expect(owe(progress, [{ ...a, failed: true }]).owed).toEqual([b, { ...a, failed: true }]);
		expect(owedDue(progress, NOW - HOUR, NOW)).toEqual([a]);
		// Before this process started, n8n stopped while they were read: both due.
		expect(owedDue(progress, NOW, NOW)).toEqual([a, b]);
		expect(settle(progress, [{ ...b }]).owed).toEqual([a]);
		// A read that failed is due at once: nothing reads it any more.
		expect(owedDue({ owed: [{ ...b, failed: true }] }, NOW - HOUR, NOW)).toEqual([{ ...b, failed: true }]);
	});
});

/*
 * The model: production's silent contract, written from docs/assumptions.md "Production evidence".
 * Each step is minutes of the CRM's life. A change is delivered at once when the hook is registered
 * and not suspended; when n8n is down, the delivery and its 3 retries (within minutes) fail and the
 * hook is suspended, without a word. An answered delivery's record may fail to be read (owed), or n8n
 * may stop while reading it. A replay finds the properties changed (by `last_modified`) and the
 * contacts created since the watermark less the margin; no contact update. The trigger's own
 * pieces run it: ScopeMemory's journal, applyJournal, activated, restarted, owedDue.
 */
type Kind = 'property' | 'contactCreate' | 'contactUpdate';
interface Change {
	kind: Kind;
	id: number;
	at: number;
	/** Answered 200 by the trigger. */
	answered: boolean;
	started: number;
}
type Op =
	| { op: 'change'; kind: Kind; id: number }
	| { op: 'readFails' }
	| { op: 'crashWhileReading' }
	| { op: 'down' }
	| { op: 'up'; version: 1 | 2 }
	| { op: 'deactivate' }
	| { op: 'activate'; replayFails: boolean }
	| { op: 'wait'; minutes: number };

class World {
	now = NOW;
	db: IDataObject = {};
	scope = new ScopeMemory();
	startedAt = NOW - HOUR;
	published = true;
	suspended = false;
	up = true;
	readFails = false;
	crashNext = false;
	readonly changes: Change[] = [];
	/** Changes made before n8n 2.x started that its first journal did not bring back. */
	readonly missedAtStart: Change[] = [];

	constructor() {
		this.activate(false);
	}

	private get progress() {
		return progressOf(this.db);
	}

	/**
	 * A journal the process writes soon after each delivery, taken as takeJournal takes it: the first
	 * a process takes after its start replays what changed before (n8n 2.x calls no trigger then).
	 */
	private journal(): void {
		const { journal, written } = this.scope.journal(this.now);
		let due: { window?: ReplayWindow; owed: OwedDelivery[] } | undefined;
		if (!this.scope.lookedBeforeStart) {
			this.scope.lookedBeforeStart = true;
			const { progress, window } = restarted(this.progress, this.startedAt);
			writeProgress(this.db, progress);
			due = { window, owed: owedDue(progress, this.startedAt, this.now) };
		}
		applyJournal(this.db, journal);
		written();
		if (due && (due.window || due.owed.length)) this.replay(due.window, due.owed, false);
		if (due) this.missedAtStart.push(...lost(this).filter((change) => change.at < this.startedAt));
	}

	change(kind: Kind, id: number): void {
		const change = { kind, id, at: this.now, answered: false, started: 0 };
		this.changes.push(change);
		if (!this.published || this.suspended) return;
		if (!this.up) {
			this.suspended = true;
			return;
		}
		change.answered = true;
		const arrival = Symbol('delivery');
		const owed = { event: kind, id, at: this.now };
		this.scope.underWay.set(arrival, { at: this.now, delivery: owed, written: false });
		if (this.crashNext) {
			// The arrival's journal left, then n8n stopped while reading the record.
			this.journal();
			this.crashNext = false;
			this.up = false;
			return;
		}
		if (this.readFails) this.scope.done(arrival, false);
		else {
			change.started++;
			this.scope.done(arrival, true);
		}
		this.journal();
	}

	/** The replay: what the searches find since the watermark less the margin, and the owed deliveries. */
	replay(window: ReplayWindow | undefined, owed: OwedDelivery[], fails: boolean): void {
		if (fails) return;
		const found = this.changes.filter(
			(change) =>
				window !== undefined &&
				change.kind !== 'contactUpdate' &&
				change.at >= window.since - MARGIN_MS &&
				change.at <= window.until,
		);
		const replayedOwed = owed.map((delivery) =>
			this.changes.find(
				(change) => change.kind === delivery.event && change.id === delivery.id && change.at === delivery.at,
			),
		);
		for (const change of new Set([...found, ...replayedOwed])) if (change && !change.started) change.started++;
		applyJournal(this.db, { replayedUntil: window?.until, settled: owed });
	}

	activate(replayFails: boolean): void {
		if (!this.up) return;
		this.published = true;
		// Every activation updates the hook: a suspended one delivers again.
		this.suspended = false;
		const { progress, window } = activated(this.progress, { now: this.now, enabled: true });
		writeProgress(this.db, progress);
		this.scope.lookedBeforeStart = true;
		const owed = owedDue(progress, this.startedAt, this.now);
		if (window || owed.length) this.replay(window, owed, replayFails);
	}

	/** n8n starts again: a new process; n8n 1.x activates its workflows, n8n 2.x calls nothing. */
	start(version: 1 | 2): void {
		if (this.up) return;
		this.up = true;
		this.scope = new ScopeMemory();
		this.startedAt = this.now;
		if (version === 1 && this.published) this.activate(false);
	}

	run(ops: Op[]): this {
		for (const step of ops) {
			if (step.op === 'change') this.change(step.kind, step.id);
			else if (step.op === 'readFails') this.readFails = !this.readFails;
			else if (step.op === 'crashWhileReading') this.crashNext = this.up;
			else if (step.op === 'down') this.up = false;
			else if (step.op === 'up') this.start(step.version);
			else if (step.op === 'deactivate') this.published = !this.up ? this.published : false;
			else if (step.op === 'activate') this.activate(step.replayFails);
			else this.now += step.minutes * 60_000;
			this.now += 60_000;
		}
		// The user's way back, as docs/trigger.md says: n8n running, publish again, the replay answered.
		this.readFails = false;
		this.crashNext = false;
		this.start(2);
		this.activate(false);
		return this;
	}
}

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			op: fc.constant('change' as const),
			kind: fc.constantFrom('property' as const, 'contactCreate' as const, 'contactUpdate' as const),
			id: fc.integer({ min: 1, max: 4 }),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ op: 'readFails' as const }) },
	{ weight: 1, arbitrary: fc.constant({ op: 'crashWhileReading' as const }) },
	{ weight: 1, arbitrary: fc.constant({ op: 'down' as const }) },
	{
		weight: 1,
		arbitrary: fc.record({ op: fc.constant('up' as const), version: fc.constantFrom(1 as const, 2 as const) }),
	},
	{ weight: 1, arbitrary: fc.constant({ op: 'deactivate' as const }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant('activate' as const), replayFails: fc.boolean() }) },
	{ weight: 2, arbitrary: fc.record({ op: fc.constant('wait' as const), minutes: fc.constantFrom(1, 20, 600) }) },
);

/** Changes never started: but a contact update never answered (nothing could deliver it), which the API cannot find again. */
function lost(world: { changes: Change[] }): Change[] {
	return world.changes.filter((change) => change.started === 0 && (change.kind !== 'contactUpdate' || change.answered));
}

test('every change made while the workflow was off, the hook suspended or n8n down is replayed at the next activation', () => {
	const reached = { suspended: 0, crashes: 0, replays: 0 };
	fc.assert(
		fc.property(fc.array(opArbitrary, { minLength: 10, maxLength: 60 }), (ops) => {
			const world = new World().run(ops);
			expect(lost(world)).toEqual([]);
			expect(world.missedAtStart).toEqual([]);
			reached.replays += world.changes.filter((change) => change.started > 0 && !change.answered).length;
			reached.suspended += world.changes.some((change) => !change.answered) ? 1 : 0;
			reached.crashes += ops.some((op) => op.op === 'crashWhileReading') ? 1 : 0;
		}),
		{ numRuns: 2000 },
	);
	console.log(`watermark: reached ${JSON.stringify(reached)}`);
	for (const count of Object.values(reached)) expect(count).toBeGreaterThan(20);
});
