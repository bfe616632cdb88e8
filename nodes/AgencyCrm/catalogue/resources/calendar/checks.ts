import type { IDataObject } from 'n8n-workflow';

import { USER_ID_RULE } from '../../fields';
import { check, isBoolean, isEmpty, spec } from '../../rules';
import type { Check, RuleSource } from '../../types';

/** The create-event rules across fields (spec section 4 "Calendar", create-event request fields). */
export const CREATE_EVENT = 'section 4 "Calendar", create-event request fields';

/** "ends_at: Same format; after starts_at". */
export const endsAfterStarts = check(spec(`${CREATE_EVENT}: "ends_at … after starts_at"`), ({ body }) => {
	const starts = Date.parse(String(body.starts_at));
	const ends = Date.parse(String(body.ends_at));
	if (Number.isNaN(starts) || Number.isNaN(ends) || ends > starts) return [];
	return [{ field: '"Ends At" (ends_at)', message: `must be after "Starts At" (${String(body.starts_at)})` }];
});

/**
 * The participants ("the service" in the spec, `users` on the wire): "user_id integer (required,
 * unique in list), is_creator boolean (required), is_organizer boolean (required). Exactly one
 * is_organizer true and exactly one is_creator true". The list itself may be null. The same rule
 * holds for the participants an update lists, on the authority given.
 */
export function participantRules(source: RuleSource): Check {
	return check(source, ({ body }) => {
		if (!Array.isArray(body.users)) return [];
		const field = '"Participants" (users)';
		const users = body.users as IDataObject[];
		const messages: string[] = [];
		const ids = users.map((user) => user.user_id);
		if (ids.some((userId) => isEmpty(userId) || USER_ID_RULE.test(userId))) {
			messages.push('needs a user ID (a whole number) on every row');
		}
		const repeated = [...new Set(ids.filter((userId, index) => ids.indexOf(userId) !== index))];
		if (repeated.length) messages.push(`lists user ${repeated.join(', ')} more than once`);
		for (const [key, role] of [
			['is_organizer', 'organizer'],
			['is_creator', 'creator'],
		]) {
			if (users.some((user) => isBoolean(user[key]))) messages.push(`needs "Is ${role}" true or false on every row`);
			const count = users.filter((user) => user[key] === true).length;
			if (count !== 1) messages.push(`must have exactly one ${role} (has ${count})`);
		}
		return messages.map((message) => ({ field, message }));
	});
}

/** The participant rule as the spec states it for a new event. */
export const PARTICIPANTS_OF_NEW_EVENT = spec(
	`${CREATE_EVENT}: participants "user_id integer (required, unique in list) … Exactly one is_organizer true and exactly one is_creator true"`,
);
