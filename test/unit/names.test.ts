import * as fc from 'fast-check';

import {
	TYPO_MIN_LETTERS,
	compareNames,
	nameWords,
	oneTypoApart,
	sameWholeName,
} from '../../nodes/AgencyCrm/catalogue/names';

/**
 * catalogue/names.ts, word by word: how two names compare (docs/contacts.md "When the contact found by
 * phone is someone else"). test/unit/contactNames.test.ts tries the same rules through a contact found
 * by phone; here each function meets the cases at its edges, and the typo rule is checked on generated
 * names against a reference edit distance.
 */

test.each([
	['Jean-Pierre', ['jean', 'pierre']],
	['  Léa  ÉLODIE ', ['lea', 'elodie']],
	["J.-P. O'Neil", ['j', 'p', 'o', 'neil']],
	['Anne2', ['anne2']],
	['', []],
	[42, []],
	[null, []],
])('the words of %j: %j', (name, words) => {
	expect(nameWords(name)).toEqual(words);
});

describe('compareNames', () => {
	test.each([
		['Jean', undefined, 'missing'],
		['', 'Jean', 'missing'],
		['Jean-Pierre', 'jean pierre', 'same'],
		['Léa', 'LEA', 'same'],
		['Jean', 'Jean-Pierre', 'variant'],
		['Pierre', 'Jean-Pierre', 'variant'],
		['J.', 'Jean', 'variant'],
		['J.-P.', 'Jean-Pierre', 'variant'],
		['Jean P.', 'J. Pierre', 'variant'],
		['Jean Jean', 'Jean Pierre', 'variant'],
		['Jean Pierre', 'Jeanpierre', 'other'],
		['Marie-Claire', 'Marie-Anne', 'other'],
		['Jean', 'Jeanne', 'other'],
		['J.', 'Pierre', 'other'],
		['Jo', 'Jean', 'other'],
	])('%j and %j: %s, either way round', (a, b, match) => {
		expect([compareNames(a, b), compareNames(b, a)]).toEqual([match, match]);
	});

	test('on generated names, the answer is the same either way round, and "same" only for the same words', () => {
		const word = fc.constantFrom('jean', 'j', 'pierre', 'p', 'marie', 'anne', 'a');
		const name = fc.array(word, { maxLength: 3 }).map((words) => words.join('-'));
		fc.assert(
			fc.property(name, name, (a, b) => {
				expect(compareNames(a, b)).toBe(compareNames(b, a));
				expect(compareNames(a, b) === 'same').toBe(a !== '' && a === b);
			}),
		);
	});
});

test.each([
	['Dupont', 'DUPONT', true],
	['A. Martin', 'A Martin', true],
	['Le Gall', 'le-gall', true],
	['J.', 'J', false],
	['J.-P.', 'J. P.', false],
	['Dupont', 'Dupond', false],
	['', '', false],
])('sameWholeName(%j, %j): %s', (a, b, same) => {
	expect(sameWholeName(a, b)).toBe(same);
});

describe('oneTypoApart', () => {
	test.each([
		['a letter added at the end', 'Christoph', 'Christophe'],
		['a letter added at the start', 'Hélène', 'Chélène'],
		['a letter dropped inside', 'Christophe', 'Christophe'.replace('t', '')],
		['a letter typed twice', 'Fabien', 'Fabiien'],
		['a letter changed inside', 'Nathalie', 'Nathelie'],
		['a letter changed first', 'Mathieu', 'Nathieu'],
		['an h added inside, before a final -ie', 'Natalie', 'Nathalie'],
		['two neighbouring letters swapped', 'Christophe', 'Chrsitophe'],
		['the first two swapped', 'Christophe', 'hCristophe'],
		['the last two swapped', 'Christophe', 'Christopeh'],
		['a letter added after a final l, that makes no other form', 'Samuel', 'Samuels'],
		['accents and capitals aside', 'Hélène', 'HELENNE'],
	])('%s: %s / %s, one typo', (_, a, b) => {
		expect([oneTypoApart(a, b), oneTypoApart(b, a)]).toEqual([true, true]);
	});

	test.each([
		['the same name', 'Christophe', 'christophe'],
		[`a name under ${TYPO_MIN_LETTERS} letters`, 'Jean', 'Joan'],
		[`one of them under ${TYPO_MIN_LETTERS} letters`, 'Anna', 'Annas'],
		['two letters added', 'Christo', 'Christophe'],
		['two letters changed', 'Christophe', 'Christaphi'],
		['two letters swapped that are not neighbours', 'Christophe', 'Chrostiphe'],
		['a swap beside a change', 'Christophe', 'Chrsxtophe'],
		['a letter changed and one added', 'Marcos', 'Maxycos'],
		['swapped letters and one added', 'Christophe', 'Chrsiftophe'],
		['another last vowel', 'Mario', 'Maria'],
		['a last letter changed to a vowel', 'Alexis', 'Alexia'],
		['an e added after a final s', 'Denis', 'Denise'],
		['an a added after a final l', 'Daniel', 'Daniela'],
		['an i before the final e', 'Stéphane', 'Stéphanie'],
		['the n of a final -ien', 'Julien', 'Julie'],
	])('%s: %s / %s, no typo', (_, a, b) => {
		expect([oneTypoApart(a, b), oneTypoApart(b, a)]).toEqual([false, false]);
	});

	/**
	 * The edit distance of two texts when two neighbouring letters swapped count as one edit (the
	 * optimal string alignment distance): the reference the rule is checked against.
	 */
	function editDistance(a: string, b: string): number {
		const d = Array.from({ length: a.length + 1 }, (_, i) =>
			Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
		);
		for (let i = 1; i <= a.length; i++)
			for (let j = 1; j <= b.length; j++) {
				const change = a[i - 1] === b[j - 1] ? 0 : 1;
				d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change);
				if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
			}
		return d[a.length][b.length];
	}

	test('on generated names without vowels (no feminine form), one typo is exactly one edit, 5 letters or more', () => {
		// Letters that make no other form of a name (anotherForm needs a vowel, or a final d, e, i, l, n, s or t).
		const letters = fc.constantFrom(...'bcfgkmr');
		const name = fc.array(letters, { minLength: 3, maxLength: 8 }).map((chars) => chars.join(''));
		const edited = name.chain((base) =>
			fc
				.oneof(
					fc.constant(base),
					fc.tuple(fc.nat(base.length), letters).map(([at, letter]) => base.slice(0, at) + letter + base.slice(at)),
					fc.nat(base.length - 1).map((at) => base.slice(0, at) + base.slice(at + 1)),
					fc
						.tuple(fc.nat(base.length - 1), letters)
						.map(([at, letter]) => base.slice(0, at) + letter + base.slice(at + 1)),
					fc.nat(base.length - 2).map((at) => base.slice(0, at) + base[at + 1] + base[at] + base.slice(at + 2)),
					name,
				)
				.map((other) => [base, other] as const),
		);
		fc.assert(
			fc.property(edited, ([a, b]) => {
				const expected = a.length >= TYPO_MIN_LETTERS && b.length >= TYPO_MIN_LETTERS && editDistance(a, b) === 1;
				expect([a, b, oneTypoApart(a, b)]).toEqual([a, b, expected]);
			}),
			{ numRuns: 2000 },
		);
	});
});
