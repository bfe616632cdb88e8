import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ApiResponse } from '../../nodes/shared/transport';

/**
 * A model of a list production pages by number (its follow-ups, per the evidence: `page` from 1 and
 * `per_page` in the query, answered with `meta.current_page` and `meta.last_page`): page N of size S
 * is the records (N-1)·S+1 to N·S of the list as it is when that page is asked, whatever size the
 * pages before it asked. Production's reference gives `per_page` at most 200; a larger one fails the
 * test rather than being guessed at. `beforePage` may change the list between two pages (a record
 * added at its head), as a list read while the CRM works does.
 */
export interface NumberedList {
	/** The records, in the order the API lists them. */
	records: IDataObject[];
	/** Each request answered, with its `page` and `per_page` as the API read them. */
	asked: Array<{ page: number; perPage: number }>;
	httpRequestWithAuthentication: (credentialType: string, options: IHttpRequestOptions) => Promise<ApiResponse>;
}

const positive = (value: unknown, fallback: number) => {
	if (value === undefined) return fallback;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1) throw new Error(`not a page parameter: ${String(value)}`);
	return number;
};

export function numberedList(
	records: IDataObject[],
	{
		beforePage,
		sizeKey = 'per_page',
	}: {
		beforePage?: (page: number, records: IDataObject[]) => void;
		/** The page size's name, where a list calls it otherwise (`count`, `perPage`). */
		sizeKey?: string;
	} = {},
): NumberedList {
	const list: NumberedList = {
		records,
		asked: [],
		async httpRequestWithAuthentication(_credentialType, options) {
			// A GET takes its paging in the query, a POST search in its JSON body.
			const params = { ...(options.body as IDataObject | undefined), ...options.qs };
			const page = positive(params.page, 1);
			// Production's default page size is not in the evidence: the node always sends one.
			const perPage = positive(params[sizeKey], 15);
			if (perPage > 200) throw new Error(`per_page ${perPage} is over production's 200`);
			beforePage?.(page, list.records);
			list.asked.push({ page, perPage });
			const total = list.records.length;
			return {
				statusCode: 200,
				headers: {},
				body: {
					data: list.records.slice((page - 1) * perPage, page * perPage),
					meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
				},
			};
		},
	};
	return list;
}

/** `count` follow-ups of one contact, as a list answers them, listings 5001 onwards. */
export const followUps = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		customers_id: 42,
		product_id: 5001 + index,
		rating: index % 6,
		status: 'new',
	}));
