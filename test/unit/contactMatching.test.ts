import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { policyOf } from '../../nodes/AgencyCrm/catalogue/resources/contact/matching';
import { InputError } from '../../nodes/AgencyCrm/catalogue/rules';
import { byId } from '../../tools/n8n/workflows';
import { fakeContext } from '../support/fakeN8n';

/**
 * catalogue/resources/contact/matching.ts: the contact policy as the editor offers it (its settings'
 * names and values are saved in users' workflows, so a renamed one breaks them), the policy an item
 * gets from what it chose, and the production rules a contact's create is checked against before any
 * request. The decision that uses the policy: test/unit/contactDecision.test.ts.
 */

const properties = new AgencyCrm().description.properties;

/** The settings under Options of Contact → Create or Update (version 2), by name. */
function upsertOptions(): Record<string, INodeProperties> {
	const options = properties.find(
		(property) =>
			property.name === 'options' &&
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes('upsert') &&
			(property.displayOptions?.show?.resource as string[] | undefined)?.includes('customer') &&
			(property.displayOptions?.show?.['@version'] as number[] | undefined)?.includes(2),
	);
	return Object.fromEntries(((options?.options ?? []) as INodeProperties[]).map((option) => [option.name, option]));
}

/** A setting as the editor lists it: its label, type, default and choices (label, saved value). */
const shown = ({ displayName, type, default: byDefault, options }: INodeProperties) => ({
	displayName,
	type,
	default: byDefault,
	choices: (options as Array<{ name: string; value: string }>).map(({ name, value }) => [name, value]),
});

test("Create or Update's policy under Options: labels, saved values and defaults", () => {
	const options = upsertOptions();
	expect(
		Object.fromEntries(
			['matchBy', 'whenPhoneMatchDiffers', 'firstNameTypo', 'withoutEmail'].map((name) => [name, shown(options[name])]),
		),
	).toEqual({
		matchBy: {
			displayName: 'Match By',
			type: 'options',
			default: 'emailElsePhones',
			choices: [
				['Email, Else Phones', 'emailElsePhones'],
				['Email, Then Phones', 'emailThenPhones'],
			],
		},
		whenPhoneMatchDiffers: {
			displayName: 'Phone Match Differs',
			type: 'options',
			default: 'create',
			choices: [
				['Create a New Contact', 'create'],
				['Fail the Item', 'fail'],
				['Update It, Keeping Its Name and Email', 'update'],
			],
		},
		firstNameTypo: {
			displayName: 'First Name One Typo Away',
			type: 'options',
			default: 'samePerson',
			choices: [
				['Same Person', 'samePerson'],
				['Someone Else', 'someoneElse'],
			],
		},
		withoutEmail: {
			displayName: 'New Contact Without Email',
			type: 'options',
			default: 'placeholder',
			choices: [
				['Create With a Placeholder Email', 'placeholder'],
				['Fail the Item', 'fail'],
			],
		},
	});
});

// What each setting and choice tells a user: the fact it must state, in the editor's words.
test.each([
	['matchBy', undefined, 'last 9 digits, so +33 6 12 34 56 78 and 06 12 34 56 78 are one number'],
	['matchBy', 'emailElsePhones', 'case and spaces ignored'],
	['matchBy', 'emailThenPhones', 'whose name confirms it'],
	['whenPhoneMatchDiffers', undefined, 'another email or another first name'],
	['whenPhoneMatchDiffers', 'create', 'A shared phone (a couple, a switchboard)'],
	['whenPhoneMatchDiffers', 'fail', 'which contact has the phone and what differs'],
	['whenPhoneMatchDiffers', 'update', 'it keeps its names and email'],
	['firstNameTypo', undefined, 'Jean / Jeanne, Denis / Denise, Julien / Julie, Mario / Maria stay two people'],
	['firstNameTypo', 'samePerson', 'Christoph and Christophe Martin'],
	['firstNameTypo', 'someoneElse', 'Any other first name is another person'],
	['withoutEmail', undefined, 'Agency CRM creates no contact without an email'],
	['withoutEmail', 'placeholder', 'e.g. 0612345678.jean-dupont@no-email.invalid'],
	['withoutEmail', 'fail', 'the item needs an Email'],
])('%s %s says: "%s"', (setting, choice, words) => {
	const property = upsertOptions()[setting];
	const described = choice
		? (property.options as Array<{ value: string; description: string }>).find(({ value }) => value === choice)
		: property;
	expect(described?.description).toContain(words);
});

test("the operation's notice states the policy, the typo rule included", () => {
	const notice = properties.find(
		(property) =>
			property.type === 'notice' &&
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes('upsert') &&
			(property.displayOptions?.show?.resource as string[] | undefined)?.includes('customer'),
	);
	expect(notice?.displayName).toContain('by its phones only when the item has none');
	expect(notice?.displayName).toContain('one typo in a name of 5 letters or more (Christoph, Christophe)');
});

test.each([
	[
		{},
		{
			matchBy: 'emailElsePhones',
			whenPhoneMatchDiffers: 'create',
			withoutEmail: 'placeholder',
			firstNameTypo: 'samePerson',
		},
	],
	[
		{ matchBy: 'emailThenPhones', whenPhoneMatchDiffers: 'update', withoutEmail: 'fail', firstNameTypo: 'someoneElse' },
		{ matchBy: 'emailThenPhones', whenPhoneMatchDiffers: 'update', withoutEmail: 'fail', firstNameTypo: 'someoneElse' },
	],
	[
		{ whenPhoneMatchDiffers: 'fail' },
		{
			matchBy: 'emailElsePhones',
			whenPhoneMatchDiffers: 'fail',
			withoutEmail: 'placeholder',
			firstNameTypo: 'samePerson',
		},
	],
])('the policy of an item that chose %j', (chosen, policy) => {
	expect(policyOf(chosen)).toEqual(policy);
});

/** What the node refuses before any request: each problem's field and rule. */
async function refused(operation: string, parameters: IDataObject) {
	const fake = fakeContext({ parameters });
	const error = await prepareRequest(fake.execute, findEndpoint('customer', operation)!, 0).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(InputError);
	expect(fake.requests()).toEqual([]);
	return (error as InputError).problems.map(({ field, message }) => ({ field, message }));
}

test('Contact → Create without an email is refused, pointing a phone-only lead to Create or Update', async () => {
	expect(
		await refused('create', {
			agencyId: byId('101'),
			lastname: 'Durand',
			additionalFields: { mobilePhone: '0612345678' },
		}),
	).toEqual([
		{
			field: '"Email"',
			message:
				'is required: Agency CRM creates no contact without an email. For a lead known by its phone only, use Contact → Create or Update, which finds it by phone or creates it with a placeholder email',
		},
	]);
});

test('Contact → Create or Update with neither an email nor a phone is refused: nothing to find the contact by', async () => {
	expect(await refused('upsert', { lastname: 'Durand', additionalFields: {}, options: {} })).toEqual([
		{ field: '"Email", "Phone" or "Mobile Phone"', message: 'is required to find the contact' },
	]);
});
