import { CONTACT_READ_INCLUDES } from '../nodes/AgencyCrm/catalogue/resources/contact';
import { randomUUID } from 'node:crypto';

import { DEFAULT_CONCURRENCY } from '../nodes/AgencyCrm/catalogue/nodeOptions';
import type { Credential, NodeSpec } from '../tools/n8n/workflows';
import { byId, chainedWorkflow, credentialsOf, crmNode, triggerNode, webhookNode } from '../tools/n8n/workflows';

/**
 * The workflows `npm run bench` runs in real n8n: each candidate of a benchmark is one workflow,
 * started by a POST to its Webhook node, which answers once the workflow has finished. Built the
 * way a user builds them in the editor: this package's node with its defaults, n8n's HTTP Request
 * node with its own options (batching, pagination) and a token fetched by a first HTTP Request.
 */

/** A candidate: the workflow, and the nodes whose own execution time is the candidate's. */
export interface Candidate {
	name: string;
	workflow: ReturnType<typeof chainedWorkflow>;
	/** The production webhook path that starts it. */
	path: string;
	/** The nodes that do the work; their `executionTime`s add up to the candidate's node time. */
	timedNodes: string[];
	/** The node whose output items are checked. */
	outputNode: string;
}

const WEBHOOK = 'Webhook';

/** Answers once the last node has finished, without sending its items back. */
const webhook = (path: string) => webhookNode(path, { responseMode: 'lastNode', responseData: 'noData' });

/** `key` names the workflow (`wfBench…`, 16 characters as n8n's ids) and its webhook path. */
function candidate(key: string, name: string, nodes: NodeSpec[], timedNodes: string[]): Candidate {
	const path = `agency-crm-bench-${key.toLowerCase()}`;
	return {
		name,
		path,
		workflow: chainedWorkflow(`wfBench${key}`.padEnd(16, 'x'), [webhook(path), ...nodes]),
		timedNodes,
		outputNode: timedNodes[timedNodes.length - 1],
	};
}

/** `count` items `{index, email}`, the count and a run tag taken from the webhook's body. */
function itemsFromRequest(): NodeSpec {
	return {
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			jsCode: [
				`const { count, tag } = $('${WEBHOOK}').first().json.body;`,
				'return Array.from({ length: count }, (_, index) => ({',
				"\tjson: { index, email: 'bench.' + tag + '.' + index + '@example.com' },",
				'}));',
			].join('\n'),
		},
	};
}

/** An HTTP Basic Auth credential of n8n (Generic Credential Type), as a user would make for the token URL. */
export function basicAuthCredential(id: string, user: string, password: string): Credential {
	return { id, name: `Basic ${id}`, type: 'httpBasicAuth', data: { user, password } };
}

/** The token request a user of the HTTP Request node makes first (the API's client credentials exchange). */
function tokenRequest(origin: string, basic: Credential): NodeSpec {
	return {
		name: 'Token',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${origin}/api/client/token/site`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			sendBody: true,
			contentType: 'form-urlencoded',
			bodyParameters: { parameters: [{ name: 'site_id', value: '1' }] },
			options: {},
		},
		credentials: { httpBasicAuth: { id: basic.id, name: basic.name } },
	};
}

const bearerHeader = {
	sendHeaders: true,
	headerParameters: {
		parameters: [{ name: 'Authorization', value: "={{ 'Bearer ' + $('Token').first().json.access_token }}" }],
	},
};

export const CREATE_CONCURRENCY_ONE = 'this node, Concurrency 1';
export const CREATE_DEFAULT = `this node, Concurrency ${DEFAULT_CONCURRENCY} (default)`;
export const CREATE_HTTP_UNBATCHED = 'HTTP Request node, no credential (token from a first node), no batching';
export const CREATE_HTTP_CREDENTIAL = "HTTP Request node with this package's credential, no batching";
export const CREATE_HTTP_BATCHED = 'HTTP Request node, no credential, batching 10 items / 20 ms';

/**
 * Customer creates, one per item: this node at two concurrencies, and the HTTP Request node with a
 * token header written by an expression, with this package's credential (a predefined credential
 * type: n8n reads it for every request), and with its batching option.
 */
export function createCandidates(origin: string, credential: Credential, basic: Credential): Candidate[] {
	const create = (concurrency: number) =>
		crmNode('Create Customer', credential, {
			resource: 'customer',
			operation: 'create',
			agencyId: byId(101),
			lastname: '=Bench {{ $json.index }}',
			output: 'simple',
			additionalFields: { email: '={{ $json.email }}', concurrency },
		});
	const httpCreate = (authentication: object, batching: Record<string, unknown> = {}): NodeSpec => ({
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${origin}/api/v2/site/customers`,
			...authentication,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={ "agency_id": 101, "lastname": "Bench {{ $json.index }}", "email": "{{ $json.email }}" }',
			options: batching,
		},
	});
	const withCredential = {
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'agencyCrmApi',
	};
	return [
		candidate('CreateOne', CREATE_CONCURRENCY_ONE, [itemsFromRequest(), create(1)], ['Create Customer']),
		candidate('CreateDef', CREATE_DEFAULT, [itemsFromRequest(), create(DEFAULT_CONCURRENCY)], ['Create Customer']),
		candidate(
			'CreateHtp',
			CREATE_HTTP_UNBATCHED,
			[tokenRequest(origin, basic), itemsFromRequest(), httpCreate(bearerHeader)],
			['HTTP Request'],
		),
		candidate(
			'CreateCrd',
			CREATE_HTTP_CREDENTIAL,
			[itemsFromRequest(), { ...httpCreate(withCredential), credentials: credentialsOf(credential) }],
			['HTTP Request'],
		),
		candidate(
			'CreateBat',
			CREATE_HTTP_BATCHED,
			[
				tokenRequest(origin, basic),
				itemsFromRequest(),
				httpCreate(bearerHeader, { batching: { batch: { batchSize: 10, batchInterval: 20 } } }),
			],
			['HTTP Request'],
		),
	];
}

