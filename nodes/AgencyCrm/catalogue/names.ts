/**
 * Names as people type them (docs/contacts.md "When the contact found by phone is someone else"):
 * how a name on a contact found by phone compares with the item's. Forms and call notes carry short
 * forms, initials and typos every day; a shared phone (a couple) carries two names that differ by as
 * little as one letter (Denis / Denise), so a typo counts only where it cannot be another name.
 */

/** The words of a name as people compare them: case, accents, hyphens and spacing aside ("Jean-Pierre" → jean, pierre). */
export function nameWords(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean);
}

/** One word against another: the same, or an initial of it ("J." for "Jean"). */
const wordAgrees = (a: string, b: string) =>
	a === b || (a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b));

/** Whether every word of one name agrees with a word of the other ("Jean" within "Jean-Pierre", "J." within "Jean"). */
const agreesWithin = (words: string[], others: string[]) =>
	words.every((word) => others.some((other) => wordAgrees(word, other)));

/**
 * How a name on a contact found compares with the item's, either way round: `missing` when either
 * has none, `same`, a `variant` (one's words are among the other's, or their initials: "Jean" and
 * "Jean-Pierre", "J. Dupont"), or `other`.
 */
export type NameMatch = 'missing' | 'same' | 'variant' | 'other';

export function compareNames(found: unknown, wanted: unknown): NameMatch {
	const a = nameWords(found);
	const b = nameWords(wanted);
	if (!a.length || !b.length) return 'missing';
	if (a.join(' ') === b.join(' ')) return 'same';
	return agreesWithin(a, b) || agreesWithin(b, a) ? 'variant' : 'other';
}

/** Whether two names are the same and written whole: initials alone ("J.", "J.-P.") say no name. */
export function sameWholeName(found: unknown, wanted: unknown): boolean {
	return compareNames(found, wanted) === 'same' && nameWords(found).some((word) => word.length > 1);
}

/** Names shorter than this are too close to one another for a letter to be a typo (Jean, Joan, Jeanne's Jean). */
export const TYPO_MIN_LETTERS = 5;

/** Whether one text is the other with one letter added, dropped or changed, or two neighbouring letters swapped. */
function oneEditApart(a: string, b: string): boolean {
	if (Math.abs(a.length - b.length) > 1) return false;
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start++;
	let [endA, endB] = [a.length, b.length];
	while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) [endA, endB] = [endA - 1, endB - 1];
	const [restA, restB] = [a.slice(start, endA), b.slice(start, endB)];
	if (restA.length <= 1 && restB.length <= 1) return true;
	return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

const VOWEL = /[aeiouy]/;

/**
 * Whether a one-letter difference makes another name (a feminine or masculine form) rather than a
 * typo: another last vowel, or the last letter changed to one (Mario / Maria, Alexis / Alexia); an e
 * or an a added after a final d, e, i, l, n, s or t (Denis / Denise, André / Andrée, Daniel /
 * Daniela; Christoph / Christophe stays a typo); an i before the final e (Stéphane / Stéphanie); the
 * n of a final -ien (Julien / Julie).
 */
function anotherForm(a: string, b: string): boolean {
	const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
	if (shorter.length === longer.length) {
		const [lastA, lastB] = [a.slice(-1), b.slice(-1)];
		return a.slice(0, -1) === b.slice(0, -1) && (VOWEL.test(lastA) || VOWEL.test(lastB));
	}
	const added = longer.startsWith(shorter) ? longer.slice(-1) : undefined;
	if (added && /[ea]/.test(added) && /[deilnst]$/.test(shorter)) return true;
	if (longer.endsWith('ie') && shorter === `${longer.slice(0, -2)}e`) return true;
	return longer.endsWith('ien') && shorter === longer.slice(0, -1);
}

/** Whether two first names are one typo apart: both of 5 letters or more, one edit away, and not another form of a name. */
export function oneTypoApart(found: unknown, wanted: unknown): boolean {
	const [a, b] = [nameWords(found).join(''), nameWords(wanted).join('')];
	if (a === b || a.length < TYPO_MIN_LETTERS || b.length < TYPO_MIN_LETTERS) return false;
	return oneEditApart(a, b) && !anotherForm(a, b);
}
