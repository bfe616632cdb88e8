import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { DEFAULT_CONCURRENCY } from '../../nodes/AgencyCrm/catalogue/nodeOptions';
import { activateWebhook, fakeContext } from '../support/fakeN8n';
import type { BulkRun } from '../support/inprocess/bulk';
import type { SandboxCounters } from '../support/sandbox/admin';
import { customerCreates, duplicateContacts, emailOf, runNode } from '../support/inprocess/bulk';
import { admin, counters } from '../support/sandbox/admin';
import { inProcessContext } from '../support/inprocess/context';
import { useSandbox } from '../support/sandbox/harness';

/**
 * Bulk creates at the default concurrency against the sandbox with its faults on: connection resets
 * before and after the request is processed, 429 with Retry-After, 503, token revocation. Nothing is
 * lost, nothing is duplicated, the token is exchanged once per revocation, and 429s pause the run
 * once per wave rather than once per request. Wall times are printed, never asserted.
 */
const h = useSandbox();

const ITEMS = 300;
/**
 * Every fault the sandbox can inject into a create, none permanent. Rates are exact (0.02 is every
 * 50th request) and a reset wins over a 429 due on the same request, so the rates must not align.
 */
const ALL_FAULTS = {
	latency_ms: 20,
	reset_rate: 0.02,
	reset_after_rate: 0.02,
	rate_429: 0.03,
	retry_after_s: 1,
	rate_5xx: 0.05,
	status_5xx: 503,
	revoke_token_every: 200,
};

async function withFaults(faults: object) {
	await admin(h.origin, 'POST', '/reset');
	await admin(h.origin, 'POST', '/faults', faults);
}

/** Every item out once, in input order, paired with its input, holding the contact created for it. */
function expectEveryItemOnce(run: BulkRun, tag: string, count: number) {
	expect(run.output.map((item) => item.pairedItem)).toEqual(Array.from({ length: count }, (_, item) => ({ item })));
	expect(run.output.map((item) => item.json.email)).toEqual(
		Array.from({ length: count }, (_, index) => emailOf(tag, index)),
	);
	expect(run.output.filter((item) => item.json.error !== undefined)).toEqual([]);
	expect(new Set(run.output.map((item) => item.json.customers_id)).size).toBe(count);
}

function report(label: string, run: BulkRun, seen: SandboxCounters) {
	console.log(
		`${label}: ${Math.round(run.wallMs)} ms; ${seen.requests_total} API requests, max ${seen.in_flight.max} in flight; ` +
			`faults ${JSON.stringify(seen.faults)}; ${seen.token_exchanges} token exchanges; ${run.pauses} pauses for 429`,
	);
}

describe.each([
	['with Continue On Fail', true],
	['without Continue On Fail', false],
])(`${ITEMS} creates, every fault on, default concurrency, %s`, (label, continueOnFail) => {
	test('every item once, in order, paired; 0 duplicate contacts; one exchange per revocation', async () => {
		const tag = continueOnFail ? 'cof' : 'stop';
		await withFaults(ALL_FAULTS);
		const run = await runNode(h.origin, customerCreates(tag, ITEMS), continueOnFail);
		const seen = await counters(h.origin);
		report(`${ITEMS} creates, all faults, ${label}`, run, seen);

		expectEveryItemOnce(run, tag, ITEMS);
		expect(await duplicateContacts(h.origin)).toBe(0);
		// Every kind of fault this run turns on happened, so that it proves something (routes refused are not among them).
		const { forbidden, ...injected } = seen.faults;
		expect(forbidden).toBe(0);
		expect(Math.min(...Object.values(injected))).toBeGreaterThan(0);
		expect(seen.token_exchanges).toBeLessThanOrEqual(seen.faults.token_revoked + 1);
		expect(seen.in_flight.max).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
	}, 60_000);
});

test('a token revoked every 25 requests under concurrency: exchanges ≤ revocations + 1, and nothing fails', async () => {
	await withFaults({ latency_ms: 5, revoke_token_every: 25 });
	const run = await runNode(h.origin, customerCreates('revoked', ITEMS));
	const seen = await counters(h.origin);
	report('revoked every 25', run, seen);
	expectEveryItemOnce(run, 'revoked', ITEMS);
	expect(seen.faults.token_revoked).toBeGreaterThanOrEqual(ITEMS / 25);
	expect(seen.token_exchanges).toBeLessThanOrEqual(seen.faults.token_revoked + 1);
});

