import type { FieldSpec } from '../../types';

/**
 * A contact's GDPR conformity, as production takes it (docs/assumptions.md "Production evidence"): 1,
 * documented compliant, or 2, explicitly not. Production writes it but never returns it: no read can
 * confirm it, and no output carries it.
 */
export const conformityField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	writeOnly: true,
	property: {
		displayName: 'GDPR Conformity',
		name: 'conformity',
		type: 'options',
		options: [
			{ name: 'Documented Compliant', value: 1, description: 'The contact’s GDPR conformity is documented' },
			{ name: 'Explicitly Not Compliant', value: 2, description: 'The contact is known not to be compliant' },
		],
		default: 1,
		description:
			'Write-only: Agency CRM stores it but never returns it, so the output cannot show it and no read can confirm it',
	},
};
