import { readFileSync } from 'node:fs';

import { OPERATIONS_PAGE, README, operationsPage, readmeWithOperations } from '../../scripts/docs-operations';
import { SPEC_ENDPOINTS, endpointShape } from '../spec/endpoints';

/** docs/operations.md is generated from the catalogue (`npm run docs:operations`) and must not drift. */

const committed = readFileSync(OPERATIONS_PAGE, 'utf8');
const rows = [...committed.matchAll(/^\| `(\w+) (\S+)`\s*\|(.*)\|$/gm)].map(([, method, path, rest]) => ({
	method,
	path,
	cells: rest.split('|').map((cell) => cell.trim()),
}));

test('the committed page is what `npm run docs:operations` writes', () => {
	expect(committed).toBe(operationsPage());
});

test("the README's table of resources and operations is what `npm run docs:operations` writes", () => {
	const readme = readFileSync(README, 'utf8');
	expect(readme).toBe(readmeWithOperations(readme));
});

test('every endpoint of the spec has a row', () => {
	const shapes = new Set(rows.map((row) => endpointShape(row.method, row.path)));
	expect(SPEC_ENDPOINTS.filter((endpoint) => !shapes.has(endpointShape(endpoint.method, endpoint.path)))).toEqual([]);
});

test('every GET, PUT, PATCH and DELETE is resent after a connection failure (issue 11)', () => {
	const idempotent = rows.filter((row) => row.method !== 'POST');
	expect(idempotent.length).toBeGreaterThan(0);
	expect(idempotent.filter((row) => !row.cells[row.cells.length - 1].startsWith('yes'))).toEqual([]);
});
