import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { BURST, burstKey, SMALL_BURST } from '../bench/goals';
import { BURST_CHARGEBEE, BURST_TRIGGER, BURST_TRIGGER_LAZY, BURST_WEBHOOK } from '../bench/n8nWorkflows';

/**
 * Every figure the README and docs/ give is a link to the results file it comes from, titled with
 * the figure's name: `[3.3 s](../bench/results.json 'creates: Concurrency 10')`. The files are
 * written by commands (npm start, npm run check, npm test and the demo's test into .cache/results,
 * `npm run bench` into bench/), never by hand; this script knows how each figure reads its file.
 *
 * `npm run docs:figures` rewrites the figures of the pages from the committed files;
 * `npm run docs:figures -- --record [folder]` first copies the last runs' results (.cache/results,
 * or that folder) into docs/results/. test/unit/docsFigures.test.ts fails when a figure and its
 * source differ, when a figure's name is unknown, and when the README or a page of this issue gives
 * a measurement that is not such a link.
 */

/** The repository: this file runs from `scripts/` under ts-jest and from `build/scripts/` once built. */
export const ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'build' ? '../..' : '..');
export const RESULTS = path.join(ROOT, 'docs', 'results');

/** The pages whose figures this script keeps: the README and every page of docs/. */
export function pages(): string[] {
	const docs = readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return ['README.md', ...docs];
}

// ---- How a figure is written ----

/** Seconds as people say them: `4.0 s`, `26 s`, `5 min 25 s`. */
export function duration(seconds: number): string {
	if (seconds < 10) return `${seconds.toFixed(1)} s`;
	if (seconds < 60) return `${Math.round(seconds)} s`;
	const whole = Math.round(seconds);
	return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** Milliseconds: `516 ms` below a second, else as `duration`. */
const milliseconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : duration(ms / 1000));

const day = (iso: string) => iso.slice(0, 10);

// ---- The figures, by name ----

type Json = Record<string, unknown>;

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** The value at a path of keys in a results file; a path that is not there is an error naming it. */
function at(json: unknown, ...keys: string[]): unknown {
	const value = keys.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], json);
	if (value === undefined) throw new Error(`No ${keys.join(' → ')} in the results`);
	return value;
}
const numberAt = (json: unknown, ...keys: string[]) => Number(at(json, ...keys));

interface Figure {
	/** The results file, from the repository's root. */
	source: string;
	value: (results: Json) => string;
}

const figure = (source: string, value: Figure['value']): Figure => ({ source, value });

const RUNTIME = (runtime: string) => `tools/n8n/runtimes/n8n-${runtime}/package-lock.json`;
const n8nVersion = (lock: Json) => String(at(lock, 'packages', 'node_modules/n8n', 'version'));

const START = 'docs/results/npm-start.json';
const CHECK = 'docs/results/npm-run-check.json';
const TEST = 'docs/results/npm-test.json';
const BENCH = 'bench/results.json';
/** The bursts of the last run on n8n 1.x (scripts/bench.sh runs it before the one on n8n 2.x). */
const BENCH_N8N_1 = 'bench/results-n8n-1.123.json';
/** A candidate's median: of its runs' times, or (bursts) of its rounds' 99th percentile of acknowledgement times. */
const median = (group: string, candidate: string) => (bench: Json) =>
	milliseconds(numberAt(bench, group, candidate, 'median_ms'));
const acksPerSecond = (group: string, candidate: string) => (bench: Json) =>
	String(Math.round(numberAt(bench, group, candidate, 'median_acks_per_s')));

// ---- The one-process bursts: a figure per n8n version, burst size, candidate and measure ----

/** What a run before issue 38 did not measure (n8n's Chargebee Trigger, the executions' start). */
const NOT_MEASURED = 'not measured';

/** Where each n8n version's bursts are: a burst's candidates at its key, or under the benchmark's `candidates`. */
const BURST_FILES: Array<{ n8n: string; source: string; candidatesAt: (key: string) => string[] }> = [
	{ n8n: 'n8n 2.x', source: BENCH, candidatesAt: (key) => [key] },
	{ n8n: 'n8n 1.x', source: BENCH_N8N_1, candidatesAt: (key) => [key, 'candidates'] },
];

