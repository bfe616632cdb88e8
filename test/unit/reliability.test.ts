import { readFileSync } from 'node:fs';

import { ENDPOINTS, findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { mayResend } from '../../nodes/AgencyCrm/catalogue/requests';
import { resendPolicyOf } from '../../nodes/AgencyCrm/catalogue/resend';
import type { PreparedRequest } from '../../nodes/AgencyCrm/catalogue/types';
import { preparedRequest } from '../support/preparedRequests';
import { RELIABILITY_DOC, regenerated, reliabilityTable } from '../../scripts/reliability-doc';

/**
 * Which requests are sent again after a lost answer (a reset, a 502, a 504), per operation, from the
 * spec (issue 11), and docs/reliability.md, which lists them.
 */

const request = (body: PreparedRequest['body']) => preparedRequest({ method: 'POST', path: '/customers', body });

test('every GET, PUT, PATCH and DELETE is resent', () => {
	const others = ENDPOINTS.filter((endpoint) => endpoint.method !== 'POST');
	expect(others.filter((endpoint) => !mayResend(endpoint, request({})))).toEqual([]);
});

test('of the POSTs, only the searches, the consent upsert, the label rendering and the user photo are always resent', () => {
	const always = ENDPOINTS.filter(
		(endpoint) => endpoint.method === 'POST' && resendPolicyOf(endpoint).resend === true,
	).map((endpoint) => `${endpoint.method} ${endpoint.path}`);
	expect(always.sort()).toEqual(
		[
			'POST /customers/search',
			'POST /products/search',
			'POST /transactions/agreement/search',
			'POST /transactions/sales-offers/search',
			'POST /transactions/leases/search',
			'POST /customers/{customerId}/consent',
			'POST /products/{productId}/dpeGes',
			'POST /users/{userId}/photo',
		].sort(),
	);
});

test('leads, POST /hooks and every other create are never resent after a lost answer', () => {
	for (const [resource, operation] of [
		['lead', 'createSeller'],
		['lead', 'createBuyer'],
		['webhook', 'create'],
		['product', 'create'],
		['product', 'addView'],
		['followUp', 'create'],
		['searchRequest', 'create'],
		['user', 'create'],
		['calendar', 'createEvent'],
	]) {
		const endpoint = findEndpoint(resource, operation);
		expect([resource, operation, endpoint && resendPolicyOf(endpoint).resend]).toEqual([resource, operation, false]);
	}
});

test.each(['create', 'upsert'])(
	'customer %s: resent when it carries an email or a phone and Check Duplicate is off',
	(operation) => {
		const endpoint = findEndpoint('customer', operation)!;
		expect(mayResend(endpoint, request({ lastname: 'A', email: 'a@example.com' }))).toBe(true);
		expect(mayResend(endpoint, request({ phone: '0102030405' }))).toBe(true);
		expect(mayResend(endpoint, request({ mobile_phone: '0602030405' }))).toBe(true);
		expect(mayResend(endpoint, request({ phones: [{ number: '0102030405' }] }))).toBe(true);
		expect(mayResend(endpoint, request({ lastname: 'A' }))).toBe(false);
		expect(mayResend(endpoint, request({ email: 'a@example.com', check_duplicate: true }))).toBe(false);
	},
);

test('every decision says why, quoting the spec', () => {
	for (const endpoint of ENDPOINTS) {
		expect([endpoint.path, resendPolicyOf(endpoint).reason]).toEqual([
			endpoint.path,
			expect.stringMatching(/spec section \d/i),
		]);
	}
});

test('the table has one row per operation, with the decision and its reason', () => {
	const rows = reliabilityTable(ENDPOINTS).split('\n').slice(2);
	expect(rows).toHaveLength(ENDPOINTS.length);
	expect(rows).toContain(
		`| Contact | Create | \`POST /customers\` | yes, when it carries an email or a phone and Check Duplicate is off | ${resendPolicyOf(findEndpoint('customer', 'create')!).reason.replace(/\|/g, '\\|')} |`,
	);
	expect(rows.find((row) => row.startsWith('| Consent | Set |'))).toContain('| yes; never after 502 |');
	expect(rows.find((row) => row.startsWith('| Lead | Create Seller Lead |'))).toContain('| no |');
});

test('docs/reliability.md holds the table the catalogue gives (npm run docs:reliability rewrites it)', () => {
	const page = readFileSync(RELIABILITY_DOC, 'utf8');
	expect(regenerated(page)).toBe(page);
});
