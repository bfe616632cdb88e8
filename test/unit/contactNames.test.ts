import type { IDataObject } from 'n8n-workflow';

import { judgePhoneMatch } from '../../nodes/AgencyCrm/catalogue/contacts';

/**
 * Names as people type them (docs/contacts.md "When the contact found by phone is someone else"): what
 * of a contact found by phone says it is someone else than the item, name by name. The rules of issue
 * 32 (a short form, an initial, accents, a married name) and issue 39's one typo, with the cases the
 * typo must not merge: short names and the feminine forms.
 */

const person = (firstname: string | null, lastname: string | null, email?: string): IDataObject => ({
	firstname,
	lastname,
	...(email ? { email } : {}),
});

/** What the contact found (first) says against the item (second), with typos taken for the same name (the default). */
const reasons = (found: IDataObject, wanted: IDataObject) => judgePhoneMatch(found, wanted, true).reasons;

describe('the rules of issue 32 keep holding', () => {
	test.each([
		['a short form', person('Jean-Pierre', 'Dupont'), person('Jean', 'Dupont')],
		['a short form, the other way', person('Jean', 'Dupont'), person('Jean-Pierre', 'Dupont')],
		['an initial', person('J.', 'Dupont'), person('Jean', 'Dupont')],
		['an initial for a compound name', person('Jean-Pierre', 'Dupont'), person('J.-P.', 'Dupont')],
		['accents and capitals', person('Léa', 'PETIT'), person('LEA', 'Petit')],
		['a married name: the same first name, another last name', person('Marie', 'Dupont'), person('Marie', 'Martin')],
		['a name missing', person(null, 'Dupont'), person('Jean', 'Dupont')],
	])('%s: the same person', (_, found, wanted) => {
		expect(reasons(found, wanted)).toEqual([]);
	});

	test.each([
		[
			'another first name',
			person('Jean', 'Moreau'),
			person('Marie', 'Moreau'),
			['another first name (Jean, not Marie)'],
		],
		[
			'an initial under another last name',
			person('J.', 'Martin'),
			person('Jean', 'Dupont'),
			['another last name (Martin, not Dupont)'],
		],
		[
			'another email',
			person('Jean', 'Moreau', 'jean@example.com'),
			person('Jean', 'Moreau', 'Marie@Example.com'),
			['another email (jean@example.com, not marie@example.com)'],
		],
		[
			'no email and no name, for an item with an email',
			person(null, null),
			person('Paul', 'Durand', 'paul@example.com'),
			['no email, and no name that confirms it'],
		],
	])('%s: someone else, said with both names', (_, found, wanted, expected) => {
		expect(reasons(found, wanted)).toEqual(expected);
	});
});

describe('a first name one typo away, with the same last name, is the same person', () => {
	test.each([
		['a letter dropped', 'Christophe', 'Christoph'],
		['a letter added', 'Christoph', 'Christophe'],
		['a letter added inside', 'Philipe', 'Philippe'],
		['a letter changed', 'Caroline', 'Carolyne'],
		['a last letter changed, neither a vowel', 'Frédéric', 'Frédérik'],
		['two neighbouring letters swapped', 'Christophe', 'Christohpe'],
		['in a compound name', 'Jean-Pierre', 'Jean-Piere'],
		['accents and capitals aside', 'STÉPHANE', 'Stéphanne'],
	])('%s: %s / %s', (_, contactName, itemName) => {
		const judged = judgePhoneMatch(person(contactName, 'Martin'), person(itemName, 'MARTIN'), true);
		expect(judged.reasons).toEqual([]);
		expect(judged.typo).toBe(`its first name ${contactName} is one typo away from the item's ${itemName}`);
	});

	test('a name that agrees otherwise is no typo: the hint says nothing of one', () => {
		expect(judgePhoneMatch(person('Jean-Pierre', 'Dupont'), person('Jean', 'Dupont'), true).typo).toBeUndefined();
	});
});

describe('names one typo away that stay two people', () => {
	test.each([
		['Jean', 'Jeanne', 'a couple: short, and the feminine form'],
		['Jean', 'Joan', 'short: under 5 letters'],
		['Paul', 'Paule', 'short'],
		['Denis', 'Denise', 'an e added after a final s'],
		['Louis', 'Louise', 'an e added after a final s'],
		['Pascal', 'Pascale', 'an e added after a final l'],
		['Christian', 'Christiane', 'an e added after a final n'],
		['André', 'Andrée', 'an e added after a final e'],
		['Daniel', 'Daniela', 'an a added'],
		['Mario', 'Maria', 'another last vowel'],
		['Marie', 'Mario', 'another last vowel'],
		['Alexandre', 'Alexandra', 'another last vowel'],
		['Alexis', 'Alexia', 'a last letter changed to a vowel'],
		['Stéphane', 'Stéphanie', 'an i before the final e'],
		['Émile', 'Émilie', 'an i before the final e'],
		['Julien', 'Julie', 'the n of a final -ien'],
		['Christophe', 'Kristof', 'more than one typo'],
	])('%s / %s (%s)', (contactName, itemName) => {
		const judged = judgePhoneMatch(person(contactName, 'Martin'), person(itemName, 'Martin'), true);
		expect(judged.reasons).toEqual([`another first name (${contactName}, not ${itemName})`]);
		expect(judged.typo).toBeUndefined();
	});

	test('one typo under another last name: someone else', () => {
		expect(reasons(person('Christophe', 'Martin'), person('Christoph', 'Dupont'))).toEqual([
			'another first name (Christophe, not Christoph)',
			'another last name (Martin, not Dupont)',
		]);
	});

	test('with First Name One Typo Away set to Someone Else, a typo is another first name', () => {
		expect(judgePhoneMatch(person('Christophe', 'Martin'), person('Christoph', 'Martin'), false)).toEqual({
			reasons: ['another first name (Christophe, not Christoph)'],
		});
	});
});

describe('initials say no name (found by the generated cases of issue 39)', () => {
	test('"J. Dupont" and "J. Petit": two equal initials are no first name a married name keeps', () => {
		expect(reasons(person('J.', 'Dupont'), person('J.', 'Petit'))).toEqual(['another last name (Dupont, not Petit)']);
	});

	test('"Maire P." and "Marie P.": a typo needs the same last name written whole', () => {
		expect(judgePhoneMatch(person('Maire', 'P.'), person('Marie', 'P.'), true)).toEqual({
			reasons: ['another first name (Maire, not Marie)'],
		});
	});
});
