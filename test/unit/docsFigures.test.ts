import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { FIGURE_LINK, FIGURES, ROOT, figuresOf, hrefOf, pages, valueOf } from '../../scripts/docs-figures';

/**
 * Issue 29, point 1: every figure of the README and docs/ comes from a results file a command wrote,
 * as a link to it titled with the figure's name (scripts/docs-figures.ts), and says what that file
 * says. The README, where figures typed by hand had gone stale, holds no measurement that is not
 * such a link.
 */

const read = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');
const uses = pages().flatMap((page) => figuresOf(page, read(page)));

test('the pages give figures, and each one names a figure the script knows', () => {
	expect(uses.length).toBeGreaterThanOrEqual(20);
	expect(uses.filter((use) => !FIGURES[use.name]).map((use) => `${use.page}: "${use.name}"`)).toEqual([]);
});

test('each figure links to its results file, which the repository holds', () => {
	for (const use of uses) {
		expect({ ...use, href: hrefOf(use.page, use.name) }).toEqual(use);
		expect(existsSync(path.join(path.dirname(path.join(ROOT, use.page)), use.href))).toBe(true);
	}
});

test('each figure says what its results file says (`npm run docs:figures` writes them)', () => {
	const stale = uses
		.filter((use) => use.text !== valueOf(use.name))
		.map((use) => `${use.page}: "${use.name}" says ${use.text}, ${use.href} says ${valueOf(use.name)}`);
	expect(stale).toEqual([]);
});

test('a figure read from its results file is written as people read it', () => {
	const bench = JSON.parse(read('bench/results.json'));
	const creates = bench.creates['this node, Concurrency 10 (default)'].median_ms;
	// The bench's own report gives the same run's median, in milliseconds.
	expect(read('bench/RESULTS.md')).toContain(`| this node, Concurrency 10 (default) | ${creates} ms |`);
	expect(valueOf('creates: Concurrency 10')).toBe(`${(creates / 1000).toFixed(1)} s`);
	expect(valueOf('n8n 2.x tested')).toMatch(/^2\.\d+\.\d+$/);
});

test('the README gives no measurement typed by hand: each duration or size is a figure linked to its source', () => {
	const readme = read('README.md').replace(FIGURE_LINK, '(figure)');
	const typed = readme.match(/\b\d[\d,.]*\s?(ms|s|min|minutes|seconds|hours|KB|MB|GB)\b/g) ?? [];
	expect(typed).toEqual([]);
});
