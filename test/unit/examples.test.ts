import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import type { ExampleWorkflow } from '../../tools/n8n/examples';
import { readExamples } from '../../tools/n8n/examples';
import { NODE_TYPES } from '../../tools/n8n/launcher';
import { parameterShapes } from '../support/parameterShapes';

/**
 * The example files as a user first sees them in the editor: a sticky that explains each, placed
 * beside the nodes, plain names, the words of n8n 2.x and 1.x for turning a trigger on, and Agency
 * CRM nodes of the current version whose parameters that version has. test/real-n8n/examples.test.ts
 * runs them.
 */

interface CanvasNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
}

/** The size n8n's canvas gives a node (a square of 100 at its position). */
const NODE_SIZE = 100;
const STICKY = 'n8n-nodes-base.stickyNote';

const examples = [...readExamples()].map(([file, workflow]) => [file, workflow] as const);
const nodesOf = (workflow: ExampleWorkflow) => workflow.nodes as unknown as CanvasNode[];
const stickiesOf = (workflow: ExampleWorkflow) => nodesOf(workflow).filter((node) => node.type === STICKY);
const textOf = (sticky: CanvasNode) => String(sticky.parameters.content).replace(/\*/g, '');

describe.each(examples)('%s', (_, workflow) => {
	test('has one sticky, over no node', () => {
		const [sticky, ...more] = stickiesOf(workflow);
		expect([sticky?.name, more]).toEqual([expect.any(String), []]);
		const [left, top] = sticky.position;
		const { width, height } = sticky.parameters as { width: number; height: number };
		const covered = nodesOf(workflow).filter(({ type, position: [x, y] }) => {
			const apart = x + NODE_SIZE <= left || x >= left + width || y + NODE_SIZE <= top || y >= top + height;
			return type !== STICKY && !apart;
		});
		expect(covered.map((node) => node.name)).toEqual([]);
	});

	test('names things in plain words, as the node does (contact, property, activity)', () => {
		const names = [workflow.name, ...nodesOf(workflow).map((node) => node.name), textOf(stickiesOf(workflow)[0])];
		expect(names.filter((name) => /use case|\bcustomers?\b|\bproducts?\b|\bAction →/i.test(name))).toEqual([]);
	});

	test('a workflow that starts on its own says how to turn it on in n8n 2.x and 1.x', () => {
		const startsOnItsOwn = nodesOf(workflow).some((node) =>
			[NODE_TYPES.trigger, 'n8n-nodes-base.scheduleTrigger'].includes(node.type),
		);
		if (startsOnItsOwn) expect(textOf(stickiesOf(workflow)[0])).toContain('Publish (n8n 2.x) / Activate (n8n 1.x)');
		expect(textOf(stickiesOf(workflow)[0])).not.toMatch(/\bactivate the workflow\b/i);
	});

	test('its Agency CRM nodes are version 2, with parameters version 2 has', () => {
		const shapes = parameterShapes(new AgencyCrm().description.properties, 2);
		for (const node of nodesOf(workflow).filter((candidate) => candidate.type === NODE_TYPES.action)) {
			const { resource, operation, ...rest } = node.parameters as Record<string, unknown>;
			const known = {
				...shapes['*:*'],
				...shapes[`${String(resource)}:*`],
				...shapes[`${String(resource)}:${String(operation)}`],
			};
			const paths = Object.entries(rest).flatMap(([name, value]) =>
				known[name]?.type === 'collection' ? Object.keys(value as object).map((option) => `${name}.${option}`) : [name],
			);
			expect([node.name, node.typeVersion, paths.filter((path) => !known[path])]).toEqual([node.name, 2, []]);
		}
	});
});

/**
 * n8n's Execute workflow button starts from a Schedule Trigger rather than a Manual Trigger beside it
 * (n8n 2.41 ranks form, webhook, community, then schedule triggers before the manual one): where both
 * are there, the sticky must say the button starts from the schedule, not send users to the manual start.
 */
test('a sticky says which trigger the Execute workflow button starts from', () => {
	for (const [, workflow] of examples) {
		const schedule = nodesOf(workflow).find((node) => node.type === 'n8n-nodes-base.scheduleTrigger');
		const manual = nodesOf(workflow).some((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!schedule || !manual) continue;
		expect(textOf(stickiesOf(workflow)[0])).toContain(`Execute workflow: the editor starts it from ${schedule.name}`);
	}
});
