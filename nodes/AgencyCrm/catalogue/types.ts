import type { IDataObject, IHttpRequestMethods, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';

/** Subscription packs (spec section 1). Calendar endpoints need a calendar permission instead. */
type ResourcePack =
	'Properties' | 'Customers' | 'Leads' | 'Sales' | 'Websites' | 'Mandates' | 'Access' | 'Full' | 'Any';
export type Pack = ResourcePack | 'SITE_CALENDAR:READ' | 'SITE_CALENDAR:WRITE';

/**
 * Where a rule comes from, which decides what breaking it does. Refused before sending: `spec`, the
 * specification states it (quote its section); `evidence`, where the spec says "not shown", what public
 * clients that ran against production show (docs/assumptions.md "Production evidence"); `node`, the node
 * could not send a well-formed request (an empty path segment, text that is not JSON, a missing file).
 * Sent as given with an execution hint: `guess`, our choice where neither speaks (docs/assumptions.md),
 * because production may accept what we guessed wrong.
 */
export type RuleSource = { spec: string } | { evidence: string } | { node: string } | { guess: string };

/** What is wrong with one input, and on whose authority. */
export interface Problem {
	field: string;
	message: string;
	source: RuleSource;
}

/** A rule on one value: what is wrong ("must be …"), or undefined. Absent values are the field's `required`'s. */
export interface Rule {
	source: RuleSource;
	test(value: unknown): string | undefined;
}

/**
 * Where a field's value goes: a `{placeholder}` of the path, the query, the JSON body, a `file` read from
 * the item's binary property it names (sent as `Endpoint.upload` says), `criteria` of the site (rows, or
 * one for a field sent as a criterion; catalogue/criteria/), or `node`: an option the node reads itself
 * (Limit, Page Size, the escape hatches, Concurrency, the trigger's Events; catalogue/nodeOptions.ts).
 */
export type FieldLocation = 'path' | 'query' | 'body' | 'file' | 'criteria' | 'node';

/** How one endpoint's criteria of the site travel (catalogue/criteria/). */
export interface CriteriaSpec {
	/** Which referential names them: `GET /criterias/product/all` or `GET /criterias/search-requests`. */
	referential: 'product' | 'searchRequest';
	/** Where the rows go in the body (dotted), after those Extra Body Fields give there: never replacing them. */
	key: string;
	/** Each row has an operator (product search, search requests): `{id, operator, value}`. */
	operators: boolean;
	/** Values travel as text (`"value": "<text>"`), as production's search and search requests take them. */
	textValues: boolean;
	/** The rows are one more search request (`{criteria}`) of the list at `key` (buyer leads). */
	asSearchRequest?: boolean;
	/** A new listing: told when its status criterion will keep it out of the CRM. */
	newListing?: boolean;
}

/** A field sent as one criterion of the site (version 1's Price, Rooms, Status…). */
export interface CriterionShortcut {
	/** The XML keys it may have on a site, tried in order (`NbPieces`, `NbPiece`). */
	keys: string[];
	/** On a search: how the value compares (`SUPERIEUR` for a minimum). */
	operator?: string;
	/** Option values and the codes or labels they may have on a site (`apartment` → `Appartement`). */
	codes?: Readonly<Record<string, string[]>>;
}

/** A binary input resolved for an upload. */
export interface FileValue {
	fileName: string;
	mimeType: string;
	data: Buffer;
}

/** What a conversion may need besides the value: the workflow's time zone, for dates without one. */
export interface ConvertEnv {
	timezone: string;
}

/**
 * What one input became: its value, or why no well-formed request can carry it (text that is not
 * JSON, a binary field the item does not have), on the authority of `source` (by default: the request
 * carries JSON). A field with `parts` also keeps each part's own result, for validation to judge;
 * `notes` say what the conversion changed that the user should hear of (never blocking: guesses).
 */
export type Converted =
	| {
			value: unknown;
			parts?: ReadonlyMap<FieldSpec, Converted>;
			notes?: Array<{ message: string; source: RuleSource }>;
	  }
	| { problem: string; source?: RuleSource };

/** What the user entered as the API expects it; it fails only where no well-formed request could carry it. */
export type Converter = (value: unknown, env: ConvertEnv) => Converted;

export interface FieldSpec {
	in: FieldLocation;
	/** `top`: a parameter of its own; `collection`: an option of a collection (catalogue/form.ts, per node version). */
	placement: 'top' | 'collection';
	/**
	 * The node versions whose form has it (all when not set): a parameter that moved or changed type is two
	 * fields, each for its versions, so that saved workflows keep reading it where and as they saved it.
	 */
	versions?: readonly number[];
	/** An input that shapes the node's work or output, not the record (related data to load): version 2's Options. */
	setting?: boolean;
	/** The descriptor users see, written as a literal so that the n8n linter checks it. */
	property: INodeProperties;
	/** The operation users find this value with (`Contact → Get Many (by email or phone)`), told when the API finds no record for it. */
	findWith?: string;
	/** Key in the request; by default the property name in snake_case (`mobilePhone` → `mobile_phone`). */
	key?: string;
	convert?: Converter;
	/** `convert` applies to the key in the extra body too (spec integers as text); its output must convert unchanged. */
	convertsExtraBody?: boolean;
	/** Why the value cannot be left out; not set: optional. */
	required?: RuleSource;
	rules?: Rule[];
	/**
	 * For `options` and `multiOptions`: on whose authority the option values are the only ones (a `guess`
	 * list only suggests them: another value, typed in an expression, is sent with a hint).
	 */
	values?: RuleSource;
	/** A value the API never returns and no output may carry (spec section 2: a user's password, "write only"). */
	writeOnly?: boolean;
	/** For a `file` field: the input names several binary fields, comma-separated, each sent as a part under the key. */
	manyFiles?: boolean;
	/** A field sent as one criterion of the site (`in: 'criteria'`): version 1's Price, Rooms, Status…. */
	criterion?: CriterionShortcut;
	/**
	 * For a `fixedCollection` that gives one object (a recurrence rule): its parts, each read, converted and
	 * judged as a field under its key, problems in this order (the editor sorts them by name).
	 */
	parts?: FieldSpec[];
}

/** The request as it will be sent, before any I/O: what checks and tests look at. */
export interface PreparedRequest {
	method: IHttpRequestMethods;
	/** The path with its placeholders filled in and encoded. */
	path: string;
	pathParams: IDataObject;
	qs: IDataObject;
	body: IDataObject;
	files: Array<{ part: string; file: FileValue }>;
	/** Records per page for paginated operations, when the user chose one. */
	pageSize?: number;
	/** The pagination mode the user chose, for endpoints that offer several. */
	pagination?: PaginationMode;
	/** How many records a paginated operation returns at most; undefined for Return All. */
	limit?: number;
	/** What the Output option asked, for operations that offer it (actions/output.ts). */
	output?: OutputChoice;
	/** The endpoint's own options the node reads itself (`in: 'node'` fields), by property name: how it decides, not what it sends. */
	settings?: IDataObject;
	/** What resolving the criteria against the site's found to say (catalogue/criteria/): judged with the rest. */
	criteriaProblems?: Problem[];
	/** Problems that do not block: guesses the input contradicts, shown to the user as hints. */
	hints: Problem[];
	/** What the node did with the input that the user should know (a page size asked as the largest), shown as hints. */
	notices: string[];
}

/** A rule across fields, on the prepared request. */
export interface Check {
	source: RuleSource;
	/** What is wrong, field by field (none: fine). */
	test(request: PreparedRequest): Array<{ field: string; message: string }>;
}

/** `multipart`: the body is always a `multipart/form-data` form, files or not (the consent, as production takes it). */
export type UploadEncoding = 'multipart';

/**
 * An answer's output items where not the default (the `data` record or records, `{success: true}` for a
 * 204): `deleted`, `{deleted: true}`; `imageOrRecord`, an image as binary when the API returns one.
 */
export type OutputShape = 'deleted' | 'imageOrRecord';

/**
 * Whether a request may be sent again after a failure that leaves unknown whether the API processed it
 * (a connection reset, a 502, a 504), and why; one that may not is resent only after a 429 or a 503.
 */
export interface ResendPolicy {
	/** Whether sending it twice changes nothing more than once; for creates idempotent by content, a test. */
	resend: boolean | { when: (request: { body: IDataObject }) => boolean; condition: string };
	/** Why, quoting the spec (docs/reliability.md shows it). */
	reason: string;
}

/** The keys of the operations that are more than one request (actions/operations). */
export type CustomOperationKey = 'createCustomer' | 'upsertCustomer';

/**
 * The record a write returns, for answers that carry none (a 204, a 201 with a `Location`, `{success: true}`):
 * the key of its identifier, and the entry (`resource:operation`) that reads it back by it.
 */
export interface WrittenRecord {
	id: string;
	readBack?: string;
	/** The path placeholder that holds the record's id, for a write on a record's own path (the consent of a contact). */
	idFromPath?: string;
	/** What the read-back loads with the record (`include=consent`), and the part of it that is output. */
	include?: string;
	/** Read back whatever the write answered: the write is confirmed by what the API then holds (a consent). */
	always?: boolean;
	/** What the read-back shows: `unconfirmed` (`shows no consent`) fails the item; else `confirmed: true`, and what is `said`. */
	confirm?: (readBack: IDataObject, request: PreparedRequest) => { unconfirmed: string } | { said: IDataObject };
}

/** What the Output option asked of an item: Simplified, Raw, or the Selected Fields named. */
export type OutputChoice = { mode: 'simple' | 'raw' } | { mode: 'fields'; fields: string[] };

/** What the Output option keeps of a large record; see actions/output.ts. */
export interface OutputKeys {
	/** The record's identifier, which every output keeps. */
	id: string;
	/** The other keys of the Simplified output (a guess where the spec names few fields): at most 9, so that with the identifier it stays within n8n's 10. */
	simple: string[];
	/** The keys offered by Selected Fields: every key of the record we know (docs/assumptions.md "Records"); an expression may name others. */
	fields: string[];
	/** The parameter naming the related data asked for (`include`, `fetch`): those keys always come out. */
	relationsParameter?: string;
	/** Related data every read of the record loads (`Endpoint.readIncludes`): kept whenever a record has it. */
	related?: string[];
	/** Other names a key comes back under (production's `id` for `customers_id`): kept when the key itself is absent. */
	alternatives?: Record<string, string[]>;
	/** Groups of `{critere_name, critere_value}` items (`criteres_*`): Simplified makes them one `criteria` object of `name: value` pairs; Raw and Selected Fields keep them. */
	criteriaGroups?: string[];
}

export interface Endpoint {
	/** Value of the node's Resource parameter. */
	resource: string;
	/** The operation as users see it; a literal the linter checks (`name`, `value`, `action`). */
	operation: INodePropertyOptions & { value: string; action: string };
	method: IHttpRequestMethods;
	/** Relative to the API base, with `{placeholders}` named like the path fields. */
	path: string;
	packs: Pack[];
	/** The permission and right the API client needs, where the evidence names them (a 403 says so). */
	rights?: string;
	fields: FieldSpec[];
	pagination?: PaginationMode;
	/** When the API pages this endpoint in more than one way, the modes users may choose (first: default). */
	paginationModes?: PaginationMode[];
	/** The criteria of the site this endpoint writes or filters by, and how they travel (catalogue/criteria/). */
	criteria?: CriteriaSpec;
	/**
	 * Largest page this list serves, on whose authority; by default production's 200 (catalogue/fields.ts).
	 * A larger Page Size is asked as this one, with a notice.
	 */
	maxPageSize?: { size: number; source: RuleSource };
	/** The keys that together tell this list's records apart, where the id alone does not (an event's occurrences). */
	recordKeys?: string[];
	/** The page size's parameter when it is not the spec's `per_page` (product search's `count`). */
	pageSizeKey?: string;
	/**
	 * Related data every read of this endpoint loads, besides what is asked (`include`): what its output
	 * shows but the API leaves out unless asked (a contact's origin and groups).
	 */
	readIncludes?: string[];
	/** Related data a list's records lack though asked (a search's consent): each is read by the entry named. */
	readEach?: { includes: string[]; read: string };
	/** For a list whose answer holds more than was asked (a loose search): the records kept, and the notice on the others. */
	keepRecords?: (
		request: PreparedRequest,
	) => { keep: (record: IDataObject) => boolean; dropped: (count: number) => string } | undefined;
	/** Values that follow from others (e.g. `product_id` from the path), filled before the checks. */
	derive?: (request: PreparedRequest) => PreparedRequest;
	/** Rules across fields. */
	checks?: Check[];
	output?: OutputShape;
	/** Offers the Output option (Simplified, Raw, Selected Fields) where records are large. */
	outputKeys?: OutputKeys;
	/** See ResendPolicy; by default by method (catalogue/resend.ts): GET, PUT, PATCH, DELETE yes, POST no. */
	resend?: ResendPolicy;
	/** See UploadEncoding; not set: a form (the body fields as text parts) only when it carries files, else JSON. */
	upload?: UploadEncoding;
	/** A create whose 409 says the record is there (a follow-up, spec section 4): `outcome` existing or created. */
	conflictMeansExisting?: boolean;
	/** Statuses with a business meaning here, never retried (e.g. 502 on consent). */
	noRetryStatuses?: number[];
	/** Runs an operation that is more than one request, registered under this key. */
	custom?: CustomOperationKey;
	/**
	 * How the operation finds a record that already exists (an upsert): its keys' property names, tried in
	 * order, and the form's notice. From node version 2 the keys come first, each a parameter of its own.
	 */
	match?: { keys: string[]; notice: string };
	/** See WrittenRecord; by default, for a write with `outputKeys`: its id, read back by `resource:get`. */
	record?: WrittenRecord;
	/**
	 * What an item writes, as keys: items of one run that share one run in input order (actions/writeOrder.ts).
	 * By default a PUT, PATCH or DELETE writes its path; other requests nothing another item could overwrite.
	 */
	writes?: (request: PreparedRequest) => string[];
}