export const LIST_RAW = 'this node, Output Raw';
export const LIST_SIMPLE = 'this node, Output Simplified (default)';
export const LIST_FLOOR = "the floor: a minimal node on n8n's authenticated helper (bench/floor)";
export const LIST_HTTP = 'HTTP Request node (pagination) + Split Out';
export const RAW_LOOP = 'raw fetch loop';

/**
 * Return All of every customer: this node (Raw and Simplified), the floor a node can reach on n8n's
 * authenticated helper (bench/floor, in n8n's custom folder: see installFloorNode), and HTTP Request
 * with pagination + Split Out.
 */
export function listCandidates(origin: string, credential: Credential, basic: Credential): Candidate[] {
	const getAll = (output: string) =>
		crmNode('Get Many Customers', credential, { resource: 'customer', operation: 'getAll', returnAll: true, output });
	const floor: NodeSpec = {
		name: 'Floor',
		type: 'CUSTOM.agencyCrmFloor',
		typeVersion: 1,
		credentials: credentialsOf(credential),
	};
	const httpPages: NodeSpec = {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			// What the node asks of every contact read: the same records, like for like.
			url: `${origin}/api/v2/site/customers/search?include=${CONTACT_READ_INCLUDES.join(',')}`,
			...bearerHeader,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '{ "per_page": 200 }',
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [{ type: 'body', name: 'cursor', value: '={{ $response.body.meta.next_cursor }}' }],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.meta.has_more }}',
					},
				},
			},
		},
	};
	const splitOut: NodeSpec = {
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} },
	};
	return [
		candidate('ListRaw', LIST_RAW, [getAll('raw')], ['Get Many Customers']),
		candidate('ListSimpl', LIST_SIMPLE, [getAll('simple')], ['Get Many Customers']),
		candidate('ListFloor', LIST_FLOOR, [floor], ['Floor']),
		candidate('ListHttp', LIST_HTTP, [tokenRequest(origin, basic), httpPages, splitOut], ['HTTP Request', 'Split Out']),
	];
}

export const BURST_TRIGGER = 'Agency CRM Trigger (version 2, its defaults)';
export const BURST_WEBHOOK = "n8n's Webhook node (answers on receipt, does nothing else)";
export const BURST_CHARGEBEE =
	"n8n's Chargebee Trigger (built in: constant description, no credential, no registration)";
const LAZY = ', N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true';
export const BURST_TRIGGER_LAZY = `${BURST_TRIGGER}${LAZY}`;
export const BURST_WEBHOOK_LAZY = `${BURST_WEBHOOK}${LAZY}`;
export const TRIGGER_NODE = 'Agency CRM Trigger';

/**
 * The trigger the burst is sent to (registered on activation), as a new node is: version 2 with its
 * defaults (Fetch Full Record, Drop Repeated Deliveries and the catch-up on).
 */
export function triggerWorkflow(credential: Credential) {
	return chainedWorkflow('wfBenchTrigger01', [
		{ ...triggerNode(credential, randomUUID(), { events: ['CUSTOMER_UPDATE'] }), typeVersion: 2 },
	]);
}

/**
 * A one-node workflow of one of n8n's own triggers, which registers nothing: the bench registers its
 * production URL as a hook in the sandbox, as a user would.
 */
export interface HookedWorkflow {
	workflow: ReturnType<typeof chainedWorkflow>;
	/** Its production webhook's path, after `/webhook/`. */
	path: string;
	/** The resource id its run's first item carries (production's deliveries carry no delivery id). */
	resourceIdOf: (json: Record<string, unknown>) => unknown;
}

const BASELINE_PATH = 'agency-crm-bench-burst-baseline';

/** n8n's own floor for the same burst: a Webhook node that answers at once and starts a one-node workflow. */
export function baselineWebhookWorkflow(): HookedWorkflow {
	return {
		workflow: chainedWorkflow('wfBenchBaseline1', [webhookNode(BASELINE_PATH)]),
		path: BASELINE_PATH,
		resourceIdOf: (json) => (json.body as { resource_id?: unknown } | undefined)?.resource_id,
	};
}

/**
 * n8n's floor for any trigger that is not its Webhook node: its Chargebee Trigger, whose description
 * is constant, with no credential and nothing to register. It answers on receipt and starts the
 * workflow when the body's `event_type` is one of its Events, `*` taking any (the sandbox sends
 * CUSTOMER_UPDATE); its item is the body, `{event_type, resource_id}`.
 */
export function chargebeeWorkflow(): HookedWorkflow {
	const webhookId = randomUUID();
	const node: NodeSpec = {
		name: 'Chargebee Trigger',
		type: 'n8n-nodes-base.chargebeeTrigger',
		typeVersion: 1,
		webhookId,
		parameters: { events: ['*'] },
	};
	return {
		workflow: chainedWorkflow('wfBenchChargebee', [node]),
		// The path of its webhook description, under the node's webhook id (n8n's URL for a trigger node).
		path: `${webhookId}/webhook`,
		resourceIdOf: (json) => json.resource_id,
	};
}
