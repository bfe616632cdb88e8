/**
 * The raw loop of the Return All benchmark: `fetch` every page of POST /customers/search, parse it
 * and keep its records, following `meta.next_cursor`: what the node does with nothing of n8n around
 * it. Runs in a process of its own, forked by the bench on the Node binary n8n runs on, and stays up
 * between runs so that it is as warm as the n8n server it is compared with.
 */
import { CONTACT_READ_INCLUDES } from '../nodes/AgencyCrm/catalogue/resources/contact';

export interface RawLoopJob {
	origin: string;
	token: string;
	perPage: number;
}

export interface RawLoopResult {
	ms: number;
	pages: number;
	records: number;
	distinctIds: number;
}

export interface Page {
	data: Array<{ customers_id: number }>;
	meta: { next_cursor: string | null; has_more: boolean };
}

/** Sends one page request and gives its parsed answer (`fetch` here; axios in bench/return-all.ts). */
export type SendPage = (url: string, token: string, body: object) => Promise<Page>;

const viaFetch: SendPage = async (url, token, body) => {
	const response = await fetch(url, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as Page;
};

/** Every customer, page after page, following `meta.next_cursor`. */
export async function rawLoop(
	{ origin, token, perPage }: RawLoopJob,
	send: SendPage = viaFetch,
): Promise<RawLoopResult> {
	const records: Page['data'] = [];
	let cursor: string | null = null;
	let pages = 0;
	const started = performance.now();
	for (;;) {
		const page = await send(
			`${origin}/api/v2/site/customers/search?include=${CONTACT_READ_INCLUDES.join(',')}`,
			token,
			cursor === null ? { per_page: perPage } : { per_page: perPage, cursor },
		);
		pages++;
		for (const record of page.data) records.push(record);
		if (!page.meta.has_more) break;
		cursor = page.meta.next_cursor;
	}
	const ms = performance.now() - started;
	return { ms, pages, records: records.length, distinctIds: new Set(records.map((r) => r.customers_id)).size };
}

// Forked by the bench: one job per message, until the bench disconnects.
if (process.send) {
	process.on('message', (job: RawLoopJob) => {
		rawLoop(job).then(
			(result) => process.send?.(result),
			(error: Error) => process.send?.({ error: error.message }),
		);
	});
	process.on('disconnect', () => process.exit(0));
}