test('429s cost one Retry-After per wave, not one per request: the default concurrency against concurrency 1', async () => {
	// A quarter of the requests throttled (every 4th): a wave of 10 requests meets two or three 429s.
	const throttled = { latency_ms: 20, rate_429: 0.25, retry_after_s: 1 };
	const count = 32;
	await withFaults(throttled);
	const concurrent = await runNode(h.origin, customerCreates('wave', count));
	const concurrentSeen = await counters(h.origin);
	const log = await admin<{ data: Array<{ at: string; path: string; status: number | null }> }>(
		h.origin,
		'GET',
		'/requests?limit=2000',
	);
	await withFaults(throttled);
	const serial = await runNode(h.origin, customerCreates('serial', count, 1));
	const serialSeen = await counters(h.origin);
	report(`${count} creates, 25% 429, concurrency ${DEFAULT_CONCURRENCY}`, concurrent, concurrentSeen);
	report(`${count} creates, 25% 429, concurrency 1`, serial, serialSeen);

	expectEveryItemOnce(concurrent, 'wave', count);
	expectEveryItemOnce(serial, 'serial', count);
	// One request at a time: every 429 is a pause of its own.
	expect(serial.pauses).toBe(serialSeen.faults.rate_429);
	// Many at once: the 429s of one wave share a pause.
	expect(concurrent.pauses).toBeLessThanOrEqual(concurrentSeen.faults.rate_429 / 2);
	// While a pause lasts, nothing new is sent: after each pause begins (a 429 answered), the only
	// requests to arrive before Retry-After has passed are those already on their way, fewer than the
	// concurrency (on a loaded machine they can arrive late). Without the pause, the other slots would
	// go on sending one request per 20 ms each: hundreds in that time.
	const api = log.data.filter((entry) => entry.path.startsWith('/api/v2/site/'));
	const answeredAt = api.map((entry) => Date.parse(entry.at));
	for (const [index, entry] of api.entries()) {
		if (entry.status !== 429) continue;
		const sentDuringPause = answeredAt.filter(
			(at, other) => other !== index && at > answeredAt[index] + 100 && at < answeredAt[index] + 900,
		);
		expect(sentDuringPause.length).toBeLessThan(DEFAULT_CONCURRENCY);
	}
}, 60_000);

test('a limit met at the same place after every pause does not single out one request', async () => {
	// Every 10th request throttled, 10 in flight: each pause ends with the same number of requests
	// sent since the last 429; in a fixed order the same request would be the 10th every time.
	await withFaults({ latency_ms: 20, rate_429: 0.1, retry_after_s: 1 });
	const run = await runNode(h.origin, customerCreates('periodic', 100), true);
	const log = await admin<{ data: Array<{ status: number | null; body: { email?: string } }> }>(
		h.origin,
		'GET',
		'/requests?limit=2000',
	);
	const throttledPerItem = new Map<string, number>();
	for (const entry of log.data.filter((candidate) => candidate.status === 429)) {
		const email = String(entry.body.email);
		throttledPerItem.set(email, (throttledPerItem.get(email) ?? 0) + 1);
	}
	expectEveryItemOnce(run, 'periodic', 100);
	expect(Math.max(...throttledPerItem.values())).toBeLessThanOrEqual(4);
}, 60_000);

test("the trigger's registration whose answer is lost after the API made the hook: looked up by URL, one hook", async () => {
	await withFaults({});
	const webhookUrl = 'http://127.0.0.1:4399/webhook/lost-answer';
	const { credentialHelpers } = inProcessContext(
		{ authUrl: h.origin, clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'site', siteId: 1 },
		[],
	);
	// Every other request is processed, then its connection closed: the POST /hooks is the second.
	await admin(h.origin, 'POST', '/faults', { reset_after_rate: 0.5 });
	const trigger = fakeContext({
		webhookUrl,
		parameters: { events: ['CUSTOMER_CREATE'] },
		...credentialHelpers,
	});
	await activateWebhook(new AgencyCrmTrigger(), trigger.hook);
	const hooks = await admin<{ data: Array<{ id: number; url: string }> }>(h.origin, 'GET', '/hooks');
	expect(hooks.data.filter((hook) => hook.url === webhookUrl)).toHaveLength(1);
	const log = await admin<{ data: Array<{ method: string; path: string; faults: string[] }> }>(
		h.origin,
		'GET',
		'/requests',
	);
	expect(
		log.data.map((entry) => `${entry.method} ${entry.path.replace('/api/v2/site', '')} ${entry.faults.join()}`),
	).toEqual(['GET /hooks ', 'POST /hooks reset_after', 'GET /hooks ']);
});
