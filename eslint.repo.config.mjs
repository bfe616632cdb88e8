import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

import { cycles } from './eslint.repo.cycles.mjs';

/**
 * The whole repository's TypeScript (nodes, credentials, sandbox, tests, scripts, tools, bench):
 * typescript-eslint's recommended rules, and imports that resolve, never form a cycle (repo/no-cycle,
 * eslint.repo.cycles.mjs) and run only the ways the zones below allow (type-only imports and
 * re-exports included, in both). The package's n8n
 * rules are eslint.config.mjs (n8n-node lint) and eslint.scanner.config.mjs.
 */

const ROOT = import.meta.dirname;

/** Each zone: files under `target` may not import from `from` (but for `except`), for the reason given. */
const BOUNDARIES = [
	{
		// Relative paths out of the two folders, and installed packages (they resolve into node_modules/);
		// Node's built-in modules are the scanner pass's (eslint.scanner.config.mjs allows crypto only).
		target: ['./nodes', './credentials'],
		from: ['./*', './!(nodes|credentials)/**'],
		except: ['n8n-workflow', '@types/luxon', 'luxon'].map((name) => `${ROOT}/node_modules/${name}/**`),
		message:
			'The package is nodes/ and credentials/ alone, on n8n-workflow (and luxon) as n8n provides them: anything else would be missing in n8n, or copied into dist/ by the build.',
	},
	{
		target: './nodes/shared/transport',
		from: './credentials',
		except: ['./contract.ts'],
		message: 'The transport knows the credential only by its contract, credentials/contract.ts.',
	},
	{
		target: './nodes/shared',
		from: ['./nodes/!(shared)/**'],
		message: 'nodes/shared/ is what the nodes share (the transport, events, relations): it imports no node.',
	},
	{
		target: ['./nodes/AgencyCrmTrigger', './nodes/AgencyCrmAnswer'],
		from: ['./nodes/AgencyCrm/actions', './nodes/AgencyCrm/methods', './nodes/AgencyCrm/AgencyCrm.node.ts'],
		message:
			"The trigger reads the catalogue (its entries, its requests) as the action node does, never the action node's own code: what both need lives in the catalogue or nodes/shared/.",
	},
	{
		target: './nodes/AgencyCrm/catalogue',
		from: ['./nodes/AgencyCrm/actions', './nodes/AgencyCrm/methods', './nodes/AgencyCrmTrigger'],
		message: 'The catalogue is data that actions, methods and the trigger read; it never reads them.',
	},
	{
		target: './credentials',
		from: './nodes',
		message: 'n8n loads the credential on its own; nodes use it, it never uses them.',
	},
	{
		target: './sandbox',
		from: './nodes',
		message:
			"The sandbox simulates the API from the spec; built on the node's code it would agree with the node's bugs.",
	},
	{
		target: ['./bench', './scripts'],
		from: './test',
		except: ['./support'],
		message: 'bench/ and scripts/ reuse test code only from test/support/, never a test tier.',
	},
	{
		target: './tools',
		from: './test',
		message: 'tools/ starts n8n for the demo and the tests alike; it stands below the tests and never imports them.',
	},
	{
		target: './test/!(support)/**',
		from: './test',
		except: ['./support'],
		message: 'A test tier shares code only through test/support/, never with another tier.',
	},
	{
		target: './test/support',
		from: './test',
		except: ['./support'],
		message: 'test/support/ serves the test tiers and never imports them.',
	},
];

export default tseslint.config(
	{
		// reports/ and .stryker-tmp/: mutation testing's reports and sandboxes (docs/testing.md).
		ignores: [
			'dist/**',
			'build/**',
			'node_modules/**',
			'.cache/**',
			'reports/**',
			'.stryker-tmp/**',
			'**/*.js',
			'**/*.mjs',
		],
	},
	{ linterOptions: { noInlineConfig: true } },
	...tseslint.configs.recommended,
	importX.flatConfigs.recommended,
	importX.flatConfigs.typescript,
	{
		plugins: { repo: cycles },
		settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.tools.json' })] },
		rules: {
			'repo/no-cycle': 'error',
			'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: BOUNDARIES }],
			'import-x/no-unresolved': 'error',
			// Leaving keys out of a record by rest destructuring names them without using them.
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
		},
	},
	{
		// Issue 34: a contributor can hold any shipped file and function in their head.
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: { 'max-lines': ['error', 300], 'max-lines-per-function': ['error', 60] },
	},
	{
		// The sandbox tests read the API's JSON answers by path (`body.data[0].customers_id`).
		files: ['test/support/sandbox/harness.ts', 'test/support/sandbox/receiver.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
