import { createHash } from 'node:crypto';

import type { IDataObject, IHttpRequestOptions, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';

import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { JOURNAL_KEY, scopeMemory } from '../../nodes/AgencyCrmTrigger/memory/scope';
import type { FakeContextOptions, ScriptedAnswer } from './fakeN8n';
import { StoredStaticData, activateWebhook, fakeContext, ok } from './fakeN8n';
import { waitFor } from './waitFor';

/**
 * The trigger's unit tests' world (test/unit/trigger/): one workflow whose static data `stored`
 * plays the workflow's database row (each activation and delivery starts from it, and gets back
 * what the node changed once it returned, as in n8n), and n8n taking the deliveries the trigger
 * sends to its own webhook (journals, catch-up replays) through the trigger, on that row.
 */
export const NODE_NAME = 'Agency CRM Trigger';
export const PRODUCTION_URL = 'https://n8n.example.com/webhook/3f1c/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/3f1c/webhook';
export const OLD_URL = 'http://old-host:5678/webhook/3f1c/webhook';
export const SECRET_HEADER = 'x-agency-crm-secret';
export const SECRET = 'a1'.repeat(32);
export const EVENTS = ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'];

/** A registration keeps the SHA-256 digest of its secret, never the secret (n8n copies static data into executions). */
export const digestOf = (secret: unknown) => createHash('sha256').update(String(secret)).digest('hex');

/** What production delivers: the event and the record's id, nothing else. */
export const customerUpdate = (id: number) => ({ event_type: 'CUSTOMER_UPDATE', resource_id: id });
export const record = (body: IDataObject) => ok({ data: body });

export const started = (result: IWebhookResponseData | undefined) =>
	(result?.workflowData?.[0] ?? []).map((item) => item.json);

export interface DeliveryOptions {
	answers?: ScriptedAnswer[];
	parameters?: Record<string, unknown>;
	secret?: string | null;
	credentialId?: string;
	webhookName?: string;
	/** What n8n answers once the node returned a workflow to start (a 500: it could not store the execution). */
	startStatus?: number;
}

export class TriggerWorld {
	readonly stored = new StoredStaticData();
	/** The bodies of the deliveries the trigger sent its own webhook, in order. */
	readonly selfDeliveries: IDataObject[] = [];
	/** Whether n8n takes what the trigger sends its own webhook (false: as an n8n that cannot reach its URL). */
	selfReachable = true;
	/** What n8n answers every delivery the trigger sends itself, when set (a status it does not retry). */
	selfRefusal: number | undefined;
	/** The workflow's parameters, as the deliveries the trigger sends itself find them. */
	selfParameters: Record<string, unknown> = {};
	/** What the API answers the read of a record a replay names (by default, a record with its id). */
	recordAnswer: (notification: IDataObject) => ScriptedAnswer = (notification) =>
		record({ id: notification.resource_id, version: 1 });
	/** The items the replays started, in order. */
	readonly replayed: IDataObject[] = [];
	/** What the API answers the replay a journal starts (its searches), taken by the next journal. */
	journalAnswers: ScriptedAnswer[] = [];

	nodeData = () => (this.stored.data[`node:${NODE_NAME}`] ?? {}) as IDataObject;

	/** The state of a workflow activated before: its hook 7 with the secret, at the production URL. */
	activatedBefore(url = PRODUCTION_URL, extra: IDataObject = {}) {
		this.stored.data = {
			[`node:${NODE_NAME}`]: { production: { hookId: 7, secretDigest: digestOf(SECRET), webhookUrl: url }, ...extra },
		};
	}

	/** n8n taking a delivery the trigger sends its own webhook: through the trigger, on the stored row. */
	readonly selfDelivery = async (options: IHttpRequestOptions) => {
		const body = options.body as IDataObject;
		this.selfDeliveries.push(body);
		if (!this.selfReachable) throw new Error('connect ECONNREFUSED');
		if (this.selfRefusal !== undefined) return { statusCode: this.selfRefusal, body: {} };
		const secret = (options.headers as IDataObject)[SECRET_HEADER] as string;
		const answers = body[JOURNAL_KEY] ? this.journalAnswers.splice(0) : [this.recordAnswer(body)];
		const { fake, result } = await this.stored.around(
			this.deliveryOptions(body, { secret, answers, parameters: this.selfParameters }),
			async (context) => new AgencyCrmTrigger().webhook.call(context.webhook),
		);
		this.replayed.push(...started(result));
		return { statusCode: fake.response.statusCode ?? 200, body: fake.response.body };
	};

	hookOptions(
		answers: ScriptedAnswer[],
		mode: WorkflowExecuteMode,
		url: string,
		parameters: Record<string, unknown> = {},
		activationMode?: string,
	): FakeContextOptions {
		return {
			answers,
			mode,
			webhookUrl: url,
			nodeName: NODE_NAME,
			parameters: { events: EVENTS, ...parameters },
			activationMode,
			httpRequest: this.selfDelivery,
		};
	}

	/** n8n's activation, or the editor's "Listen for test event" (mode manual, test URL). */
	async activate(
		answers: ScriptedAnswer[],
		mode: WorkflowExecuteMode = 'trigger',
		url = PRODUCTION_URL,
		parameters: Record<string, unknown> = {},
		activationMode?: string,
	) {
		const { fake } = await this.stored.around(
			this.hookOptions(answers, mode, url, parameters, activationMode),
			async (context) => activateWebhook(new AgencyCrmTrigger(), context.hook),
		);
		return fake;
	}

	async deactivate(answers: ScriptedAnswer[], mode: WorkflowExecuteMode = 'trigger', url = PRODUCTION_URL) {
		const { result: removed, fake } = await this.stored.around(this.hookOptions(answers, mode, url), async (context) =>
			new AgencyCrmTrigger().webhookMethods.default.delete.call(context.hook),
		);
		return { removed, fake };
	}

	deliveryOptions(notification: unknown, options: DeliveryOptions = {}): FakeContextOptions {
		const secret = options.secret === undefined ? SECRET : options.secret;
		return {
			answers: options.answers ?? [],
			mode: 'webhook',
			webhookUrl: PRODUCTION_URL,
			nodeName: NODE_NAME,
			body: notification,
			headers: secret === null ? {} : { [SECRET_HEADER]: secret },
			parameters: { events: EVENTS, fetchFullRecord: false, ...options.parameters },
			credentialId: options.credentialId,
			workflowId: this.stored.workflowId,
			webhookName: options.webhookName,
			httpRequest: this.selfDelivery,
		};
	}

	/** A delivery's context loaded from the stored state, for tests that answer and save (or not) themselves. */
	deliveryContext(notification: unknown, options: DeliveryOptions = {}) {
		return fakeContext({ ...this.deliveryOptions(notification, options), staticData: this.stored.data });
	}

	/** One production delivery, answered as n8n answers it, through `trigger` (another process's, say). */
	async deliver(notification: unknown, options: DeliveryOptions = {}, trigger = new AgencyCrmTrigger()) {
		const { result, fake } = await this.stored.around(
			this.deliveryOptions(notification, options),
			async (context) => trigger.webhook.call(context.webhook),
			options.startStatus,
		);
		return { fake, items: started(result), result };
	}

	/** This process's memory of the workflow's trigger node. */
	scope() {
		return scopeMemory({
			getWorkflow: () => ({ id: this.stored.workflowId }),
			getNode: () => ({ name: NODE_NAME }),
		} as never);
	}

	/** Waits until this process has written what it learnt (its journal taken, or given up). */
	async written() {
		const scope = this.scope();
		await waitFor('the journal written', () => !scope.writing, 10_000, 20);
	}

	/** The keys of the records the static data remembers. */
	rememberedKeys(): string[] {
		const text = this.nodeData().memory;
		return typeof text === 'string' && text ? text.split('\n').map((line) => line.split(' ')[0]) : [];
	}

	/** The journals the trigger sent itself. */
	journals = () => this.selfDeliveries.flatMap((body) => (body[JOURNAL_KEY] ? [body[JOURNAL_KEY] as IDataObject] : []));
}

/** A delivery handled in another n8n process: a fresh copy of the node's code, so none of this process's memory. */
export function triggerOfAnotherProcess(): AgencyCrmTrigger {
	let fresh: typeof AgencyCrmTrigger | undefined;
	jest.isolateModules(() => {
		fresh = (
			jest.requireActual('../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node') as {
				AgencyCrmTrigger: typeof AgencyCrmTrigger;
			}
		).AgencyCrmTrigger;
	});
	return new fresh!();
}
