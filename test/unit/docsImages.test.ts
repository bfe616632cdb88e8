import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Issue 34 (point 6): every screenshot `npm run screenshots` leaves in docs/images/ is shown by a page
 * (the README or one of docs/), and every image a page shows is there: a picture no page links is
 * one nobody sees, and one that is gone is a broken page.
 */

const ROOT = path.join(__dirname, '../..');
const IMAGES = path.join(ROOT, 'docs/images');

const pages = [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** The images a page shows (`![…](images/x.png)`), as paths from the repository's root. */
function imagesShownBy(page: string): string[] {
	const text = readFileSync(path.join(ROOT, page), 'utf8');
	return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) =>
		path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, page)), match[1])),
	);
}

const shown = new Set(pages.flatMap(imagesShownBy));

test('every image of docs/images/ is shown by a page', () => {
	const images = readdirSync(IMAGES).map((name) => `docs/images/${name}`);
	expect(images.length).toBeGreaterThan(0);
	expect(images.filter((image) => !shown.has(image))).toEqual([]);
});

test('every image a page shows is in the repository', () => {
	const files = new Set(readdirSync(IMAGES).map((name) => `docs/images/${name}`));
	expect([...shown].filter((image) => image.startsWith('docs/images/') && !files.has(image))).toEqual([]);
	expect([...shown].filter((image) => !image.startsWith('docs/images/'))).toEqual([]);
});
