/**
 * The sandbox's data kept in a file between runs (`npm start` keeps the CRM a user worked in):
 * every record the API, the admin routes and the console can change, the last ids given (so that
 * none is reused), the delivery log and the records receivers refused. Read at start, written soon after each change and at close.
 * The sites, agencies, API clients and referentials are not saved: they come from the seed and
 * nothing changes them. Tokens are not saved either: a client exchanges again after a restart.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toUtc } from './http';
import type { Consent, FollowUp, Rejection } from './model';
import { Store, Table } from './store';
import { rejectionKey } from './webhooks';
import type { DeliveryLogEntry, WebhookDispatcher } from './webhooks';

/**
 * Bump it when a saved record's shape changes: a file of another format is set aside (renamed,
 * never deleted) and the sandbox starts from the demo data, saying so.
 */
export const DATA_FORMAT = 5;

/** Soon after a change, yet one write for a burst of changes. */
const SAVE_DELAY_MS = 200;

const TABLES = [
	'users',
	'customers',
	'products',
	'transactions',
	'mandates',
	'calendarEvents',
	'hooks',
	'searchRequests',
	'actions',
] as const;
type TableName = (typeof TABLES)[number];
type RecordOf<Name extends TableName> = Store[Name] extends Table<infer Saved> ? Saved : never;

interface SavedTable<T> {
	last_id: number;
	records: T[];
}

interface SavedData {
	format: number;
	saved_at: string;
	tables: { [Name in TableName]: SavedTable<RecordOf<Name>> };
	consents: Consent[];
	follow_ups: FollowUp[];
	media_ids: { picture: number; lot: number };
	deliveries: DeliveryLogEntry[];
	/** Records marked errored by a receiver's 422; absent from saves made before they were kept. */
	rejections?: Rejection[];
}

/** What the sandbox started from, for the caller to say. */
export interface DataOrigin {
	file: string;
	/** `restored`: the file's data; `seeded`: the demo data (no file, or one set aside). */
	state: 'restored' | 'seeded';
	/** When the restored data was last saved. */
	savedAt?: string;
	/** Why a file was set aside, and where it went. */
	setAside?: string;
}

function savedTable<T extends { site_id: number }>(table: Table<T>): SavedTable<T> {
	return { last_id: table.lastId, records: [...table.all()] };
}

function snapshotOf(store: Store, deliveries: DeliveryLogEntry[]): SavedData {
	return {
		format: DATA_FORMAT,
		saved_at: toUtc(new Date()),
		tables: {
			users: savedTable(store.users),
			customers: savedTable(store.customers),
			products: savedTable(store.products),
			transactions: savedTable(store.transactions),
			mandates: savedTable(store.mandates),
			calendarEvents: savedTable(store.calendarEvents),
			hooks: savedTable(store.hooks),
			searchRequests: savedTable(store.searchRequests),
			actions: savedTable(store.actions),
		},
		consents: [...store.consents.values()],
		follow_ups: [...store.customers.all()].flatMap((customer) => store.customerFollowUps(customer.customers_id)),
		media_ids: store.lastMediaIds,
		deliveries,
		rejections: [...store.rejections.values()],
	};
}

/** A store holding the saved records, with the seed's sites, agencies, clients and referentials. */
function restoredStore(seeded: Store, saved: SavedData): Store {
	const store = new Store(seeded.referentials);
	for (const [id, site] of seeded.sites) store.sites.set(id, site);
	for (const [id, agency] of seeded.agencies) store.agencies.set(id, agency);
	for (const [id, client] of seeded.clients) store.clients.set(id, client);
	const { tables } = saved;
	refill(store.users, tables.users);
	refill(store.customers, tables.customers);
	refill(store.products, tables.products);
	refill(store.transactions, tables.transactions);
	refill(store.mandates, tables.mandates);
	refill(store.calendarEvents, tables.calendarEvents);
	refill(store.hooks, tables.hooks);
	// Actions and search requests go through the store, which indexes them by customer and product.
	refill(store.searchRequests, tables.searchRequests, (request) => store.addSearchRequest(request));
	refill(store.actions, tables.actions, (action) => store.addAction(action));
	for (const consent of saved.consents) store.consents.set(consent.customers_id, consent);
	for (const followUp of saved.follow_ups) store.putFollowUp(followUp);
	for (const rejection of saved.rejections ?? [])
		store.rejections.set(rejectionKey(rejection.resource_type, rejection.resource_id), rejection);
	store.restoreMediaIds(saved.media_ids);
	return store;
}

function refill<T extends { site_id: number }>(
	table: Table<T>,
	saved: SavedTable<T>,
	insert: (record: T) => unknown = (record) => table.insert(record),
): void {
	for (const record of saved.records) insert(record);
	table.reserveIdsUpTo(saved.last_id);
}

/** Why the file cannot be restored, or undefined when it can. */
function problemOf(saved: unknown): string | undefined {
	const data = saved as Partial<SavedData> | null;
	if (typeof data !== 'object' || data === null) return 'it is not a JSON object';
	if (data.format !== DATA_FORMAT) return `it has format ${String(data.format)}, this sandbox reads ${DATA_FORMAT}`;
	const missing = TABLES.filter((name) => !Array.isArray(data.tables?.[name]?.records));
	return missing.length ? `it lacks ${missing.join(', ')}` : undefined;
}

/**
 * The store to start from: the file's data when it holds a readable save, else the seeded store.
 * An unreadable file is renamed `<file>.unreadable-<time>` (never deleted) and the reason given.
 */
export function loadData(
	file: string,
	seeded: Store,
): { store: Store; deliveries: DeliveryLogEntry[]; origin: DataOrigin } {
	if (!existsSync(file)) return { store: seeded, deliveries: [], origin: { file, state: 'seeded' } };
	let problem: string | undefined;
	try {
		const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedData;
		problem = problemOf(saved);
		if (!problem) {
			return {
				store: restoredStore(seeded, saved),
				deliveries: saved.deliveries ?? [],
				origin: { file, state: 'restored', savedAt: saved.saved_at },
			};
		}
	} catch (error) {
		problem = (error as Error).message;
	}
	const setAsideTo = `${file}.unreadable-${Date.now()}`;
	renameSync(file, setAsideTo);
	return {
		store: seeded,
		deliveries: [],
		origin: { file, state: 'seeded', setAside: `${problem}; moved to ${setAsideTo}` },
	};
}

/** Writes the data to the file soon after each change, and at close; each write replaces the file whole. */
export class DataSaver {
	private timer: NodeJS.Timeout | undefined;
	private closed = false;

	constructor(
		private readonly file: string,
		private readonly store: Store,
		private readonly dispatcher: WebhookDispatcher,
	) {
		mkdirSync(path.dirname(file), { recursive: true });
	}

	/** Something changed: save soon. */
	changed(): void {
		if (!this.closed) this.timer ??= setTimeout(() => this.save(), SAVE_DELAY_MS);
	}

	/** Saves now (and cancels a pending save). */
	save(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		const temporary = `${this.file}.saving`;
		writeFileSync(temporary, JSON.stringify(snapshotOf(this.store, this.dispatcher.log.latest())));
		// A rename replaces the file at once: a stop in the middle of a write never leaves half a file.
		renameSync(temporary, this.file);
	}

	/** Saves a last time; later changes (deliveries aborted by the stop) are not saved. */
	close(): void {
		this.save();
		this.closed = true;
	}
}
