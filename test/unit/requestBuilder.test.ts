import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { requestOf } from '../../nodes/AgencyCrm/catalogue/requests';
import { SPEC_ENDPOINTS } from '../support/spec/endpoints';

/**
 * Issue 20, point 3: every request of the nodes is built from a catalogue entry, which fills and
 * encodes its path and gives its resend decision (catalogue/requests.ts). A path written anywhere
 * else in nodes/ would bypass both, so the sources are searched for one.
 */

const ROOT = join(__dirname, '../..');
const CATALOGUE = join(ROOT, 'nodes/AgencyCrm/catalogue');

function sourcesUnder(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const path = join(directory, entry.name);
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The text of every string and template literal of a source (the head of a template, up to its first `${`). */
function literalsOf(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
		else if (ts.isTemplateExpression(node)) found.push(node.head.text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The first segments of the spec's paths: `/customers`, `/hooks`, `/agreement`… */
const API_ROOTS = [...new Set(SPEC_ENDPOINTS.map((endpoint) => endpoint.path.split('/')[1]))];
const API_PATH = new RegExp(`^/(${API_ROOTS.join('|')})(/|$)`);

const nodeSources = sourcesUnder(join(ROOT, 'nodes'));

/** `file: literal` for every literal API path in nodes/ outside the catalogue. */
function literalApiPaths(sources: string[], catalogue: string): string[] {
	return sources
		.filter((file) => !file.startsWith(`${catalogue}/`))
		.flatMap((file) =>
			literalsOf(file)
				.filter((text) => API_PATH.test(text))
				.map((text) => `${file}: ${text}`),
		);
}

test('no literal API path in nodes/ outside the catalogue', () => {
	// The search itself finds one where there is one: the catalogue holds every path of the spec.
	expect(literalApiPaths(sourcesUnder(CATALOGUE), join(ROOT, 'nowhere')).length).toBeGreaterThanOrEqual(
		SPEC_ENDPOINTS.length,
	);
	expect(literalApiPaths(nodeSources, CATALOGUE).map((found) => relative(ROOT, found))).toEqual([]);
});

test('path values are encoded in one place: the request builder', () => {
	const encoding = nodeSources.filter((file) => readFileSync(file, 'utf8').includes('encodeURIComponent'));
	expect(encoding.map((file) => relative(ROOT, file))).toEqual(['nodes/AgencyCrm/catalogue/requests.ts']);
});

test('every catalogue key the nodes name (`resource:operation`) is an entry of the catalogue', () => {
	const keys = new Set(ENDPOINTS.map((endpoint) => `${endpoint.resource}:${endpoint.operation.value}`));
	const resources = new Set(ENDPOINTS.map((endpoint) => endpoint.resource));
	const named = nodeSources
		.filter((file) => !file.startsWith(`${CATALOGUE}/`))
		.flatMap(literalsOf)
		.filter((text) => /^\w+:\w+$/.test(text) && resources.has(text.split(':')[0]));
	expect(named.length).toBeGreaterThan(20);
	expect(named.filter((key) => !keys.has(key))).toEqual([]);
});

describe('the request of a catalogue entry', () => {
	test('fills its path with each value encoded as one segment', () => {
		expect(requestOf('customer:get', { pathParams: { customerId: 'C-12 34?#' } }).path).toBe(
			'/customers/C-12%2034%3F%23',
		);
		// A value from the API (an id a search returned) that would address another endpoint is never sent.
		for (const customerId of ['../hooks', 'a\\b', '..']) {
			expect(() => requestOf('customer:get', { pathParams: { customerId } })).toThrow(
				`The value ${JSON.stringify(customerId)} for {customerId} in /customers/{customerId} cannot`,
			);
		}
		expect(requestOf('webhook:update', { pathParams: { hookId: 7 }, body: { url: 'x' } })).toMatchObject({
			method: 'PUT',
			path: '/hooks/7',
			body: { url: 'x' },
		});
		expect(() => requestOf('customer:get')).toThrow('No value for {customerId} in /customers/{customerId}');
	});

	test("carries the entry's resend decision, never a default", () => {
		expect(requestOf('webhook:getAll').idempotent).toBe(true);
		expect(requestOf('customer:getAll', { body: { email: 'a@example.com' } }).idempotent).toBe(true);
		expect(requestOf('webhook:create', { body: { url: 'x' } }).idempotent).toBe(false);
		expect(requestOf('webhook:delete', { pathParams: { hookId: 7 } }).idempotent).toBe(true);
		// Spec section 4: a create carrying an email finds the contact its first send made.
		expect(requestOf('customer:create', { body: { email: 'a@example.com' } }).idempotent).toBe(true);
		expect(requestOf('customer:create', { body: { lastname: 'Martin' } }).idempotent).toBe(false);
	});

	test('an unknown key is refused', () => {
		expect(() => requestOf('customer:merge')).toThrow('No catalogue entry "customer:merge"');
	});
});
