// `node scripts/scan-tarball.mjs <package.tgz>`: the tarball leg of n8n's community package scanner
// (@n8n/scan-community-package): the published package's JavaScript and package.json, linted with
// the scanner's rules (eslint.scanner.config.mjs) and no inline disables. Prints what it linted and
// any problem; exits 1 when there is one. test/unit/packedTarball.test.ts runs it on a fresh pack.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ESLint } from 'eslint';

import { scanRules } from '../eslint.scanner.config.mjs';

const tarball = process.argv[2];
if (!tarball) {
	console.error('usage: node scripts/scan-tarball.mjs <package.tgz>');
	process.exit(2);
}
const folder = mkdtempSync(path.join(tmpdir(), 'agency-crm-scan-'));
try {
	execFileSync('tar', ['-xzf', path.resolve(tarball), '-C', folder, '--strip-components=1']);
	const eslint = new ESLint({
		cwd: folder,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: scanRules,
	});
	const results = await eslint.lintFiles(['**/*.js', 'package.json']);
	const problems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
	console.log(
		`scanner, tarball leg: ${results.length} files of ${path.basename(tarball)} linted, ${problems} problems`,
	);
	if (problems > 0) {
		console.log(await (await eslint.loadFormatter('stylish')).format(results));
		process.exitCode = 1;
	}
} finally {
	rmSync(folder, { recursive: true, force: true });
}
