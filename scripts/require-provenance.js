// `prepublishOnly`: refuses `npm publish` anywhere but the Publish workflow. n8n verifies (and n8n
// Cloud installs) only packages published from a GitHub Action with an npm provenance statement,
// and one version published without it cannot be republished with it.
// One exception, on purpose: a registry on this machine's loopback interface (the installer tests
// publish to a Verdaccio on 127.0.0.1, the way a user's n8n installs from a registry). Nothing
// published there reaches anyone else, so there is no provenance to lose.
const { env } = process;

/** Whether npm publishes to a registry on loopback: 127.0.0.0/8, ::1 or localhost, nothing else. */
function isLoopbackRegistry(registry) {
	let hostname;
	try {
		({ hostname } = new URL(registry));
	} catch {
		return false;
	}
	return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

// npm gives lifecycle scripts the registry it publishes to (--registry, .npmrc or the default).
const registry = env.npm_config_registry ?? '';
if (isLoopbackRegistry(registry)) {
	console.error(`Publishing to ${registry}, a registry on this machine: no provenance needed.`);
	process.exit(0);
}

const missing = [
	env.GITHUB_ACTIONS !== 'true' && 'not running in GitHub Actions (GITHUB_ACTIONS is not "true")',
	!env.ACTIONS_ID_TOKEN_REQUEST_URL && 'no OIDC token for provenance (the job needs `permissions: id-token: write`)',
	env.npm_config_provenance !== 'true' && 'provenance not requested (publish with `npm publish --provenance`)',
].filter(Boolean);

if (missing.length > 0) {
	console.error(
		[
			`Refusing to publish n8n-nodes-agency-crm without npm provenance (registry: ${registry || "npm's default"}):`,
			...missing.map((reason) => `  - ${reason}`),
			'Releases are published by .github/workflows/publish.yml: set the version in package.json,',
			'add it to CHANGELOG.md, then push the tag v<version> (README, "Releasing").',
			'Only a registry on loopback (127.0.0.1, ::1, localhost) takes a publish from anywhere.',
		].join('\n'),
	);
	process.exit(1);
}
