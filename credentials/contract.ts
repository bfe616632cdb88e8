/**
 * What the nodes rely on from the credential, in one small module the credential owns: the nodes
 * import this and nothing else from `credentials/`.
 */

/** The credential's type name (its class's `name`), which the nodes ask n8n to authenticate with. */
export const CREDENTIAL_TYPE = 'agencyCrmApi';

/**
 * The fields the token exchange fills (what preAuthentication returns): the bearer token and the
 * API domain it is valid for. The nodes' transport copies them from one request to the next, and
 * keeps them (never the client secret) for a short while across trigger deliveries.
 */
export const TOKEN_FIELDS = ['accessToken', 'domain'] as const;

/** Every API path is relative to `{domain}/api/v2/site` (spec notation). */
export const API_PATH = '/api/v2/site';

/**
 * The sentence every failed exchange's description ends with. n8n wraps the error in a
 * NodeApiError; n8n 1.x drops the wrapped error (`cause`) and keeps only its message and
 * description, so the nodes' transport recognises a failed exchange by this sentence. It names the
 * buttons of n8n's credential dialog, the same in 1.123 and 2.41 (read in their editors): Save, which
 * tests the credential, then Retry after a failed test; there is no Test button.
 */
export const TOKEN_EXCHANGE_ADVICE =
	'The Agency CRM credential could not obtain a token. Open the credential, correct it and press Save: n8n tests a credential as it saves it, and "Retry" tests it again.';

/** Whether an error n8n threw (wrapped or not) is a failed token exchange. */
export function isTokenExchangeFailure(error: { description?: unknown }): boolean {
	return typeof error.description === 'string' && error.description.endsWith(TOKEN_EXCHANGE_ADVICE);
}
