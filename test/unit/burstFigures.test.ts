import type { BurstOutcome } from '../../bench/burstBenchmark';
import { burstRun } from '../../bench/burstBenchmark';
import type { Execution } from '../../bench/n8nBench';
import { BURST_CHARGEBEE, BURST_TRIGGER, BURST_WEBHOOK } from '../../bench/n8nWorkflows';
import { summarise } from '../../bench/report';
import { FIGURES } from '../../scripts/docs-figures';

/**
 * Issue 38 (Performance): a burst's figures per candidate, the answers and the executions' start, as
 * `npm run bench` records them and docs/performance.md's table reads them (scripts/docs-figures.ts).
 */

const BURST_AT = Date.parse('2026-11-29T10:00:00.000Z');

/** An execution started `ms` after BURST_AT, its first item naming `resourceId` as the Chargebee Trigger's does. */
function execution(id: number, resourceId: number, ms: number): Execution {
	return {
		id: String(id),
		status: 'success',
		startedAt: new Date(BURST_AT + ms).toISOString(),
		stoppedAt: new Date(BURST_AT + ms + 5).toISOString(),
		data: {
			resultData: {
				runData: {
					'Chargebee Trigger': [
						{ startTime: BURST_AT + ms, executionTime: 1, data: { main: [[{ json: { resource_id: resourceId } }]] } },
					],
				},
			},
		},
	};
}

/**
 * Three deliveries: 1 sent 10 ms after the burst was asked for (duration 110 − ack 100) and answered
 * at once, 2 sent after 5 ms and answered after 12 s, 3 never sent. Record 1 started after 260 ms,
 * record 2 twice, after 305 and 405 ms; record 3 never.
 */
const OUTCOME: BurstOutcome = {
	burstAt: BURST_AT,
	answer: {
		sent: 3,
		delivered: 2,
		failed: 1,
		latency_ms: { p99: 12_000 },
		deliveries: [
			{ resource_id: 1, status: 200, ack_ms: 100, duration_ms: 110 },
			{ resource_id: 2, status: 200, ack_ms: 12_000, duration_ms: 12_005 },
			{ resource_id: 3, status: null, ack_ms: null, duration_ms: 2 },
		],
	},
	executions: [execution(3, 2, 405), execution(2, 2, 305), execution(1, 1, 260)],
	resourceIdOf: (json) => json.resource_id,
	settledMs: 12_500,
	maxInFlight: 0,
};

test("a burst's run: each execution's start from its delivery sent, answers over 10 s, lost and duplicated", () => {
	const run = burstRun(OUTCOME);
	expect(run).toMatchObject({ ms: 12_000, requests: 3, lost: 1, duplicated: 1, late: 1 });
	// Starts 250, 300 and 400 ms after their delivery was sent: nearest-rank p50 is the second.
	expect(run.extra).toMatchObject({
		ack_p50_ms: 100,
		ack_max_ms: 12_000,
		start_p50_ms: 300,
		start_p99_ms: 400,
		start_max_ms: 400,
	});
});

test("the docs' burst table reads each measure the bench records, on both n8n versions' files", () => {
	const figures = summarise([burstRun(OUTCOME)]);
	const candidates = { [BURST_TRIGGER]: figures, [BURST_CHARGEBEE]: figures, [BURST_WEBHOOK]: figures };
	const n8n2 = { burst40: candidates, burst: candidates };
	const n8n1 = { burst40: { candidates }, burst: { candidates } };
	const names = Object.keys(FIGURES).filter((name) => /^burst of \d+, n8n [12]\.x: /.test(name));
	expect(names).toHaveLength(2 * 2 * 3 * 8);
	const values = names.map((name) => [name, FIGURES[name].value(name.includes('n8n 2.x') ? n8n2 : n8n1)]);
	expect(values.filter(([, value]) => value === 'not measured')).toEqual([]);
	const of = (measure: string) => FIGURES[`burst of 100, n8n 1.x: Chargebee Trigger, ${measure}`].value(n8n1);
	expect(of('answer p50')).toBe('100 ms');
	expect(of('answer p99')).toBe('12 s');
	expect(of('answers over 10 s')).toBe('1');
	expect(of('execution start p50')).toBe('300 ms');
	expect(of('execution start max')).toBe('400 ms');
	expect(of('lost, duplicated')).toBe('1 / 1');
});

test('a run before issue 38 gives no Chargebee Trigger and no execution start: the table says not measured', () => {
	const { start_p50_ms: _start, ...extra } = burstRun(OUTCOME).extra!;
	const old = summarise([{ ...burstRun(OUTCOME), extra }]);
	const results = { burst40: { [BURST_TRIGGER]: old }, burst: { [BURST_TRIGGER]: old } };
	expect(FIGURES['burst of 40, n8n 2.x: trigger, execution start p50'].value(results)).toBe('not measured');
	expect(FIGURES['burst of 40, n8n 2.x: trigger, execution start p99'].value(results)).toBe('400 ms');
	expect(FIGURES['burst of 40, n8n 2.x: Chargebee Trigger, answer p99'].value(results)).toBe('not measured');
	// A file without the burst at all is an error, not a figure.
	expect(() => FIGURES['burst of 40, n8n 1.x: trigger, answer p99'].value({ burst: {} })).toThrow(/burst40/);
});
