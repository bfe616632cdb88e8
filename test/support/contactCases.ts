import * as fc from 'fast-check';

import type { ContactPolicy } from '../../nodes/AgencyCrm/catalogue/resources/contact/matching';
import type { Fault, ModelConsent, ModelContact, ModelPhone } from './contactModel';
import { national } from './contactModel';

/**
 * Generated cases of use case 1 (issues 32 and 39): people, the contacts production already holds for
 * them (names spelled otherwise or with a typo, emails in another case, numbers in every form people
 * write them and in the `phones` list, shared phones, couples whose names differ by one letter,
 * nameless call records, placeholder emails, consents), a batch of leads from them (with or without an
 * email, one person twice), the policy, the Concurrency, and answers lost at any request.
 *
 * Near misses, so that a loose match shows: emails that contain one another (anne@ in joanne@) and
 * numbers one digit apart. Every spelling below is written for one person's name, so the test knows
 * whose it may be (contactOracle.ts) without asking the node.
 */

/**
 * First names and the one typo people make of each (names of 5 letters or more; a compound name is
 * left without, as its first word is already a short form). No spelling of one name is within one
 * typo of another name's but the pairs the docs keep apart: Denis / Denise (a feminine form), Jean
 * (Jean-Pierre's first word) / Jeanne and Jeane (short).
 */
export const FIRST_NAMES: Record<string, string | undefined> = {
	'Jean-Pierre': undefined,
	Jeanne: 'Jeane',
	Christophe: 'Christoph',
	Denis: 'Dennis',
	Denise: 'Deinse',
	Marie: 'Maire',
	Anne: undefined,
	Léa: undefined,
};
/** Couples whose first names the docs keep apart although they differ little. */
const PARTNERS: Record<string, string> = {
	Denis: 'Denise',
	Denise: 'Denis',
	'Jean-Pierre': 'Jeanne',
	Jeanne: 'Jean-Pierre',
};
const LAST_NAMES = ['Dupont', 'Martin', 'Petit'];
/** Each person's own email; some contain another's, as production's loose search then returns both. */
const EMAILS = [
	'anne@example.com',
	'joanne@example.com',
	'dupont@example.com',
	'marie.dupont@example.com',
	'lea@example.com',
];
/** Few numbers, so that people share them (couples, a switchboard); two are one digit apart. */
const NUMBERS = ['0611111111', '0611111112', '0622222222', '0478000000'];
const SWITCHBOARD = '0478000000';

export const PLACEHOLDER_DOMAIN = 'no-email.invalid';

export interface Person {
	firstname: string;
	lastname: string;
	email?: string;
	number: string;
}

/** A number as people write it: national, in pairs with spaces or dots, +33, +33 (0), 0033. */
export const typed = (number: string) => {
	const pairs = number.match(/\d\d/g)!.join(' ');
	const rest = number.slice(1);
	const international = `${rest[0]} ${rest.slice(1).match(/\d\d/g)!.join(' ')}`;
	return fc.constantFrom(
		number,
		pairs,
		pairs.replace(/ /g, '.'),
		`+33 ${international}`,
		`+33${rest}`,
		`+33 (0)${international}`,
		`0033 ${international}`,
		`0033${rest}`,
	);
};

/** An email as people type it: another case, stray spaces. */
const typedEmail = (email: string) =>
	fc.constantFrom(
		email,
		email.toUpperCase(),
		` ${email}`,
		email.replace(/^./, (c) => c.toUpperCase()),
	);

/** A first name as it is written elsewhere: the same, its first word (Jean for Jean-Pierre), an initial, in capitals, or its typo. */
const spelledFirst = (name: string) => {
	const typo = FIRST_NAMES[name];
	return fc.constantFrom(name, name.split('-')[0], `${name[0]}.`, name.toUpperCase(), ...(typo ? [typo] : []));
};
const spelledLast = (name: string) => fc.constantFrom(name, `${name[0]}.`, name.toUpperCase());

/** The address production's router would have made for a person without an email: `<national digits>.<name>@…`, as the docs say. */
export function placeholderOf(someone: Person): string {
	const words = `${someone.firstname} ${someone.lastname}`
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean);
	return `${national(someone.number)}.${words.join('-')}@${PLACEHOLDER_DOMAIN}`;
}

