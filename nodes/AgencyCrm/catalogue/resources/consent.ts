import { customerField } from '../fields';
import { MAX_UPLOAD_BYTES, maxBytes } from '../rules';
import type { Endpoint } from '../types';
import { toUtcDateTime } from '../wire';

export const consentEndpoints: Endpoint[] = [
	{
		resource: 'consent',
		operation: {
			name: 'Set',
			value: 'set',
			action: 'Set the consent of a customer',
			description:
				'Record, or update, the cold-calling consent of a contact with its reason and an optional proof file. If the proof cannot be stored, nothing is recorded (error 502).',
		},
		method: 'POST',
		path: '/customers/{customerId}/consent',
		packs: ['Customers'],
		upload: 'base64Json',
		noRetryStatuses: [502],
		fields: [
			customerField('path'),
			{
				in: 'body',
				property: {
					displayName: 'Reason',
					name: 'reason',
					type: 'string',
					default: '',
					required: true,
					description: 'How and why the consent was collected, e.g. "Signed form at the agency"',
				},
			},
			{
				in: 'body',
				wire: toUtcDateTime,
				property: {
					displayName: 'Collected At',
					name: 'collectedAt',
					type: 'dateTime',
					default: '',
					description: 'When the consent was given; now when left out',
				},
			},
			{
				in: 'file',
				key: 'proof_file',
				// Sent base64-encoded in JSON (a third larger): the same 20 MB bound as other uploads.
				rules: [maxBytes(MAX_UPLOAD_BYTES)],
				property: {
					displayName: 'Proof Input Binary Field',
					name: 'proofBinaryPropertyName',
					type: 'string',
					default: 'data',
					description: 'Name of the input binary field holding the proof of consent, e.g. a signed form',
				},
			},
		],
	},
	{
		resource: 'consent',
		operation: {
			name: 'Revoke',
			value: 'revoke',
			action: 'Revoke the consent of a customer',
			description: 'Set the revocation date of the contact’s cold-calling consent; succeeds even when there is none',
		},
		method: 'DELETE',
		path: '/customers/{customerId}/consent',
		packs: ['Customers'],
		fields: [customerField('path')],
	},
];
