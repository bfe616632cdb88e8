import { toUtcDateTime } from '../convert';
import { DATE_TIME_GUESS, customerField } from '../fields';
import { guess } from '../rules';
import type { Endpoint } from '../types';
import { encodingField, partNameField, uploadAsChosen } from '../uploads';

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
		// Spec section 4: "If the proof file cannot be stored the response is 502 and nothing is recorded."
		noRetryStatuses: [502],
		resend: {
			resend: true,
			reason:
				'Spec section 4: "Upsert of the single consent record": a second send updates the same record with the same values. Its 502 is never resent: "If the proof file cannot be stored the response is 502 and nothing is recorded".',
		},
		upload: 'base64Json',
		fields: [
			customerField('path'),
			{
				in: 'body',
				placement: 'top',
				// Spec section 3: "reason and optional proof file stored"; the key is our guess.
				required: guess('a consent carries its reason'),
				property: {
					displayName: 'Reason',
					name: 'reason',
					type: 'string',
					default: '',
					description: 'How and why the consent was collected, e.g. "Signed form at the agency"',
				},
			},
			{
				in: 'body',
				placement: 'collection',
				convert: toUtcDateTime,
				rules: [DATE_TIME_GUESS],
				property: {
					displayName: 'Collected At',
					name: 'collectedAt',
					type: 'dateTime',
					default: '',
					description: 'When the consent was given; now when left out',
				},
			},
			{
				// The spec gives the proof file no size limit and no type.
				in: 'file',
				placement: 'collection',
				key: 'proof_file',
				property: {
					displayName: 'Proof Input Binary Field',
					name: 'proofBinaryPropertyName',
					type: 'string',
					default: 'data',
					description: 'Name of the input binary field holding the proof of consent, e.g. a signed form',
				},
			},
			partNameField('Proof Sent As', 'proof_file'),
			encodingField,
		],
		derive: uploadAsChosen,
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
		resend: {
			resend: true,
			reason:
				'Spec section 4: "Sets the revocation date; 204 even if no consent exists": a second send answers 204 like the first.',
		},
		fields: [customerField('path')],
	},
];
