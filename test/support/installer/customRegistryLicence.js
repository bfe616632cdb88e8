// Preloaded (NODE_OPTIONS=--require) into the n8n of the installer tests. n8n installs community
// packages from a registry other than npmjs.org only when its licence has the feature
// feat:communityNodes:customRegistry; the tests' registry is one. This makes the licence answer
// that one question as the file named by AGENCY_CRM_CUSTOM_REGISTRY_LICENSED says: no until the file
// exists, yes after (test/support/installer/communityNodes.ts). The installer's code and its npm
// commands stay n8n's own. Unlike n8n's E2E mode, it changes nothing else (n8n 1.x's E2E mode turns
// the public API off), and it holds at start too, where packages named in N8N_COMMUNITY_PACKAGES are
// installed before any route exists. Other Node processes that inherit it (npm, the task runner)
// load no such class and are untouched.
const { existsSync } = require('node:fs');
const Module = require('node:module');

const flag = process.env.AGENCY_CRM_CUSTOM_REGISTRY_LICENSED;
if (flag) {
	const load = Module._load;
	Module._load = function loadWithLicenceAnswer(...args) {
		const exported = load.apply(this, args);
		const License = exported && exported.License;
		if (License && License.prototype && typeof License.prototype.isCustomNpmRegistryEnabled === 'function') {
			License.prototype.isCustomNpmRegistryEnabled = () => existsSync(flag);
		}
		return exported;
	};
}
