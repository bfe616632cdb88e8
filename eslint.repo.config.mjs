import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The whole repository's TypeScript (nodes, credentials, sandbox, tests, scripts, tools, bench):
 * typescript-eslint's recommended rules, and imports that resolve and never form a cycle. The
 * package's n8n rules are eslint.config.mjs (n8n-node lint) and eslint.scanner.config.mjs.
 */
export default tseslint.config(
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', '.cache/**', '**/*.js', '**/*.mjs'] },
	{ linterOptions: { noInlineConfig: true } },
	...tseslint.configs.recommended,
	importX.flatConfigs.recommended,
	importX.flatConfigs.typescript,
	{
		settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.tools.json' })] },
		rules: {
			'import-x/no-cycle': 'error',
			'import-x/no-unresolved': 'error',
			// Leaving keys out of a record by rest destructuring names them without using them.
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
		},
	},
	{
		// The sandbox tests read the API's JSON answers by path (`body.data[0].customers_id`).
		files: ['test/sandbox/harness.ts', 'test/sandbox/receiver.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
