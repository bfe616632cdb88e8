import type { IDataObject } from 'n8n-workflow';

import type { ApiResponse } from '../../../shared/transport';
import { createdAtOf } from '../../catalogue/contacts';

/** A created_at this long before the request was sent is another contact's: the API's clock and n8n's differ by less. */
const CLOCK_SKEW_MS = 60_000;

/** What a create's answer says of the contact: made by the request, there before, or neither can be told. */
export interface Created {
	outcome: 'created' | 'existing' | 'unknown';
	evidence: string;
}

/**
 * Whether a create's answer carries its own answer to "is it new": the answer's flag
 * (`meta.duplicate`), a `created_at` from before the request, or the status (201 Created, 200 for a
 * contact it had). Without Check Duplicate the API answers a known email or phone with that contact
 * (spec section 4 "Customers"); with it (`checkedDuplicate`), it refuses them with 409, so any success
 * is a new contact unless the answer flags it (a created_at from before then says nothing but the clocks).
 */
export function createdByTheRequest(
	response: ApiResponse,
	record: IDataObject,
	sentAt: number,
	checkedDuplicate: boolean,
): Created {
	const meta = (response.body as IDataObject | undefined)?.meta as IDataObject | undefined;
	const flag = meta?.duplicate ?? meta?.duplicate_customer;
	if (typeof flag === 'boolean') {
		return flag
			? { outcome: 'existing', evidence: 'the answer flags the contact as a duplicate (meta.duplicate)' }
			: { outcome: 'created', evidence: 'the answer flags the contact as new (meta.duplicate false)' };
	}
	if (checkedDuplicate) {
		return {
			outcome: 'created',
			evidence: `HTTP ${response.statusCode} with Check Duplicate on, which refuses a known contact`,
		};
	}
	const createdAt = createdAtOf(record);
	if (createdAt !== undefined && createdAt < sentAt - CLOCK_SKEW_MS) {
		return {
			outcome: 'existing',
			evidence: `its created_at (${new Date(createdAt).toISOString()}) is before this request`,
		};
	}
	if (response.statusCode === 201) return { outcome: 'created', evidence: 'HTTP 201 Created' };
	if (response.statusCode === 200) {
		return { outcome: 'existing', evidence: 'HTTP 200 rather than 201 Created: the API returned a contact it had' };
	}
	if (createdAt !== undefined) return { outcome: 'created', evidence: 'its created_at is the time of this request' };
	return { outcome: 'unknown', evidence: `HTTP ${response.statusCode}, with no flag and no created_at to tell` };
}
