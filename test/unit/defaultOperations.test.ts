import { NodeHelpers } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { findEndpoint, RESOURCES } from '../../nodes/AgencyCrm/catalogue';
import { isRead } from '../../nodes/AgencyCrm/catalogue/describe';

/**
 * Issue 29, point 6: a new node, and the node an AI Agent gets as a tool (the same description, with
 * the same defaults), opens on a read: Contact → Get Many, not Contact → Create, a write that needed
 * setting up. Version 1 keeps 0.1.0's defaults, which workflows saved with it rely on (n8n leaves
 * defaults out of a saved workflow).
 */

const description = new AgencyCrm().description;

/** The parameters n8n gives a node of this version as it is added, for the resource chosen. */
function newNode(typeVersion: number, resource?: string): INodeParameters {
	const given = resource ? { resource } : {};
	return NodeHelpers.getNodeParameters(description.properties, given, true, false, { typeVersion }, description)!;
}

test('a new node is version 2, and opens on Contact → Get Many', () => {
	expect(description.defaultVersion).toBe(2);
	expect(newNode(2)).toMatchObject({ resource: 'customer', operation: 'getAll' });
});

test.each(RESOURCES.map((resource) => [resource.name, resource.value] as const))(
	'version 2, %s: opens on a read where it has one (its list first)',
	(_, resource) => {
		const { operation } = newNode(2, resource);
		const endpoints = RESOURCES.find((candidate) => candidate.value === resource)!.endpoints;
		const opened = findEndpoint(resource, String(operation))!;
		if (endpoints.some(isRead)) expect(isRead(opened)).toBe(true);
		if (endpoints.some((endpoint) => endpoint.pagination)) expect(opened.pagination).toBeDefined();
	},
);

test('version 1 still opens on what 0.1.0 did: Contact → Create', () => {
	expect(newNode(1)).toMatchObject({ resource: 'customer', operation: 'create' });
});
