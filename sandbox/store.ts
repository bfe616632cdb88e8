/**
 * In-memory data of the sandbox: Maps keyed by id for O(1) lookups, plus per-site arrays kept
 * sorted by id for cursor pagination.
 */
import type {
	Action,
	ActionType,
	Agency,
	ApiClient,
	CalendarEvent,
	Category,
	ConfigList,
	Consent,
	CriterionDefinition,
	Customer,
	EventType,
	FollowUp,
	Gender,
	LabelledItem,
	Mandate,
	Product,
	Rejection,
	SearchRequest,
	Site,
	Timeframe,
	Transaction,
	User,
	UserGroup,
	Webhook,
	Zone,
} from './model';

export class Table<T extends { site_id: number }> {
	private readonly byId = new Map<number, T>();
	private readonly bySite = new Map<number, T[]>();
	private highestId = 0;

	constructor(private readonly idOf: (record: T) => number) {}

	get(id: number): T | undefined {
		return this.byId.get(id);
	}

	/** The record when it belongs to `siteId`; records of other sites are invisible. */
	getInSite(id: number, siteId: number): T | undefined {
		const record = this.byId.get(id);
		return record && record.site_id === siteId ? record : undefined;
	}

	/** Records of a site, ascending by id. */
	forSite(siteId: number): readonly T[] {
		return this.bySite.get(siteId) ?? [];
	}

	all(): IterableIterator<T> {
		return this.byId.values();
	}

	nextId(): number {
		return this.highestId + 1;
	}

	/** The highest id ever given, deleted records included: saved with the data so that no id is reused. */
	get lastId(): number {
		return this.highestId;
	}

	/** Restoring saved data: ids up to `id` count as given, whether or not their records remain. */
	reserveIdsUpTo(id: number): void {
		this.highestId = Math.max(this.highestId, id);
	}

	insert(record: T): T {
		const id = this.idOf(record);
		if (this.byId.has(id)) throw new Error(`Duplicate id ${id}`);
		this.byId.set(id, record);
		this.highestId = Math.max(this.highestId, id);
		const siteRecords = this.bySite.get(record.site_id) ?? [];
		// Ids mostly grow, so this walks back zero steps in practice.
		let position = siteRecords.length;
		while (position > 0 && this.idOf(siteRecords[position - 1]) > id) position--;
		siteRecords.splice(position, 0, record);
		this.bySite.set(record.site_id, siteRecords);
		return record;
	}

	delete(id: number): boolean {
		const record = this.byId.get(id);
		if (!record) return false;
		this.byId.delete(id);
		const siteRecords = this.bySite.get(record.site_id) ?? [];
		siteRecords.splice(siteRecords.indexOf(record), 1);
		return true;
	}
}

export interface Referentials {
	/** Each site defines its own criteria (by site id); products' and search requests' apart. */
	productCriteria: ReadonlyMap<number, CriterionDefinition[]>;
	searchRequestCriteria: ReadonlyMap<number, CriterionDefinition[]>;
	categories: Category[];
	zones: Zone[];
	customerGroups: LabelledItem[];
	customerOrigins: LabelledItem[];
	actionTypes: ActionType[];
	userGroups: UserGroup[];
	userTypes: LabelledItem[];
	genders: Gender[];
	configLists: ConfigList[];
	eventTypes: EventType[];
	/** Keyed by agency id. */
	permanences: Map<number, Timeframe>;
}

export class Store {
	readonly sites = new Map<number, Site>();
	readonly agencies = new Map<number, Agency>();
	readonly clients = new Map<string, ApiClient>();

	readonly users = new Table<User>((user) => user.user_id);
	readonly customers = new Table<Customer>((customer) => customer.customers_id);
	readonly products = new Table<Product>((product) => product.product_id);
	readonly transactions = new Table<Transaction>((transaction) => transaction.compromis_id);
	readonly mandates = new Table<Mandate>((mandate) => mandate.mandat_id);
	readonly calendarEvents = new Table<CalendarEvent>((event) => event.id);
	readonly hooks = new Table<Webhook>((hook) => hook.id);
	readonly searchRequests = new Table<SearchRequest>((request) => request.search_request_id);
	/** The application journal: every action ever logged, shown in histories or not. */
	readonly actions = new Table<Action>((action) => action.action_id);

