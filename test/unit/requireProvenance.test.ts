import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The `prepublishOnly` guard, run as npm runs it: a separate node process with npm's environment. */
const guard = path.join(__dirname, '../../scripts/require-provenance.js');

const inPublishWorkflow = {
	GITHUB_ACTIONS: 'true',
	ACTIONS_ID_TOKEN_REQUEST_URL: 'https://pipelines.actions.githubusercontent.com/token',
	npm_config_provenance: 'true',
};

// Only what each case sets: the suite itself may run inside GitHub Actions.
function runGuard(env: Record<string, string>) {
	const run = spawnSync(process.execPath, [guard], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
	return { status: run.status, stderr: run.stderr };
}

describe('prepublishOnly provenance guard', () => {
	it('lets the Publish workflow publish: GitHub Actions, an OIDC token, provenance requested', () => {
		expect(runGuard(inPublishWorkflow)).toEqual({ status: 0, stderr: '' });
	});

	it('refuses a publish by hand and says where releases come from', () => {
		const { status, stderr } = runGuard({});
		expect(status).toBe(1);
		expect(stderr).toContain('Refusing to publish n8n-nodes-agency-crm without npm provenance');
		expect(stderr).toContain('not running in GitHub Actions');
		expect(stderr).toContain('.github/workflows/publish.yml');
	});

	it('refuses a workflow job without `id-token: write`', () => {
		const { status, stderr } = runGuard({ ...inPublishWorkflow, ACTIONS_ID_TOKEN_REQUEST_URL: '' });
		expect(status).toBe(1);
		expect(stderr).toContain('the job needs `permissions: id-token: write`');
		expect(stderr).not.toContain('not running in GitHub Actions');
	});

	it('refuses `npm publish` without --provenance, even inside the workflow', () => {
		const { GITHUB_ACTIONS, ACTIONS_ID_TOKEN_REQUEST_URL } = inPublishWorkflow;
		const { status, stderr } = runGuard({ GITHUB_ACTIONS, ACTIONS_ID_TOKEN_REQUEST_URL });
		expect(status).toBe(1);
		expect(stderr).toContain('publish with `npm publish --provenance`');
		expect(stderr).not.toContain('no OIDC token');
	});

	it('refuses a GITHUB_ACTIONS value other than "true"', () => {
		const { status, stderr } = runGuard({ ...inPublishWorkflow, GITHUB_ACTIONS: 'false' });
		expect(status).toBe(1);
		expect(stderr).toContain('GITHUB_ACTIONS is not "true"');
	});

	it.each([
		'https://registry.npmjs.org/',
		'https://npm.pkg.github.com/',
		'http://127.0.0.1.example.com/',
		'http://localhost.example.com:4873/',
		'http://10.0.0.5:4873/',
		'not a url',
	])('refuses the registry %s: not on loopback, whatever its name says', (registry) => {
		expect(runGuard({ npm_config_registry: registry })).toEqual({
			status: 1,
			stderr: expect.stringContaining('not running in GitHub Actions'),
		});
	});

	it.each(['http://127.0.0.1:4873/', 'http://127.1.2.3:80', 'http://localhost:4873/', 'http://[::1]:4873/'])(
		"lets a publish to %s through (a registry on loopback, as the installer tests' Verdaccio), saying why",
		(registry) => {
			expect(runGuard({ npm_config_registry: registry })).toEqual({
				status: 0,
				stderr: expect.stringContaining('a registry on this machine: no provenance needed'),
			});
		},
	);
});
