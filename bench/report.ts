import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The figures of `npm run bench` and the files it writes: `bench/results.json`
 * (`{benchmark: {candidate: {median_ms, runs, requests, max_in_flight, …}}, ratios: {…}}`) and
 * `bench/RESULTS.md` (the tables, the goals beside the figures, the date and the machine).
 */

/** One measured run of one candidate. */
export interface Run {
	/** What the candidate is timed by (see `Benchmark.timedBy`). */
	ms: number;
	/** The workflow's total (n8n's startedAt to stoppedAt), when it ran in n8n. */
	workflowMs?: number;
	/** API requests the sandbox received during the run (the route the benchmark is about). */
	requests: number;
	/** The most requests the sandbox saw in flight at once. */
	maxInFlight: number;
	/** Items (records, customers, executions) that should have come out and did not. */
	lost: number;
	/** Items that came out, or were written, more than once. */
	duplicated: number;
	/** Answers later than the API's limit (a burst's acknowledgements over 10 s). */
	late?: number;
	/** Figures of this benchmark only (acknowledgement percentiles…). */
	extra?: Record<string, number>;
}

export interface CandidateFigures {
	median_ms: number;
	runs: number;
	runs_ms: number[];
	median_workflow_ms?: number;
	requests: number;
	max_in_flight: number;
	lost: number;
	duplicated: number;
	late?: number;
	[extra: string]: number | number[] | undefined;
}

export interface Goal {
	goal: string;
	figure: string;
	met: boolean;
	/** What bounds the figure, measured in the same run: shown when the goal is missed. */
	bound?: string;
}

export interface Benchmark {
	title: string;
	/** What `median_ms` measures, in words. */
	timedBy: string;
	candidates: Record<string, CandidateFigures>;
	notes: string[];
}

