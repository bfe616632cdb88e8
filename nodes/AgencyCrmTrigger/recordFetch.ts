import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiRequest } from '../shared/transport';
import { apiRequest, responseData, reuseRecentTokens } from '../shared/transport';
import { recordRequest } from './api';
import type { IdentifiedSubject } from './notification';

/** What reading a delivery's record gave: the decision (decision.ts) takes each. */
export type Fetched =
	| { kind: 'notFetched' }
	| { kind: 'found'; record: IDataObject }
	/** The API answered 404: the record was deleted (PRODUCT_DELETE expects it). */
	| { kind: 'gone' }
	/** The id names no record a request can address (`../x`): nothing was sent. */
	| { kind: 'unaddressable'; message: string }
	/** No answer, a 5xx, 429s beyond the node's patience: it may work later. */
	| { kind: 'unavailable'; message: string }
	/** Any other refusal (a missing right's 403…): Agency CRM's retries would meet it again. */
	| { kind: 'refused'; error: NodeApiError };

function isPassingFailure(status: number): boolean {
	return !Number.isInteger(status) || status >= 500 || status === 429;
}

/**
 * Reference use case 2: the notification is thin, so the record itself is read, with the related
 * data asked. Every outcome is returned, none thrown: what it means is the decision's.
 */
export async function fetchRecord(
	context: IWebhookFunctions,
	subject: IdentifiedSubject,
	relations: string[],
): Promise<Fetched> {
	const { resourceType, resourceId } = subject;
	// Each delivery is a run of its own: the token of the last minute's deliveries saves this one a
	// credential read (a database read and a decryption, competing with a burst's acknowledgements).
	reuseRecentTokens(context);
	let request: ApiRequest;
	try {
		request = recordRequest(subject, relations);
	} catch (error) {
		return { kind: 'unaddressable', message: (error as Error).message };
	}
	try {
		return { kind: 'found', record: responseData(await apiRequest(context, request)) as IDataObject };
	} catch (error) {
		const cause = error as NodeApiError;
		const status = Number(cause.httpCode);
		if (status === 404) return { kind: 'gone' };
		const message = `Could not fetch ${resourceType} ${String(resourceId)} named by the ${String(subject.eventType)} notification: ${cause.message}`;
		if (isPassingFailure(status)) return { kind: 'unavailable', message };
		const refusal = new NodeApiError(
			context.getNode(),
			{ message: cause.message },
			{ message, description: cause.description ?? undefined, httpCode: cause.httpCode ?? undefined },
		);
		return { kind: 'refused', error: refusal };
	}
}