/** People: each with an email of their own or none; now and then the partner of the one before (same last name and phone). */
const people: fc.Arbitrary<Person[]> = fc.integer({ min: 1, max: 4 }).chain((count) =>
	fc
		.tuple(
			fc.shuffledSubarray(EMAILS, { minLength: count, maxLength: count }),
			fc.array(
				fc.record({
					// Couples' names twice as often: the names that differ by one letter must meet on one phone.
					firstname: fc.constantFrom(...Object.keys(FIRST_NAMES), ...Object.keys(PARTNERS)),
					lastname: fc.constantFrom(...LAST_NAMES),
					number: fc.constantFrom(...NUMBERS),
					// One person in five has no email.
					emailFreq: fc.integer({ min: 0, max: 4 }),
					partner: fc.boolean(),
				}),
				{ minLength: count, maxLength: count },
			),
		)
		.map(([emails, drafts]) =>
			drafts.reduce<Person[]>((all, draft, index) => {
				const before = all[index - 1];
				const partner = before && draft.partner;
				const firstname = partner ? (PARTNERS[before.firstname] ?? draft.firstname) : draft.firstname;
				const email = draft.emailFreq > 0 ? emails[index] : undefined;
				const { lastname, number } = partner ? before : draft;
				return [...all, { firstname, lastname, number, ...(email ? { email } : {}) }];
			}, []),
		),
);

export type Stored = Omit<ModelContact, 'id' | 'created_at'>;

/** A contact with nothing in it: what the cases fill. */
export const BLANK: Stored = {
	email: null,
	firstname: null,
	lastname: null,
	phone: null,
	mobile_phone: null,
	phones: [],
	type: null,
	origin: null,
	agency_id: 1,
	consent: null,
};

/** A contact production holds, and whose it is: a person's (their index), or nobody's (a call record). */
export interface Held {
	person?: number;
	contact: Stored;
}

/** A consent, read back as production answers it: one contact in three has one, one in four of those revoked. */
const consent: fc.Arbitrary<ModelConsent | null> = fc.oneof(
	{ arbitrary: fc.constant(null), weight: 2 },
	{
		arbitrary: fc.record({
			reason: fc.constant('Phone call of 2026-10-01'),
			consentDate: fc.constantFrom('2026-10-01T10:00:00+00:00', '2026-10-01 12:00:00'),
			acceptOutsideHours: fc.boolean(),
			proofs: fc.constant<Array<{ name: string }>>([]),
			revokedAt: fc.option(fc.constant('2026-10-20T08:00:00+00:00'), { nil: null, freq: 4 }),
		}),
		weight: 1,
	},
);

/** Where a contact holds its number: its phone, its mobile, its `phones` list, or not at all. */
function numberHeld(number: string) {
	const none = { phone: null, mobile_phone: null, phones: [] as ModelPhone[] };
	return fc.oneof(
		typed(number).map((written) => ({ ...none, phone: written })),
		typed(number).map((written) => ({ ...none, mobile_phone: written })),
		typed(number).map((written) => ({ ...none, phones: [{ type: 'mobile', number: written }] })),
		fc.constant(none),
	);
}

/** A contact production holds for a person, or a nameless call record holding a number. */
function stored(everyone: Person[]): fc.Arbitrary<Held> {
	const ofPerson = fc.integer({ min: 0, max: everyone.length - 1 }).chain((index) => {
		const someone = everyone[index];
		const email = fc.oneof(
			{ arbitrary: someone.email ? typedEmail(someone.email) : fc.constant(null), weight: 4 },
			{ arbitrary: fc.constant(null), weight: 1 },
			{ arbitrary: fc.constant(placeholderOf(someone)), weight: 1 },
		);
		const contact = fc
			.record({
				email,
				firstname: fc.option(spelledFirst(someone.firstname), { nil: null, freq: 4 }),
				lastname: fc.option(spelledLast(someone.lastname), { nil: null, freq: 6 }),
				numbers: numberHeld(someone.number),
				type: fc.constantFrom('buyer', 'seller', null),
				consent,
			})
			.map(({ numbers, ...fields }): Stored => ({ ...BLANK, ...fields, ...numbers }));
		return fc.record({ person: fc.constant(index), contact });
	});
	const callRecord = fc
		.constantFrom(...NUMBERS)
		.chain(numberHeld)
		.map((numbers): Held => ({ contact: { ...BLANK, ...numbers } }));
	return fc.oneof({ arbitrary: ofPerson, weight: 5 }, { arbitrary: callRecord, weight: 1 });
}

/** What a lead gives: the fields of Create or Update, under their API keys. */
export interface Lead {
	person: number;
	email?: string;
	firstname?: string;
	lastname?: string;
	phone?: string;
	mobile_phone?: string;
	/** Other Phones. */
	phones?: ModelPhone[];
	type: string;
	origin?: number;
}

