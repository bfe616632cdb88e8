/** n8n's Community Nodes installer from a registry (see scripts/test-installer.sh, which builds and packs first). */
module.exports = require('./jest.suite')('test/installer', {
	globalSetup: '<rootDir>/test/support/installer/globalSetup.ts',
	globalTeardown: '<rootDir>/test/support/real-n8n/globalTeardown.ts',
	maxWorkers: 1,
	testTimeout: 240000,
});
