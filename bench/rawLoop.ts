/**
 * The raw loop of the Return All benchmark: `fetch` every page of POST /customers/search, parse it
 * and keep its records, following `meta.next_cursor`: what the node does with nothing of n8n around
 * it. Runs in a process of its own, forked by the bench on the Node binary n8n runs on, and stays up
 * between runs so that it is as warm as the n8n server it is compared with.
 */

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

interface Page {
	data: Array<{ customers_id: number }>;
	meta: { next_cursor: string | null; has_more: boolean };
}

async function rawLoop({ origin, token, perPage }: RawLoopJob): Promise<RawLoopResult> {
	const records: Page['data'] = [];
	let cursor: string | null = null;
	let pages = 0;
	const started = performance.now();
	for (;;) {
		const response = await fetch(`${origin}/api/v2/site/customers/search`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
			body: JSON.stringify(cursor === null ? { per_page: perPage } : { per_page: perPage, cursor }),
		});
		if (!response.ok) throw new Error(`page ${pages + 1}: HTTP ${response.status} ${await response.text()}`);
		const page = (await response.json()) as Page;
		pages++;
		for (const record of page.data) records.push(record);
		if (!page.meta.has_more) break;
		cursor = page.meta.next_cursor;
	}
	const ms = performance.now() - started;
	return { ms, pages, records: records.length, distinctIds: new Set(records.map((r) => r.customers_id)).size };
}

process.on('message', (job: RawLoopJob) => {
	rawLoop(job).then(
		(result) => process.send?.(result),
		(error: Error) => process.send?.({ error: error.message }),
	);
});
process.on('disconnect', () => process.exit(0));
