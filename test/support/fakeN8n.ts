import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IWebhookFunctions,
	NodeExecutionHint,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { ApiResponse } from '../../nodes/shared/transport';

/**
 * The one fake of the n8n contexts our nodes run in (hook, webhook, execute), for fast tests of
 * the stateful parts without an n8n install. Requests go to a scripted
 * `httpRequestWithAuthentication`; static data is held by n8n-workflow's own `Workflow`, so it
 * is observed and marked changed exactly as in n8n. The real-n8n tests cover what n8n adds.
 */

export type ScriptedAnswer = ApiResponse | Error;

/** Binary data of an input item, as n8n holds it. */
export interface Binary {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

export const ok = (body: unknown): ApiResponse => ({ statusCode: 200, body, headers: {} });
export const status = (statusCode: number, headers: Record<string, string> = {}, body: unknown = {}): ApiResponse => ({
	statusCode,
	body,
	headers,
});

/** An error as the API answers it, `{error: {code, message, details}, request_id}`; its request id in the body and/or a header. */
export function errorAnswer(
	statusCode: number,
	code: string,
	message: string,
	{ requestId, headerId, details }: { requestId?: string; headerId?: string; details?: unknown[] } = {},
): ApiResponse {
	return {
		statusCode,
		body: {
			error: { code, message, ...(details ? { details } : {}) },
			...(requestId ? { request_id: requestId } : {}),
		},
		headers: headerId ? { 'x-request-id': headerId } : {},
	};
}

/**
 * A scripted httpRequestWithAuthentication: each call takes the next scripted answer (a full
 * response, or an error to throw) and records the options it was given.
 */
export function scriptedRequests(answers: ScriptedAnswer[]) {
	const calls: IHttpRequestOptions[] = [];
	async function httpRequestWithAuthentication(_credentialType: string, options: IHttpRequestOptions) {
		calls.push(JSON.parse(JSON.stringify(options)) as IHttpRequestOptions);
		const answer = answers.shift();
		if (!answer) throw new Error(`no scripted answer left for ${options.method} ${options.url}`);
		if (answer instanceof Error) throw answer;
		return answer;
	}
	return { calls, httpRequestWithAuthentication, unused: () => answers.length };
}

/** A request as the tests compare it: method, relative path, query and JSON body. */
export interface SentRequest {
	method?: string;
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
}

export interface FakeContextOptions {
	/** Answers to the requests, in order. */
	answers?: ScriptedAnswer[];
	/** Instead of scripted answers: a real helper (test/support/inprocess/context.ts sends over HTTP). */
	httpRequestWithAuthentication?: (
		credentialType: string,
		options: IHttpRequestOptions,
		additional?: IAdditionalCredentialOptions,
	) => Promise<unknown>;
	/** What n8n's getCredentials gives (a copy each time): a scripted credential by default. */
	getCredentials?: () => Promise<ICredentialDataDecryptedObject>;
	/** The id of the credential the node names (`credential-1` when left out). */
	credentialId?: string;
	/** Told what the node answers a delivery, when it answers (to pass it on to a real HTTP response). */
	onResponse?: (statusCode: number | undefined, body: unknown) => void;
	/** The workflow's id (`workflow-1` when left out): the trigger's process memory is kept by workflow. */
	workflowId?: string;
	/** The webhook a delivery came to: `default`, or `setup` (the trigger's answering webhook). */
	webhookName?: string;
	/** How n8n activates (`activate`, `init` at its start, `update`…): hook contexts. */
	activationMode?: string;
	/** Execute contexts: what `$(node).first().json` gives, by node name (n8n's workflow data proxy). */
	firstItems?: Record<string, IDataObject>;
	/** Execute contexts: the nodes before this one, with their parameters (n8n's getParentNodes). */
	parentNodes?: Array<{ name: string; type: string; typeVersion: number; parameters?: IDataObject }>;
	/** n8n's plain `httpRequest` helper (the catch-up's replays): records its calls when left out. */
	httpRequest?: (options: IHttpRequestOptions) => Promise<unknown>;
	/** Node parameters by name; a parameter absent here takes the fallback the node passes. */
	parameters?: Record<string, unknown>;
	/** Execute contexts: the parameters of each input item instead (the input has one item per entry). */
	itemParameters?: Array<Record<string, unknown>>;
	/** Execute contexts: each item's binary data, by item index and property name. */
	binaries?: Array<Record<string, Binary>>;
	continueOnFail?: boolean;
	/** The workflow's time zone (Europe/Paris when left out). */
	timezone?: string;
	/** The workflow's static data as stored in n8n's database (every node's), copied in. */
	staticData?: IDataObject;
	/** `trigger` (activation), `webhook` (a production delivery), `manual` (editor test), `internal`… */
	mode?: WorkflowExecuteMode;
	webhookUrl?: string;
	/** The delivery: its JSON body and its headers (names are lower-cased, as Express gives them). */
	body?: unknown;
	headers?: Record<string, string>;
	/** Execute contexts: the input items. */
	items?: INodeExecutionData[];
	nodeName?: string;
	/** The node's version (1 when left out), which decides where the action node reads its inputs. */
	typeVersion?: number;
}

/** The Workflow only looks node types up to fill parameter defaults; the fake's node has none. */
const NO_NODE_TYPES = { getByNameAndVersion: () => undefined } as unknown as INodeTypes;

export function fakeContext(options: FakeContextOptions = {}) {
	const node: INode = {
		id: 'node-1',
		name: options.nodeName ?? 'Agency CRM',
		type: 'n8n-nodes-agency-crm.fake',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: {},
		credentials: { agencyCrmApi: { id: options.credentialId ?? 'credential-1', name: 'Agency CRM account' } },
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'workflow-1',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: NO_NODE_TYPES,
		staticData: structuredClone(options.staticData ?? {}),
	});
	const requests = scriptedRequests(options.answers ?? []);
	const parameter = (name: string, fallback: unknown, itemIndex = 0, extractValue = false) => {
		const parameters = options.itemParameters?.[itemIndex] ?? options.parameters ?? {};
		const value = parameters[name];
		if (value === undefined) {
			if (fallback === undefined) throw new Error(`No parameter ${name} and no fallback`);
			return fallback;
		}
		// n8n hands a resource locator's value alone when asked to extract it.
		return extractValue && typeof value === 'object' && value !== null && '__rl' in value
			? (value as unknown as { value: unknown }).value
			: value;
	};
	const response: { statusCode?: number; body?: unknown } = {};
	const listeners: Record<string, Array<() => void>> = {};
	// Express's response as far as the nodes use it: a status, a JSON body, and its `finish` (answered)
	// or `close` (the sender gone) events, which the trigger's memory waits for.
	const responseObject = {
		statusCode: 200,
		headersSent: false,
		status(code: number) {
			response.statusCode = code;
			responseObject.statusCode = code;
			return responseObject;
		},
		json(body: unknown) {
			if (responseObject.headersSent) throw new Error('Cannot set headers after they are sent to the client');
			responseObject.headersSent = true;
			response.body = body;
			options.onResponse?.(response.statusCode, body);
			responseObject.emit('finish');
			return responseObject;
		},
		once(event: string, listener: () => void) {
			(listeners[event] ??= []).push(listener);
			return responseObject;
		},
		emit(event: string) {
			const called = listeners[event] ?? [];
			listeners[event] = [];
			for (const listener of called) listener();
			return called.length > 0;
		},
	};
	const httpRequests: IHttpRequestOptions[] = [];
	const sentResponses: unknown[] = [];
	const headers = Object.fromEntries(
		Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const logs: Array<{ level: string; message: string }> = [];
	const hints: NodeExecutionHint[] = [];
	const binaries = options.binaries ?? [];
	const log = (level: string) => (message: string) => logs.push({ level, message });
	let credentialReads = 0;
	const getCredentials = async () => {
		credentialReads++;
		return (await options.getCredentials?.()) ?? { accessToken: 'scripted-token', domain: 'https://api.example.com' };
	};
	const shared = {
		getNode: () => node,
		getWorkflow: () => ({ id: workflow.id, name: 'Test workflow', active: true }),
		getCredentials,
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => options.activationMode ?? 'activate',
		getWorkflowStaticData: (type: 'global' | 'node') => workflow.getStaticData(type, node),
		getWebhookName: () => options.webhookName ?? 'default',
		// The answering webhook's URL ends in /answer where the default one ends in /webhook.
		getNodeWebhookUrl: (name: string) =>
			name === 'setup' ? options.webhookUrl?.replace(/\/webhook$/, '/answer') : options.webhookUrl,
		logger: { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') },
		helpers: {
			httpRequestWithAuthentication: options.httpRequestWithAuthentication ?? requests.httpRequestWithAuthentication,
			async httpRequest(requestOptions: IHttpRequestOptions) {
				httpRequests.push(JSON.parse(JSON.stringify(requestOptions)) as IHttpRequestOptions);
				return options.httpRequest ? await options.httpRequest(requestOptions) : { statusCode: 200, body: {} };
			},
		},
	};
	// Hook and webhook contexts have no items: getNodeParameter(name, fallback).
	const byName = (name: string, fallback?: unknown) => parameter(name, fallback);
	const hook = { ...shared, getNodeParameter: byName } as unknown as IHookFunctions;
	const webhook = {
		...shared,
		getNodeParameter: byName,
		getBodyData: () => options.body ?? {},
		getHeaderData: () => headers,
		getResponseObject: () => responseObject,
	} as unknown as IWebhookFunctions;
	const execute = {
		...shared,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, extract?: { extractValue?: boolean }) =>
			parameter(name, fallback, itemIndex, extract?.extractValue),
		getInputData: (): INodeExecutionData[] =>
			options.itemParameters?.map((_, index) => ({ json: { index } })) ?? options.items ?? [{ json: {} }],
		getTimezone: () => options.timezone ?? 'Europe/Paris',
		continueOnFail: () => options.continueOnFail ?? false,
		getParentNodes: () => options.parentNodes ?? [],
		getWorkflowDataProxy: () => ({
			$: (name: string) => {
				const json = options.firstItems?.[name];
				if (!json) throw new Error(`No node called "${name}" ran`);
				return { first: () => ({ json }) };
			},
		}),
		sendResponse: async (answer: unknown) => {
			sentResponses.push(answer);
		},
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		helpers: {
			...shared.helpers,
			assertBinaryData(itemIndex: number, name: string) {
				const binary = binaries[itemIndex]?.[name];
				if (!binary) throw new Error(`No binary data "${name}" on item ${itemIndex}`);
				return { data: '', fileName: binary.fileName, mimeType: binary.mimeType };
			},
			async getBinaryDataBuffer(itemIndex: number, name: string) {
				return binaries[itemIndex][name].data;
			},
			async prepareBinaryData(data: Buffer, fileName: string, mimeType: string) {
				return { data: data.toString('base64'), fileName, mimeType, fileSize: String(data.length) };
			},
		},
	} as unknown as IExecuteFunctions;

	return {
		hook,
		webhook,
		execute,
		/** n8n's Workflow around the node, whose static data n8n saves. */
		workflow,
		/** Every request sent, with the options given to n8n's helper. */
		calls: requests.calls,
		/** Every request sent, as `METHOD /path`. */
		routes: () => requests.calls.map(({ method, url }) => `${method} ${url}`),
		/** Every request sent, reduced to what the API sees of it. */
		requests: (): SentRequest[] =>
			requests.calls.map(({ method, url, qs, body }) => ({ method, url, qs, body }) as SentRequest),
		/** Scripted answers no request consumed. */
		unusedAnswers: requests.unused,
		/** How many times the node read its credential. */
		credentialReads: () => credentialReads,
		/** What the node answered the delivery with. */
		response,
		/** The response object n8n hands the node (to answer for n8n, as StoredStaticData does). */
		responseObject,
		/** The calls of n8n's plain httpRequest helper. */
		httpRequests,
		/** What an execute context sent as the webhook's answer (sendResponse). */
		sentResponses,
		logs,
		/** The execution hints the node added (input sent as given against a guess). */
		hints,
		/**
		 * What n8n writes back to the database after the node returns: the whole static data, and
		 * only when it was marked changed (n8n's WorkflowStaticDataService.saveStaticData).
		 */
		savedStaticData(): IDataObject | undefined {
			if (workflow.staticData.__dataChanged !== true) return undefined;
			return JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		},
	};
}

export type FakeContext = ReturnType<typeof fakeContext>;

/**
 * The static data in the workflow's database row, as n8n handles it around a node: each hook call
 * and each delivery starts from the stored copy, in whichever process runs it, and what the node
 * changed is written back, whole, once it has returned, never when it threw (n8n's
 * live-webhooks.ts and active-workflow-manager.ts, through WorkflowStaticDataService). A delivery
 * that starts the workflow without answering is answered by n8n once it has stored the execution:
 * with `startStatus` (200 by default; a 500 plays n8n failing to store it, and then it writes
 * nothing), after starting it on a new Workflow over the same static data, as n8n 2.x does. Each instance is a workflow of its own (its id), so that no test sees another's
 * process memory.
 */
export class StoredStaticData {
	data: IDataObject = {};
	readonly workflowId = `workflow-${Math.random().toString(36).slice(2)}`;

