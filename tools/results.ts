import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';

import { ROOT } from './n8n/launcher';

/**
 * What commands measure about themselves (`npm start`, `npm run check`, `npm test`, the demo's
 * test), recorded in the git-ignored .cache/results/<name>.json at each run. The figures the README
 * and docs/ give come from the copies in docs/results/ (`npm run docs:figures -- --record` makes
 * them), and a test fails when a figure and its source differ (scripts/docs-figures.ts).
 */

export const RESULTS_DIR = path.join(ROOT, '.cache', 'results');

/** The machine a figure was measured on. */
export interface Machine {
	cores: number;
	platform: string;
	arch: string;
	node: string;
}

/** One measurement: when, on what, and its figures. */
export interface Measured {
	date: string;
	machine: Machine;
}

export function measuredNow(): Measured {
	return {
		date: new Date().toISOString(),
		machine: { cores: cpus().length, platform: process.platform, arch: process.arch, node: process.version },
	};
}

function read<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** Updates .cache/results/<name>.json with what `update` makes of its last content. */
export function recordResults<T>(name: string, update: (previous: T | undefined) => T): void {
	const file = path.join(RESULTS_DIR, `${name}.json`);
	mkdirSync(RESULTS_DIR, { recursive: true });
	writeFileSync(file, `${JSON.stringify(update(read<T>(file)), null, '\t')}\n`);
}
