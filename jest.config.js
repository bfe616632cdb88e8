/** Unit and in-process tests (real-n8n tests run separately through scripts/test-real-n8n.sh). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/real-n8n/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.tools.json' }] },
	testTimeout: 30000,
};