	async around<T>(options: FakeContextOptions, call: (fake: FakeContext) => Promise<T>, startStatus = 200) {
		const fake = fakeContext({ workflowId: this.workflowId, ...options, staticData: this.data });
		const result = await call(fake);
		const starts = (result as { workflowData?: unknown; noWebhookResponse?: boolean } | undefined)?.workflowData;
		if (starts && fake.response.statusCode === undefined) {
			// As n8n 2.x: the execution starts on a new Workflow over the same static data, which clears
			// its "changed" mark; then n8n reads the answer's body, answers, and saves what is marked.
			new Workflow({
				id: this.workflowId,
				nodes: [],
				connections: {},
				active: true,
				nodeTypes: NO_NODE_TYPES,
				staticData: fake.workflow.staticData,
			});
			if (startStatus >= 500) {
				fake.responseObject.status(startStatus).json({ message: 'Error in workflow' });
				return { result, fake };
			}
			fake.responseObject.status(startStatus).json((result as { webhookResponse?: unknown }).webhookResponse);
		}
		this.save(fake);
		// A result that starts nothing and leaves the answer to n8n: answered once the static data is saved.
		const { webhookResponse } = (result ?? {}) as { webhookResponse?: unknown; noWebhookResponse?: boolean };
		if (!starts && webhookResponse !== undefined && fake.response.statusCode === undefined) {
			fake.responseObject.status(200).json(webhookResponse);
		}
		return { result, fake };
	}

	/** Writes back what one context changed, as n8n does after the node returned. */
	save(fake: FakeContext) {
		this.data = fake.savedStaticData() ?? this.data;
	}
}

/** n8n's activation of a webhook node: checkExists, then create when it says no. */
export async function activateWebhook(node: INodeType, context: IHookFunctions) {
	const methods = node.webhookMethods?.default;
	if (!methods) throw new Error('The node has no webhook methods');
	if (!(await methods.checkExists.call(context))) await methods.create.call(context);
}
