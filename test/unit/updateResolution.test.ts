import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { RELEASED } from '../support/installer/packages';

/**
 * n8n updates a community package inside the running process: it clears the package's modules from
 * require's cache and loads the new files, but Node's cache of resolved paths outlives them. An
 * import that 0.1.0 resolved to one file and this tree resolves to another (a file that became a
 * folder) still resolves to 0.1.0's path, and the update fails with ENOENT (measured on n8n 2.41,
 * test/installer). Every relative import that 0.1.0's package also made, from the same folder,
 * must therefore resolve to the same module here.
 */
const ROOT = path.join(__dirname, '../..');

function filesUnder(dir: string, extension: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) return filesUnder(file, extension);
		return file.endsWith(extension) ? [file] : [];
	});
}

/** The module a relative import resolves to, as Node resolves it (file, then folder index), without extension. */
function resolved(fromDir: string, request: string, extension: string): string | undefined {
	const base = path.resolve(fromDir, request);
	const candidates = [`${base}${extension}`, path.join(base, `index${extension}`)];
	const found = candidates.find((candidate) => existsSync(candidate));
	return found?.slice(0, -extension.length);
}

/** Every relative import: "folder|request" → the module it resolves to, relative to `root`. */
function imports(root: string, files: string[], pattern: RegExp, extension: string): Map<string, string | undefined> {
	const found = new Map<string, string | undefined>();
	for (const file of files) {
		for (const [, request] of readFileSync(file, 'utf8').matchAll(pattern)) {
			const target = resolved(path.dirname(file), request, extension);
			found.set(`${path.relative(root, path.dirname(file))}|${request}`, target && path.relative(root, target));
		}
	}
	return found;
}

test("every import 0.1.0's package made resolves to the same module in this tree", () => {
	const unpacked = mkdtempSync(path.join(tmpdir(), 'agency-crm-0.1.0-'));
	try {
		execFileSync('tar', ['-xzf', RELEASED.tarball, '-C', unpacked, '--strip-components=1']);
		const dist = path.join(unpacked, 'dist');
		const released = imports(dist, filesUnder(dist, '.js'), /require\("(\.[^"]+)"\)/g, '.js');
		const sources = ['nodes', 'credentials'].flatMap((dir) => filesUnder(path.join(ROOT, dir), '.ts'));
		const current = imports(ROOT, sources, /from '(\.[^']+)'/g, '.ts');
		expect(released.size).toBeGreaterThan(50);
		const moved = [...current]
			.filter(([key]) => released.has(key))
			.filter(([key, target]) => released.get(key) !== target)
			.map(([key, target]) => `${key}: 0.1.0 ${released.get(key)}, now ${target}`);
		expect(moved).toEqual([]);
	} finally {
		rmSync(unpacked, { recursive: true, force: true });
	}
});
