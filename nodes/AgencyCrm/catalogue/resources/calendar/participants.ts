import { participants } from '../../convert';
import type { FieldSpec } from '../../types';

/**
 * Who takes part in an event, as spec section 4 "Calendar" lists them ("the service"; `users` on the
 * wire, a guess of the key): each a user once, exactly one organizer and one creator (checks.ts).
 */
export function participantsField(placement: FieldSpec['placement']): FieldSpec {
	return {
		in: 'body',
		placement,
		key: 'users',
		convert: participants,
		convertsExtraBody: true,
		property: {
			displayName: 'Participants',
			name: 'participants',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Participant',
			description:
				'Users taking part: each once, exactly one organizer and exactly one creator. Sent as users (a guess of the key); none is sent when empty. Under another key: leave this empty and give the list in Extra Body Fields.',
			options: [
				{
					displayName: 'Participant',
					name: 'participant',
					values: [
						{
							displayName: 'Is Creator',
							name: 'isCreator',
							type: 'boolean',
							default: false,
							description: 'Whether this user created the event',
						},
						{
							displayName: 'Is Organizer',
							name: 'isOrganizer',
							type: 'boolean',
							default: false,
							description: 'Whether this user organizes the event',
						},
						{
							displayName: 'User ID',
							name: 'userId',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1001',
						},
					],
				},
			],
		},
	};
}
