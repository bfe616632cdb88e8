import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

/**
 * The same rules as n8n's community package scanner (@n8n/scan-community-package): the recommended
 * set of @n8n/eslint-plugin-community-nodes plus the community, credentials and nodes sets of
 * eslint-plugin-n8n-nodes-base, with the scanner's own overrides. Inline disables are ignored.
 * The scanner lints two things: the sources (package.json, nodes/ and credentials/: `npm run lint`
 * gives them to this file) and the published tarball's JavaScript and package.json
 * (scripts/scan-tarball.mjs, with `scanRules`). Unlike `n8n-node lint` (eslint.config.mjs), it applies
 * the community rules to every file it is given, codex JSON included.
 */
export const scanRules = [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The scanner turns these two off: not valid for community nodes / superseded.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// The scanner turns these off: inputs/outputs use the NodeConnectionTypes enum; the API has maxima.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tsParser } },
];

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', '.cache/**', 'eslint*.config.mjs'] },
	{ linterOptions: { noInlineConfig: true } },
	...scanRules,
];
