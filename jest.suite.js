/**
 * What every jest configuration of the repository shares: the `*.test.ts` files under `root`,
 * compiled by ts-jest with tsconfig.tools.json, in Node. `options` adds the suite's own settings.
 */
module.exports = (root, options = {}) => ({
	testEnvironment: 'node',
	roots: [`<rootDir>/${root}`],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.tools.json' }] },
	...options,
});
