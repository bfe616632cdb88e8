/** Unit and in-process tests (real n8n runs separately: scripts/test-real-n8n.sh, scripts/test-queue-mode.sh). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/real-n8n/', '/test/queue-mode/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.tools.json' }] },
	testTimeout: 30000,
};
