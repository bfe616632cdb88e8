import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';

/** What n8n's verification and the npm page read from package.json and the codex files. */
const root = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const codexFiles = [
	'nodes/AgencyCrm/AgencyCrm.node.json',
	'nodes/AgencyCrmTrigger/AgencyCrmTrigger.node.json',
	'nodes/AgencyCrmAnswer/AgencyCrmAnswer.node.json',
];
const repository = 'https://github.com/agency-crm/n8n-nodes-agency-crm';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
const readmeAnchors = new Set([
	'readme',
	...[...read('README.md').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])),
]);

describe('package.json', () => {
	it('names one GitHub repository for the source, the home page and the issues', () => {
		expect(pkg.repository).toEqual({ type: 'git', url: `git+${repository}.git` });
		expect(pkg.homepage).toBe(`${repository}#readme`);
		expect(pkg.bugs).toEqual({ url: `${repository}/issues` });
	});

	it('has a maintainer contact and no placeholder address', () => {
		expect(pkg.author.name).toBeTruthy();
		expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
		expect(read('package.json')).not.toContain('.invalid');
	});

	it('publishes dist only, with no runtime dependency and n8n-workflow as the one peer', () => {
		expect(pkg.files).toEqual(['dist']);
		// n8n loads what the "n8n" section lists; a "main" entry would publish a file nothing loads.
		expect(pkg.main).toBeUndefined();
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.keywords).toContain('n8n-community-node-package');
	});

	it('refuses a publish without provenance: npm itself (publishConfig), and the guard when scripts run', () => {
		expect(pkg.publishConfig).toEqual({ provenance: true });
		expect(pkg.scripts.prepublishOnly).toBe('node scripts/require-provenance.js');
	});

	it("asks for the n8n-node CLI's strict checks (eslint.config.mjs must then be n8n's template, unchanged)", () => {
		expect(pkg.n8n.strict).toBe(true);
		expect(read('eslint.config.mjs')).toBe(
			read('node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs'),
		);
	});
});

describe.each(codexFiles)('codex file %s', (file) => {
	const codex = JSON.parse(read(file));
	const urls: string[] = Object.values(codex.resources as Record<string, Array<{ url: string }>>)
		.flat()
		.map((link) => link.url);

	// n8n files a node under a subcategory only for the categories it whitelists (Core Nodes, AI, HITL);
	// the others list it among the apps (the editor's NodeCreator `subcategorizeItems`).
	it('is filed among the apps, but the Answer, which answers a delivery: under Core Nodes, Flow', () => {
		if (file.includes('AgencyCrmAnswer')) {
			expect(codex.categories).toEqual(['Core Nodes', 'Sales', 'Marketing']);
			expect(codex.subcategories).toEqual({ 'Core Nodes': ['Flow'] });
		} else {
			expect(codex.categories).toEqual(['Sales', 'Marketing']);
			expect(codex).not.toHaveProperty('subcategories');
		}
	});

	it('links documentation to headings that exist in the README', () => {
		// Its documentation, and the credential's for the nodes that take one (Agency CRM Answer takes none).
		expect(urls.length).toBe(file.includes('AgencyCrmAnswer') ? 1 : 2);
		for (const url of urls) {
			const [page, anchor] = url.split('#');
			expect(page).toBe(repository);
			expect({ url, found: readmeAnchors.has(anchor) }).toEqual({ url, found: true });
		}
	});
});

/**
 * Issue 39, point 7: n8n's nodes panel searches a node's name and codex alias, never its actions (the
 * editor's NodeCreator `searchNodes`, a subsequence match): each action the panel lists under Agency CRM
 * is in its alias, so that searching it finds the node.
 */
test("every action the panel lists under Agency CRM finds the node: it is in the node's alias", () => {
	const alias: string[] = JSON.parse(read('nodes/AgencyCrm/AgencyCrm.node.json')).alias;
	const actions = ENDPOINTS.map((endpoint) => endpoint.operation.action);
	expect(actions).toContain('Create or update a contact');
	expect(actions.filter((action) => !alias.includes(action))).toEqual([]);
	expect(alias).toEqual(expect.arrayContaining(['real estate', 'contact', 'crm']));
});
