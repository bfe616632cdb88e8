/**
 * Not the package: `n8n-node lint` (n8n's config, eslint.config.mjs at the root) lints only the nodes
 * and the credential, and this folder is linted by eslint.repo.config.mjs (`npm run lint`). n8n-node's
 * ESLint 9 reads this file with the flag `unstable_config_lookup_from_file` (ESLint 10's default).
 */
export default [{ ignores: ['**'] }];
