import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Issue 29, point 1: the README is for the people who use the package: short, in the order of n8n's
 * community-node READMEs, its install commands those of docs/installation.md, which
 * test/installer/manualInstall.test.ts runs as written.
 */

const ROOT = path.join(__dirname, '../..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const installation = readFileSync(path.join(ROOT, 'docs/installation.md'), 'utf8');

/** The bash blocks marked `<!-- install: name -->`, by name. */
const installBlocks = (page: string) =>
	Object.fromEntries(
		[...page.matchAll(/<!-- install: ([\w-]+) -->\s*```bash\n([\s\S]*?)```/g)].map(([, name, body]) => [name, body]),
	);

test('at most 150 lines', () => {
	expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
});

test('what it is first, then the sections of a community node README, in their order', () => {
	const sections = [...readme.matchAll(/^## (.+)$/gm)].map(([, title]) => title);
	expect(sections).toEqual([
		'Installation',
		'Operations',
		'Credentials',
		'Compatibility',
		'Usage',
		'The demo and the tests: `npm start`, `npm test`',
		'Resources',
		'Version history',
		'License',
	]);
	const intro = readme.slice(readme.indexOf('\n') + 1, readme.indexOf('\n## ')).trim();
	expect(intro).toMatch(/^n8n nodes for the \*\*Agency CRM API V2\*\*/);
	expect(intro).toMatch(/!\[[^\]]+\]\(docs\/images\/[\w-]+\.png\)$/);
});

test('its install commands are docs/installation.md’s, which the installer tests run as written', () => {
	const fromReadme = installBlocks(readme);
	expect(Object.keys(fromReadme)).toEqual(['pack', 'nodes-folder']);
	const fromDocs = installBlocks(installation);
	for (const [name, body] of Object.entries(fromReadme)) expect({ name, body }).toEqual({ name, body: fromDocs[name] });
});

test('it says the package is not on npm yet, and never sends users to a page that cannot find it without saying so', () => {
	expect(readme).toContain('not on the public npm registry yet');
	for (const mention of readme.match(/[^.]*Community Nodes[^.]*\./g) ?? []) expect(mention).toMatch(/Once|once/);
});
