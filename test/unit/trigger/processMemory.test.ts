import { AgencyCrmTrigger } from '../../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { REMEMBERED_RECORDS } from '../../../nodes/AgencyCrmTrigger/memoryStore';
import {
	REMEMBERED_WORKFLOWS,
	ScopeMemory,
	keptScopes,
	releaseScope,
	scopeMemory,
} from '../../../nodes/AgencyCrmTrigger/processMemory';
import { status } from '../../support/fakeN8n';
import { NODE_NAME, TriggerWorld, customerUpdate, record } from '../../support/triggerWorld';

/** processMemory.ts: what one n8n process keeps, released with its workflow and bounded (issue 33, point 5). */
test('deactivating a workflow releases what this process kept of it', async () => {
	const world = new TriggerWorld();
	world.activatedBefore();
	const scope = `${world.stored.workflowId} ${NODE_NAME}`;
	await world.deliver(customerUpdate(5), {
		parameters: { dropRepeatedDeliveries: true },
		answers: [record({ id: 5 })],
	});
	await world.written();
	expect(scopeMemory(scope).decisions.size).toBe(1);
	await world.deactivate([status(204)]);
	// A scope asked for afresh is empty: the old one was released.
	expect(scopeMemory(scope).decisions.size).toBe(0);
	releaseScope(scope);
	expect(new AgencyCrmTrigger().description.name).toBe('agencyCrmTrigger');
});

test(`at most ${REMEMBERED_WORKFLOWS} workflows are kept, the least recently used forgotten first`, () => {
	for (let index = 0; index <= REMEMBERED_WORKFLOWS + 10; index++) scopeMemory(`bounded-${index} ${NODE_NAME}`);
	expect(keptScopes()).toBe(REMEMBERED_WORKFLOWS);
	expect(scopeMemory(`bounded-0 ${NODE_NAME}`).decisions.size).toBe(0);
});

test(`at most ${REMEMBERED_RECORDS} decisions per workflow, the oldest n8n answered forgotten first (one still unanswered stays)`, () => {
	const scope = new ScopeMemory();
	const seen = (at: number) => ({ state: 's', events: ['CUSTOMER_UPDATE'], at });
	scope.decide('pending', { ...seen(0), settled: new Promise(() => {}) });
	for (let index = 0; index < REMEMBERED_RECORDS; index++) {
		scope.decide(`customer:${index}`, {
			...seen(index + 1),
			outcome: 'accepted',
			settled: Promise.resolve('accepted'),
		});
	}
	expect(scope.decisions.size).toBe(REMEMBERED_RECORDS);
	expect(scope.decisions.has('pending')).toBe(true);
	expect(scope.decisions.has('customer:0')).toBe(false);
});

test('the progress moves once a minute at most, and never back', () => {
	const scope = new ScopeMemory();
	expect(scope.advance({ deliveredAt: 1_000_000 }, {})).toBe(true);
	expect(scope.advance({ deliveredAt: 1_030_000 }, {})).toBe(false);
	expect(scope.advance({ deliveredAt: 1_070_000 }, { deliveredAt: 1_050_000 })).toBe(false);
	expect(scope.advance({ deliveredAt: 1_120_000 }, { deliveredAt: 1_050_000 })).toBe(true);
	expect(scope.advance({ lastContactId: 7 }, { lastContactId: 9 })).toBe(false);
	expect(scope.advance({ lastContactId: 10 }, { lastContactId: 9 })).toBe(true);
	expect(scope.delivered).toEqual({ deliveredAt: 1_120_000, lastContactId: 10 });
});
