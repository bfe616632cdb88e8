// Preloaded (NODE_OPTIONS=--require) into the one n8n of the installer tests that installs its
// packages from the environment (N8N_COMMUNITY_PACKAGES, n8n 2.x). n8n installs them at boot, before
// any route exists, and first asks its licence whether a registry other than npmjs.org is allowed
// (feat:communityNodes:customRegistry). This answers yes for that one question, as n8n's own E2E
// route does for the page's installs; the installer's code and its npm commands stay n8n's own.
// Other Node processes that inherit it (npm, the task runner) have no such class and are untouched.
const Module = require('node:module');

const load = Module._load;
Module._load = function loadWithCustomRegistryLicensed(...args) {
	const exported = load.apply(this, args);
	const License = exported && exported.License;
	if (License && License.prototype && typeof License.prototype.isCustomNpmRegistryEnabled === 'function') {
		License.prototype.isCustomNpmRegistryEnabled = () => true;
	}
	return exported;
};
