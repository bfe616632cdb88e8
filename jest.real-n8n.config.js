/** Tests that run workflows inside real n8n (see scripts/test-real-n8n.sh, which builds and packs first). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/real-n8n'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.tools.json' }] },
	globalSetup: '<rootDir>/test/real-n8n/globalSetup.ts',
	globalTeardown: '<rootDir>/test/real-n8n/globalTeardown.ts',
	maxWorkers: 1,
	testTimeout: 240000,
};
