/** n8n in queue mode with Redis and PostgreSQL (see scripts/test-queue-mode.sh, which builds and packs first). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue-mode'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.tools.json' }] },
	maxWorkers: 1,
	testTimeout: 120000,
};
