import * as fc from 'fast-check';

import type { ContactPolicy } from '../../nodes/AgencyCrm/catalogue/resources/contact/matching';
import type { Fault, ModelContact } from './contactModel';

/**
 * Generated cases of use case 1 (issue 32): people, the contacts production already holds for them
 * (names spelled otherwise, emails in another case, numbers in another form, shared phones, nameless
 * call records, the same email twice), a batch of leads from them (with or without an email, one
 * person twice), the policy, the Concurrency, and answers lost at any request.
 */

const FIRST_NAMES = ['Jean-Pierre', 'Marie', 'Anne', 'Paul', 'Léa'];
const LAST_NAMES = ['Dupont', 'Martin', 'Petit'];
/** Few numbers, so that people share them: couples, a switchboard. */
const NUMBERS = ['0611111111', '0622222222', '0633333333', '0478000000'];

export interface Person {
	firstname: string;
	lastname: string;
	email?: string;
	number: string;
}

/** A number as people type it. */
const typed = (number: string) =>
	fc.constantFrom(
		number,
		`+33 ${number.slice(1, 2)} ${number.slice(2, 4)} ${number.slice(4, 6)} ${number.slice(6, 8)} ${number.slice(8)}`,
		`+33${number.slice(1)}`,
		number.replace(/(\d\d)(?=\d)/g, '$1.'),
		`0033 ${number.slice(1)}`,
	);

/** An email as people type it: another case, stray spaces. */
const typedEmail = (email: string) =>
	fc.constantFrom(
		email,
		email.toUpperCase(),
		` ${email}`,
		email.replace(/^./, (c) => c.toUpperCase()),
	);

/** A name as it is written elsewhere: the same, its first word (Jean for Jean-Pierre), an initial, in capitals. */
const spelled = (name: string) => fc.constantFrom(name, name.split('-')[0], `${name[0]}.`, name.toUpperCase());

const person = (index: number) =>
	fc.record({
		firstname: fc.constantFrom(...FIRST_NAMES),
		lastname: fc.constantFrom(...LAST_NAMES),
		email: fc.option(fc.constant(`person${index}@example.com`), { nil: undefined, freq: 4 }),
		number: fc.constantFrom(...NUMBERS),
	});

export type Stored = Omit<ModelContact, 'id' | 'created_at'>;

/** A contact production holds, and whose it is: a person's (their index), or nobody's (a call record). */
export interface Held {
	person?: number;
	contact: Stored;
}

/** A contact production holds for a person, or a nameless call record holding a number. */
function stored(people: Person[]): fc.Arbitrary<Held> {
	const ofPerson = fc.integer({ min: 0, max: people.length - 1 }).chain((index) => {
		const someone = people[index];
		const contact = fc.record({
			email: someone.email ? fc.option(typedEmail(someone.email), { nil: null, freq: 4 }) : fc.constant(null),
			firstname: fc.option(spelled(someone.firstname), { nil: null, freq: 4 }),
			lastname: fc.option(spelled(someone.lastname), { nil: null, freq: 6 }),
			phone: fc.option(typed(someone.number), { nil: null }),
			mobile_phone: fc.constant(null),
			type: fc.constantFrom('buyer', 'seller', null),
			origin: fc.constant(null),
			agency_id: fc.constant(1),
		});
		return fc.record({ person: fc.constant(index), contact });
	});
	const callRecord = fc
		.record({
			email: fc.constant(null),
			firstname: fc.constant(null),
			lastname: fc.constant(null),
			phone: fc.constant(null),
			mobile_phone: fc.constantFrom(...NUMBERS).chain(typed),
			type: fc.constant(null),
			origin: fc.constant(null),
			agency_id: fc.constant(1),
		})
		.map((contact) => ({ contact }));
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
	type: string;
	origin?: number;
}

function lead(people: Person[]): fc.Arbitrary<Lead> {
	return fc.integer({ min: 0, max: people.length - 1 }).chain((index) => {
		const someone = people[index];
		const email = someone.email
			? fc.option(typedEmail(someone.email), { nil: undefined, freq: 3 })
			: fc.constant(undefined);
		return fc
			.record({
				person: fc.constant(index),
				email,
				firstname: fc.option(spelled(someone.firstname), { nil: undefined, freq: 4 }),
				lastname: fc.option(spelled(someone.lastname), { nil: undefined, freq: 6 }),
				phone: fc.option(typed(someone.number), { nil: undefined, freq: 3 }),
				// Now and then a number the API refuses.
				mobile_phone: fc.oneof(
					{ arbitrary: fc.constant(undefined), weight: 11 },
					{ arbitrary: fc.constant('12'), weight: 1 },
				),
				type: fc.constantFrom('buyer', 'seller', 'tenant'),
				origin: fc.option(fc.constantFrom(3, 4), { nil: undefined }),
			})
			.filter((given) => given.email !== undefined || given.phone !== undefined);
	});
}

/** A contact another client creates during the run: a person with an email, as a web form would make it. */
function intruder(people: Person[]) {
	const withEmail = people.flatMap((someone, index) => (someone.email ? [index] : []));
	if (!withEmail.length) return fc.constant(undefined);
	return fc
		.record({
			at: fc.integer({ min: 0, max: 12 }),
			person: fc.constantFrom(...withEmail),
		})
		.map(({ at, person }) => {
			const someone = people[person];
			const contact: Stored = {
				email: someone.email!,
				firstname: someone.firstname,
				lastname: someone.lastname,
				phone: null,
				mobile_phone: null,
				type: 'buyer',
				origin: null,
				agency_id: 1,
			};
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

export const contactCases: fc.Arbitrary<ContactCase> = fc
	.integer({ min: 1, max: 4 })
	.chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => person(index))))
	.chain((people) =>
		fc.record({
			people: fc.constant(people),
			existing: fc.array(stored(people), { maxLength: 5 }),
			leads: fc.array(lead(people), { minLength: 1, maxLength: 6 }),
			policy,
			concurrency: fc.constantFrom(1, 1, 3, 10),
			faults,
			camel: fc.boolean(),
			clockBehindMs: fc.constantFrom(0, 0, 2 * 3600_000),
			intruder: fc.option(intruder(people), { nil: undefined, freq: 2 }),
		}),
	);