const BURST_CANDIDATES: Record<string, string> = {
	trigger: BURST_TRIGGER,
	'Chargebee Trigger': BURST_CHARGEBEE,
	'Webhook node': BURST_WEBHOOK,
};

/** A measure of one candidate's figures (medians of its rounds; the counts added up), undefined when absent. */
type BurstMeasure = (figures: Json) => string | undefined;
const msAt =
	(key: string): BurstMeasure =>
	(figures) =>
		figures[key] === undefined ? undefined : milliseconds(Number(figures[key]));

const BURST_MEASURES: Record<string, BurstMeasure> = {
	'answer p50': msAt('median_ack_p50_ms'),
	'answer p99': msAt('median_ms'),
	'answer max': msAt('median_ack_max_ms'),
	'answers over 10 s': (figures) => (figures.late === undefined ? undefined : String(figures.late)),
	'execution start p50': msAt('median_start_p50_ms'),
	'execution start p99': msAt('median_start_p99_ms'),
	'execution start max': msAt('median_start_max_ms'),
	'lost, duplicated': (figures) => `${String(figures.lost)} / ${String(figures.duplicated)}`,
};

/**
 * `burst of 40, n8n 2.x: Chargebee Trigger, answer p99` and the like. A file without the burst is an
 * error; a candidate or a measure the run did not record says so (NOT_MEASURED).
 */
function burstFigures(): Record<string, Figure> {
	const figures: Record<string, Figure> = {};
	for (const { n8n, source, candidatesAt } of BURST_FILES) {
		for (const size of [SMALL_BURST, BURST]) {
			for (const [short, candidate] of Object.entries(BURST_CANDIDATES)) {
				for (const [measure, read] of Object.entries(BURST_MEASURES)) {
					figures[`burst of ${size}, ${n8n}: ${short}, ${measure}`] = figure(source, (results) => {
						const measured = (at(results, ...candidatesAt(burstKey(size))) as Json)[candidate] as Json | undefined;
						return (measured && read(measured)) ?? NOT_MEASURED;
					});
				}
			}
		}
	}
	return figures;
}

export const FIGURES: Record<string, Figure> = {
	'n8n 2.x tested': figure(RUNTIME('2.41'), n8nVersion),
	'n8n 1.x tested': figure(RUNTIME('1.123'), n8nVersion),

	'npm start: first start': figure(START, (results) => duration(numberAt(results, 'firstStart', 'seconds'))),
	'npm start: first start, cores': figure(START, (results) => String(at(results, 'firstStart', 'machine', 'cores'))),
	'npm start: later start': figure(START, (results) => duration(numberAt(results, 'start', 'seconds'))),
	'npm start: stop on SIGINT': figure(START, (results) => duration(numberAt(results, 'stopOnSIGINT', 'seconds'))),
	'npm start: stop on SIGTERM': figure(START, (results) => duration(numberAt(results, 'stopOnSIGTERM', 'seconds'))),

	'npm run check': figure(CHECK, (results) => duration(numberAt(results, 'seconds'))),
	'npm run check, cores': figure(CHECK, (results) => String(at(results, 'machine', 'cores'))),
	'npm test': figure(TEST, (results) => duration(numberAt(results, 'seconds'))),
	'npm test, cores': figure(TEST, (results) => String(at(results, 'machine', 'cores'))),

	'bench: date': figure(BENCH, (bench) => day(String(at(bench, 'date')))),
	'bench: cores': figure(BENCH, (bench) => String(at(bench, 'machine', 'cores'))),
	'bench: n8n': figure(BENCH, (bench) => String(at(bench, 'machine', 'n8n'))),
	'bench on n8n 1.x: date': figure(BENCH_N8N_1, (bench) => day(String(at(bench, 'machine', 'date')))),
	'bench on n8n 1.x: n8n': figure(BENCH_N8N_1, (bench) => String(at(bench, 'machine', 'n8n'))),
	'creates: Concurrency 1': figure(BENCH, median('creates', 'this node, Concurrency 1')),
	'creates: Concurrency 10': figure(BENCH, median('creates', 'this node, Concurrency 10 (default)')),
	'creates: HTTP Request node': figure(
		BENCH,
		median('creates', 'HTTP Request node, no credential (token from a first node), no batching'),
	),
	'creates: HTTP Request node with the credential': figure(
		BENCH,
		median('creates', "HTTP Request node with this package's credential, no batching"),
	),
	'Return All: this node': figure(BENCH, median('list', 'this node, Output Raw')),
	'Return All: the floor': figure(
		BENCH,
		median('list', "the floor: a minimal node on n8n's authenticated helper (bench/floor)"),
	),
	'Return All: HTTP Request node': figure(BENCH, median('list', 'HTTP Request node (pagination) + Split Out')),
	...burstFigures(),
	'burst: trigger acks per s': figure(BENCH, acksPerSecond('burst', BURST_TRIGGER)),
	'burst: trigger p99, lazy isolates': figure(BENCH, median('burst', BURST_TRIGGER_LAZY)),
	'burst: trigger acks per s, lazy isolates': figure(BENCH, acksPerSecond('burst', BURST_TRIGGER_LAZY)),
	'queue mode, one webhook processor: trigger p99': figure(BENCH, median('queueOne', BURST_TRIGGER)),
	'queue mode, one webhook processor: trigger acks per s': figure(BENCH, acksPerSecond('queueOne', BURST_TRIGGER)),
	'queue mode, two webhook processors: trigger p99': figure(BENCH, median('queueTwo', BURST_TRIGGER)),
	'queue mode, two webhook processors: trigger acks per s': figure(BENCH, acksPerSecond('queueTwo', BURST_TRIGGER)),
};