export interface Machine {
	date: string;
	cpu: string;
	cores: number;
	memoryGiB: number;
	loadBefore: number[];
	loadAfter: number[];
	benchNode: string;
	n8nNode: string;
	n8n: string;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile, as the sandbox's burst route computes it. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The figures of one candidate over its runs: medians of the times, the worst of the counts. */
export function summarise(runs: Run[]): CandidateFigures {
	const figures: CandidateFigures = {
		median_ms: round1(median(runs.map((run) => run.ms))),
		runs: runs.length,
		runs_ms: runs.map((run) => round1(run.ms)),
		requests: Math.max(...runs.map((run) => run.requests)),
		max_in_flight: Math.max(...runs.map((run) => run.maxInFlight)),
		lost: runs.reduce((sum, run) => sum + run.lost, 0),
		duplicated: runs.reduce((sum, run) => sum + run.duplicated, 0),
	};
	if (runs.some((run) => run.late !== undefined)) figures.late = runs.reduce((sum, run) => sum + (run.late ?? 0), 0);
	const workflow = runs.flatMap((run) => (run.workflowMs === undefined ? [] : [run.workflowMs]));
	if (workflow.length) figures.median_workflow_ms = round1(median(workflow));
	for (const key of Object.keys(runs[0].extra ?? {})) {
		figures[`median_${key}`] = round1(median(runs.map((run) => run.extra?.[key] ?? NaN)));
	}
	return figures;
}

const seconds = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

function table(headers: string[], rows: string[][]): string {
	return [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`]
		.concat(rows.map((row) => `| ${row.join(' | ')} |`))
		.join('\n');
}

function benchmarkTable(benchmark: Benchmark): string {
	const extras = [...new Set(Object.values(benchmark.candidates).flatMap((figures) => Object.keys(figures)))].filter(
		(key) => key.startsWith('median_') && key !== 'median_ms' && key !== 'median_workflow_ms',
	);
	const hasWorkflow = Object.values(benchmark.candidates).some((figures) => figures.median_workflow_ms !== undefined);
	const hasLate = Object.values(benchmark.candidates).some((figures) => figures.late !== undefined);
	const headers = [
		'candidate',
		'median',
		...(hasWorkflow ? ['workflow total'] : []),
		...extras.map((key) => key.replace(/^median_/, '').replace(/_/g, ' ')),
		'runs',
		'requests',
		'max in flight',
		'lost',
		'duplicated',
		...(hasLate ? ['acks over 10 s (all rounds)'] : []),
	];
	const rows = Object.entries(benchmark.candidates).map(([name, figures]) => [
		name,
		seconds(figures.median_ms),
		...(hasWorkflow ? [figures.median_workflow_ms === undefined ? '—' : seconds(figures.median_workflow_ms)] : []),
		...extras.map((key) => String(figures[key] ?? '—')),
		`${figures.runs} (${figures.runs_ms.map((ms) => Math.round(ms)).join(', ')})`,
		String(figures.requests),
		String(figures.max_in_flight),
		String(figures.lost),
		String(figures.duplicated),
		...(hasLate ? [String(figures.late ?? '—')] : []),
	]);
	return table(headers, rows);
}

export function goalsTable(goals: Goal[]): string {
	return table(
		['goal', 'measured', 'met'],
		goals.map((goal) => [
			goal.goal,
			goal.met || !goal.bound ? goal.figure : `${goal.figure}. Bounded by: ${goal.bound}`,
			goal.met ? 'yes' : '**no**',
		]),
	);
}

export function machineLine(machine: Machine): string {
	const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
	return (
		`${machine.date}; ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; load average (1/5/15 min) ` +
		`${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after; n8n ${machine.n8n} on Node ` +
		`${machine.n8nNode}; bench and sandbox on Node ${machine.benchNode}`
	);
}

function section(benchmark: Benchmark): string {
	return [
		`## ${benchmark.title}`,
		'',
		`Median: ${benchmark.timedBy}.`,
		'',
		benchmarkTable(benchmark),
		...(benchmark.notes.length ? ['', ...benchmark.notes.map((note) => `- ${note}`)] : []),
	].join('\n');
}

/** The heading of RESULTS.md's last section, written by hand from `npm run bench:profile` runs. */
const PROFILES_HEADING = '## Where the time goes (npm run bench:profile)';

/** RESULTS.md's profile section as it stands, kept by a new run (it has its own dates). */
function profilesSection(markdownFile: string): string[] {
	const text = existsSync(markdownFile) ? readFileSync(markdownFile, 'utf8') : '';
	const start = text.indexOf(PROFILES_HEADING);
	return start === -1 ? [] : [text.slice(start).trimEnd(), ''];
}

/**
 * Writes both files; `other` is the bursts of the last run on another n8n version (its own run, its
 * own date), shown after this run's sections. The profile section at the end of RESULTS.md is kept.
 */
export function writeResults(
	jsonFile: string,
	markdownFile: string,
	machine: Machine,
	benchmarks: Record<string, Benchmark>,
	ratios: Record<string, number>,
	goals: Goal[],
	other?: { machine: Machine; burst: Benchmark; burst40?: Benchmark },
): void {
	const json = {
		date: machine.date,
		machine,
		...Object.fromEntries(Object.entries(benchmarks).map(([key, benchmark]) => [key, benchmark.candidates])),
		ratios,
		...(other ? { [`burst_n8n_${other.machine.n8n}`]: { date: other.machine.date, ...other.burst.candidates } } : {}),
	};
	writeFileSync(jsonFile, `${JSON.stringify(json, null, '\t')}\n`);
	const otherBursts = other ? [other.burst40, other.burst].filter((burst) => burst !== undefined) : [];
	const otherSection = otherBursts.flatMap((burst) => [
		section({ ...burst, notes: [`Run: ${machineLine(other!.machine)}.`, ...burst.notes] }),
		'',
	]);
	const markdown = [
		'# Benchmark results',
		'',
		'Written by `npm run bench` (bench/real-n8n.ts); figures only, nothing here fails on time.',
		'',
		`Run: ${machineLine(machine)}.`,
		'',
		'## Goals (issues 19, 10, 33 and 38)',
		'',
		goalsTable(goals),
		'',
		...Object.values(benchmarks).flatMap((benchmark) => [section(benchmark), '']),
		...otherSection,
		'## Ratios',
		'',
		table(
			['ratio', 'value'],
			Object.entries(ratios).map(([name, value]) => [name, value.toFixed(2)]),
		),
		'',
		...profilesSection(markdownFile),
	].join('\n');
	writeFileSync(markdownFile, markdown);
}
