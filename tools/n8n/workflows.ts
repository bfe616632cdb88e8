import { randomUUID } from 'node:crypto';

import { NODE_TYPES } from './launcher';

/** Workflow JSON as `n8n import:workflow` takes it, built from short node descriptions. */

export interface NodeSpec {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	continueOnFail?: boolean;
	executeOnce?: boolean;
	/** Trigger nodes: the path part n8n puts in their webhook URL. */
	webhookId?: string;
}

export interface Credential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** An Agency CRM credential pointing at a sandbox client. */
export function sandboxCredential(
	id: string,
	authUrl: string,
	client: { clientId: string; clientSecret: string; siteId: number },
): Credential {
	return {
		id,
		name: `Agency CRM ${id}`,
		type: 'agencyCrmApi',
		data: {
			authUrl,
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			scope: 'site',
			siteId: client.siteId,
		},
	};
}

/** How a node names the Agency CRM credential it uses. */
export const credentialsOf = (credential: Credential) => ({
	agencyCrmApi: { id: credential.id, name: credential.name },
});

export function crmNode(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
	extra: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name,
		type: NODE_TYPES.action,
		typeVersion: 1,
		parameters,
		credentials: credentialsOf(credential),
		...extra,
	};
}

/** The Agency CRM Trigger, under the name n8n gives it, registering its hook for `webhookId`. */
export function triggerNode(credential: Credential, webhookId: string, parameters: Record<string, unknown>): NodeSpec {
	return {
		name: 'Agency CRM Trigger',
		type: NODE_TYPES.trigger,
		typeVersion: 1.1,
		webhookId,
		parameters,
		credentials: credentialsOf(credential),
	};
}

/**
 * n8n's Webhook node, started by a POST to `path`: it answers on receipt unless `respond` says
 * otherwise (`{ responseMode: 'lastNode', responseData: … }`).
 */
export function webhookNode(path: string, respond: Record<string, unknown> = { responseMode: 'onReceived' }): NodeSpec {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, ...respond, options: {} },
	};
}

/** A Code node that emits `count` items `{index}`, so that a node runs once per item. */
export function itemsNode(name: string, jsonItems: unknown[]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(jsonItems)}.map((json) => ({ json }));` },
	};
}

/** A Manual Trigger followed by the nodes, each connected to the next. */
export function linearWorkflow(id: string, nodes: NodeSpec[]) {
	return chainedWorkflow(id, [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 }, ...nodes]);
}

/** The nodes, the first being the trigger, each connected to the next. */
export function chainedWorkflow(id: string, all: NodeSpec[]) {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index < all.length - 1; index++) {
		connections[all[index].name] = { main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		connections,
		nodes: all.map((node, index) => ({
			id: randomUUID(),
			name: node.name,
			type: node.type,
			typeVersion: node.typeVersion ?? 1,
			position: [index * 220, 0],
			parameters: node.parameters ?? {},
			...(node.credentials ? { credentials: node.credentials } : {}),
			...(node.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			...(node.executeOnce ? { executeOnce: true } : {}),
			...(node.webhookId ? { webhookId: node.webhookId } : {}),
		})),
	};
}

/** Resource locator value as the editor stores it. */
export function byId(value: string | number) {
	return { __rl: true, mode: 'id', value: String(value) };
}
