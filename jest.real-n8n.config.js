/** Tests that run workflows inside real n8n (see scripts/test-real-n8n.sh, which builds and packs first). */
module.exports = require('./jest.suite')('test/real-n8n', {
	globalSetup: '<rootDir>/test/support/real-n8n/globalSetup.ts',
	globalTeardown: '<rootDir>/test/support/real-n8n/globalTeardown.ts',
	maxWorkers: 1,
	testTimeout: 240000,
});
