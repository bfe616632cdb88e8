import { config as n8nNodeLint } from '@n8n/node-cli/eslint';

/**
 * What `n8n-node lint` (@n8n/node-cli) checks: it runs `eslint .` with this file. The body is n8n's
 * own config (the one its strict mode requires verbatim), kept to the package's sources: the
 * template alone would lint the sandbox, tests and scripts as if they were node code. The
 * scanner's rule set is eslint.scanner.config.mjs; `npm run lint` runs both, then eslint.repo.config.mjs
 * (README, "Linting").
 */
export default [
	{ ignores: ['**/*', '!package.json', '!nodes/', '!nodes/**', '!credentials/', '!credentials/**'] },
	{ linterOptions: { noInlineConfig: true } },
	...n8nNodeLint,
];