// ---- Reading and writing the pages ----

/** A figure as a page writes it: `[text](href 'name')` (Prettier's quotes; double quotes are read too). */
export const FIGURE_LINK = /\[([^\]]*)\]\(([^)\s]+) ['"]([^'"]+)['"]\)/g;

export interface FigureUse {
	page: string;
	text: string;
	href: string;
	name: string;
}

export function figuresOf(page: string, markdown: string): FigureUse[] {
	return [...markdown.matchAll(FIGURE_LINK)].map(([, text, href, name]) => ({ page, text, href, name }));
}

/** What a figure should say, read from its source now; throws for a name this script does not know. */
export function valueOf(name: string): string {
	const known = FIGURES[name];
	if (!known) throw new Error(`No figure named "${name}" in scripts/docs-figures.ts`);
	return known.value(readJson(path.join(ROOT, known.source)));
}

/** The link a page gives to the figure's source, relative to the page. */
export function hrefOf(page: string, name: string): string {
	return path.relative(path.dirname(path.join(ROOT, page)), path.join(ROOT, FIGURES[name].source));
}

/** The page with every figure read again from its source. */
export function withFigures(page: string, markdown: string): string {
	return markdown.replace(FIGURE_LINK, (_, _text: string, _href: string, name: string) => {
		return `[${valueOf(name)}](${hrefOf(page, name)} '${name}')`;
	});
}

/**
 * Records the last runs' results from `folder` in docs/results/, each file's entries over the ones
 * recorded before (npm start's kinds of start come from different runs); answers the files recorded.
 */
export function record(folder: string): string[] {
	if (!existsSync(folder)) return [];
	mkdirSync(RESULTS, { recursive: true });
	// A run with a failed stage measured something else than the command: it is not recorded.
	const files = readdirSync(folder).filter(
		(name) => name.endsWith('.json') && readJson(path.join(folder, name)).passed !== false,
	);
	for (const name of files) {
		const target = path.join(RESULTS, name);
		const before = existsSync(target) ? readJson(target) : {};
		writeFileSync(target, `${JSON.stringify({ ...before, ...readJson(path.join(folder, name)) }, null, 2)}\n`);
	}
	return files;
}

function main(args: string[]) {
	const recordAt = args.indexOf('--record');
	if (recordAt !== -1) {
		const folder = path.resolve(args[recordAt + 1] ?? path.join(ROOT, '.cache', 'results'));
		console.log(`recorded from ${folder}: ${record(folder).join(', ') || 'nothing'}`);
	}
	for (const page of pages()) {
		const file = path.join(ROOT, page);
		const before = readFileSync(file, 'utf8');
		const after = withFigures(page, before);
		if (after !== before) {
			writeFileSync(file, after);
			console.log(`wrote ${page}`);
		}
	}
}

if (require.main === module) main(process.argv.slice(2));
