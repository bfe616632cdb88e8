// `prepublishOnly`: refuses `npm publish` anywhere but the Publish workflow. n8n verifies (and n8n
// Cloud installs) only packages published from a GitHub Action with an npm provenance statement,
// and one version published without it cannot be republished with it.
const { env } = process;

const missing = [
	env.GITHUB_ACTIONS !== 'true' && 'not running in GitHub Actions (GITHUB_ACTIONS is not "true")',
	!env.ACTIONS_ID_TOKEN_REQUEST_URL && 'no OIDC token for provenance (the job needs `permissions: id-token: write`)',
	env.npm_config_provenance !== 'true' && 'provenance not requested (publish with `npm publish --provenance`)',
].filter(Boolean);

if (missing.length > 0) {
	console.error(
		[
			'Refusing to publish n8n-nodes-agency-crm without npm provenance:',
			...missing.map((reason) => `  - ${reason}`),
			'Releases are published by .github/workflows/publish.yml: set the version in package.json,',
			'add it to CHANGELOG.md, then push the tag v<version> (README, "Releasing").',
		].join('\n'),
	);
	process.exit(1);
}
