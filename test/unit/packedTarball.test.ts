import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { checkoutLikeCopy } from '../../tools/demo/session';
import { ROOT } from '../../tools/n8n/launcher';

/**
 * Issue 29, points 8 and 9: `npm pack` ships what n8n loads and nothing else, and the tarball leg of
 * n8n's community package scanner finds nothing in it. Packed as docs/installation.md says
 * (`npm run build`, then `npm pack`), in a copy of the repository as a fresh clone has it.
 */

let copy: string;
let packed: string;
let tarball: string;

beforeAll(() => {
	copy = checkoutLikeCopy(ROOT, []);
	packed = mkdtempSync(path.join(tmpdir(), 'agency-crm-packed-'));
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: copy, stdio: 'pipe' });
	execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: copy, stdio: 'pipe' });
	tarball = path.join(
		packed,
		readdirSync(packed).find((file) => file.endsWith('.tgz'))!,
	);
}, 120_000);

afterAll(() => {
	rmSync(copy, { recursive: true, force: true });
	rmSync(packed, { recursive: true, force: true });
});

/** Every file under `folder` of the copy, from the copy's root. */
function sourcesUnder(folder: string): string[] {
	return readdirSync(path.join(copy, folder), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(copy, path.join(entry.parentPath, entry.name)));
}

test('the tarball holds the compiled nodes and credential, their codex files and icons, package.json, README and LICENSE: nothing else', () => {
	const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter(Boolean)
		.map((entry) => entry.replace(/^package\//, ''));
	// What n8n loads, from the sources: each TypeScript file compiled, each codex file and icon copied.
	const shipped = [...sourcesUnder('nodes'), ...sourcesUnder('credentials'), ...sourcesUnder('icons')].flatMap(
		(source) => {
			if (source.endsWith('.ts')) return [`dist/${source.replace(/\.ts$/, '.js')}`];
			if (/\.(node\.json|svg|png)$/.test(source)) return [`dist/${source}`];
			return [];
		},
	);
	expect(listed.sort()).toEqual(['LICENSE', 'README.md', 'package.json', ...shipped].sort());
});

test("n8n's community package scanner, tarball leg (scripts/scan-tarball.mjs), finds no problem in it", () => {
	const report = execFileSync(process.execPath, [path.join(ROOT, 'scripts/scan-tarball.mjs'), tarball], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	expect(report).toMatch(/^scanner, tarball leg: \d+ files of n8n-nodes-agency-crm-[\d.]+\.tgz linted, 0 problems$/m);
});