function lead(everyone: Person[]): fc.Arbitrary<Lead> {
	return fc.integer({ min: 0, max: everyone.length - 1 }).chain((index) => {
		const someone = everyone[index];
		const email = someone.email
			? fc.option(typedEmail(someone.email), { nil: undefined, freq: 3 })
			: fc.constant(undefined);
		// The number as Phone or as Mobile Phone; now and then a number the API refuses in the other.
		const numbers = fc
			.tuple(
				fc.option(typed(someone.number), { nil: undefined, freq: 3 }),
				fc.boolean(),
				fc.integer({ min: 0, max: 11 }),
			)
			.map(([number, asMobile, refused]) => {
				const other = refused === 0 ? '12' : undefined;
				return asMobile ? { mobile_phone: number, phone: other } : { phone: number, mobile_phone: other };
			});
		return fc
			.record({
				person: fc.constant(index),
				email,
				firstname: fc.option(spelledFirst(someone.firstname), { nil: undefined, freq: 4 }),
				lastname: fc.option(spelledLast(someone.lastname), { nil: undefined, freq: 6 }),
				numbers,
				// One lead in eight gives Other Phones: the office's number.
				phones: fc.oneof(
					{ arbitrary: fc.constant(undefined), weight: 7 },
					{ arbitrary: typed(SWITCHBOARD).map((number) => [{ type: 'work', number }]), weight: 1 },
				),
				type: fc.constantFrom('buyer', 'seller', 'tenant'),
				origin: fc.option(fc.constantFrom(3, 4), { nil: undefined }),
			})
			.map(({ numbers: given, ...fields }): Lead => ({ ...fields, ...given }))
			.filter((given) => given.email !== undefined || given.phone !== undefined || given.mobile_phone !== undefined);
	});
}

/** A contact another client creates during the run: a person with an email, as a web form would make it. */
function intruder(everyone: Person[]) {
	const withEmail = everyone.flatMap((someone, index) => (someone.email ? [index] : []));
	if (!withEmail.length) return fc.constant(undefined);
	return fc
		.record({
			at: fc.integer({ min: 0, max: 12 }),
			person: fc.constantFrom(...withEmail),
		})
		.map(({ at, person }) => {
			const someone = everyone[person];
			const { email, firstname, lastname } = someone;
			const contact: Stored = { ...BLANK, email: email!, firstname, lastname, type: 'buyer' };
			return { at, person, contact };
		});
}

const policy: fc.Arbitrary<ContactPolicy> = fc.record({
	matchBy: fc.constantFrom('emailElsePhones', 'emailElsePhones', 'emailThenPhones'),
	whenPhoneMatchDiffers: fc.constantFrom('create', 'create', 'fail', 'update'),
	withoutEmail: fc.constantFrom('placeholder', 'placeholder', 'fail'),
	firstNameTypo: fc.constantFrom('samePerson', 'samePerson', 'someoneElse'),
});

/** Answers lost at a few requests, by the request's ordinal in the run. */
const faults: fc.Arbitrary<Map<number, Fault>> = fc
	.array(
		fc.tuple(
			fc.integer({ min: 0, max: 40 }),
			fc.constantFrom<Fault>('reset-before', 'reset-after', 'gateway-after', 'unavailable'),
		),
		{ maxLength: 3 },
	)
	.map((entries) => new Map(entries));

export interface ContactCase {
	people: Person[];
	existing: Held[];
	leads: Lead[];
	policy: ContactPolicy;
	concurrency: number;
	faults: Map<number, Fault>;
	camel: boolean;
	/** How far the API's clock runs behind n8n's. */
	clockBehindMs: number;
	/** A contact another client of the CRM creates for one of the people, before the request of that ordinal. */
	intruder?: { at: number; person: number; contact: Stored };
}

export const contactCases: fc.Arbitrary<ContactCase> = people.chain((everyone) =>
	fc.record({
		people: fc.constant(everyone),
		existing: fc.array(stored(everyone), { maxLength: 5 }),
		leads: fc.array(lead(everyone), { minLength: 1, maxLength: 6 }),
		policy,
		concurrency: fc.constantFrom(1, 1, 3, 10),
		faults,
		camel: fc.boolean(),
		clockBehindMs: fc.constantFrom(0, 0, 2 * 3600_000),
		intruder: fc.option(intruder(everyone), { nil: undefined, freq: 2 }),
	}),
);