	/** One consent record per customer, keyed by customer id. */
	readonly consents = new Map<number, Consent>();
	/** Records a receiver refused (a 422 to a delivery), keyed `customer:10001` or `product:5001`. */
	readonly rejections = new Map<string, Rejection>();
	private readonly followUpsByCustomer = new Map<number, Map<number, FollowUp>>();
	private readonly actionsByCustomer = new Map<number, Action[]>();
	private readonly actionsByProduct = new Map<number, Action[]>();
	private readonly searchRequestsByCustomer = new Map<number, SearchRequest[]>();
	private lastPictureId = 0;
	private lastLotId = 0;

	constructor(readonly referentials: Referentials) {}

	/** The product criteria of a site; a site without criteria of its own has the first site's. */
	productCriteriaOf(siteId: number): readonly CriterionDefinition[] {
		return this.referentials.productCriteria.get(siteId) ?? this.referentials.productCriteria.get(1) ?? [];
	}

	searchRequestCriteriaOf(siteId: number): readonly CriterionDefinition[] {
		return this.referentials.searchRequestCriteria.get(siteId) ?? this.referentials.searchRequestCriteria.get(1) ?? [];
	}

	agencyIdsOfSite(siteId: number): number[] {
		return this.sites.get(siteId)?.agency_ids ?? [];
	}

	nextPictureId(): number {
		return ++this.lastPictureId;
	}

	nextLotId(): number {
		return ++this.lastLotId;
	}

	/** The last picture and lot ids given (saved with the data, sandbox/persistence.ts). */
	get lastMediaIds(): { picture: number; lot: number } {
		return { picture: this.lastPictureId, lot: this.lastLotId };
	}

	restoreMediaIds({ picture, lot }: { picture: number; lot: number }): void {
		this.lastPictureId = Math.max(this.lastPictureId, picture);
		this.lastLotId = Math.max(this.lastLotId, lot);
	}

	addAction(action: Action): Action {
		this.actions.insert(action);
		if (action.customers_id !== null) pushTo(this.actionsByCustomer, action.customers_id, action);
		if (action.product_id !== null) pushTo(this.actionsByProduct, action.product_id, action);
		return action;
	}

	/** Actions of a customer, ascending by id. */
	customerActions(customerId: number): readonly Action[] {
		return this.actionsByCustomer.get(customerId) ?? [];
	}

	productActions(productId: number): readonly Action[] {
		return this.actionsByProduct.get(productId) ?? [];
	}

	addSearchRequest(request: SearchRequest): SearchRequest {
		this.searchRequests.insert(request);
		pushTo(this.searchRequestsByCustomer, request.customers_id, request);
		return request;
	}

	customerSearchRequests(customerId: number): readonly SearchRequest[] {
		return this.searchRequestsByCustomer.get(customerId) ?? [];
	}

	followUp(customerId: number, productId: number): FollowUp | undefined {
		return this.followUpsByCustomer.get(customerId)?.get(productId);
	}

	putFollowUp(followUp: FollowUp): void {
		const ofCustomer = this.followUpsByCustomer.get(followUp.customers_id) ?? new Map<number, FollowUp>();
		ofCustomer.set(followUp.product_id, followUp);
		this.followUpsByCustomer.set(followUp.customers_id, ofCustomer);
	}

	deleteFollowUp(customerId: number, productId: number): boolean {
		return this.followUpsByCustomer.get(customerId)?.delete(productId) ?? false;
	}

	/** Follow-ups of a customer, ascending by product id. */
	customerFollowUps(customerId: number): FollowUp[] {
		const ofCustomer = this.followUpsByCustomer.get(customerId);
		return ofCustomer ? [...ofCustomer.values()].sort((a, b) => a.product_id - b.product_id) : [];
	}
}

function pushTo<T>(map: Map<number, T[]>, key: number, value: T): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}
