import type { IDataObject, IHttpRequestMethods, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';
import type { CriteriaSpec, CriterionRow, CriterionShortcut } from './criteria';

/** Subscription packs (spec section 1). Calendar endpoints need a calendar permission instead. */
export type Pack =
	| 'Properties'
	| 'Customers'
	| 'Leads'
	| 'Sales'
	| 'Websites'
	| 'Mandates'
	| 'Access'
	| 'Full'
	| 'Any'
	| 'SITE_CALENDAR:READ'
	| 'SITE_CALENDAR:WRITE';

/**
 * Where a rule comes from, which decides what breaking it does:
 * - `spec`: the specification states it (quote its section): the request is refused before sending;
 * - `evidence`: where the spec says "not shown", what public clients that ran against production show
 *   (docs/assumptions.md "Production evidence" names the source): refused before sending;
 * - `node`: the node could not send a well-formed request (an empty path segment, text that is not
 *   JSON, a file that is not there): refused before sending;
 * - `guess`: our choice where neither the spec nor the evidence speaks (docs/assumptions.md): the
 *   request is sent as given and the user gets an execution hint, because production may accept what
 *   we guessed wrong.
 */
export type RuleSource = { spec: string } | { evidence: string } | { node: string } | { guess: string };

/** What is wrong with one input, and on whose authority. */
export interface Problem {
	field: string;
	message: string;
	source: RuleSource;
}

/**
 * A rule on one value: `test` says what is wrong ("must be …"), or undefined when the value is fine.
 * Absent values are never tested: whether a value is needed is the field's `required`.
 */
export interface Rule {
	source: RuleSource;
	test(value: unknown): string | undefined;
}

/**
 * Where a field's value goes: a `{placeholder}` of the path, the query, the JSON body, (for
 * uploads) a file read from the item's binary property named by the field, sent as
 * `Endpoint.upload` says, `criteria`: rows of criteria of the site (or one, for a field sent as a
 * criterion), resolved against the site's referential and placed as `Endpoint.criteria` says
 * (catalogue/criteria.ts), or `node`: an option the node reads itself (Limit, Page Size, the escape
 * hatches, Concurrency, the trigger's Events; catalogue/nodeOptions.ts).
 */
export type FieldLocation = 'path' | 'query' | 'body' | 'file' | 'criteria' | 'node';

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

/**
 * Turns what the user entered into what the API expects. It fails (`problem`) only when no
 * well-formed request can carry the value (text that is not JSON); a value the API may refuse is
 * left to the rules.
 */
export type Converter = (value: unknown, env: ConvertEnv) => Converted;

/** Every input of one item as converted, by the field it was read for: what validation judges. */
export type Inputs = ReadonlyMap<FieldSpec, Converted>;

export interface FieldSpec {
	in: FieldLocation;
	/** `top`: a parameter of its own; `collection`: an option of a collection (catalogue/form.ts says which, per node version). */
	placement: 'top' | 'collection';
	/**
	 * The node versions whose form has this field (catalogue/form.ts); all when not set. A parameter
	 * that moved or changed type in a later version is two fields, each for its versions, so that
	 * workflows saved with the earlier one keep reading it where and as they saved it.
	 */
	versions?: readonly number[];
	/**
	 * Set on inputs that shape what the node does or returns rather than the record it sends (related
	 * data to load, a duplicate check): from node version 2 they sit under Options, apart from the data.
	 */
	setting?: boolean;
	/** The descriptor users see, written as a literal so that the n8n linter checks it. */
	property: INodeProperties;
	/** The operation users find this value with (`Contact → Get Many (by email or phone)`), told when the API finds no record for it. */
	findWith?: string;
	/** Key in the request; by default the property name in snake_case (`mobilePhone` → `mobile_phone`). */
	key?: string;
	convert?: Converter;
	/**
	 * Whether `convert` also applies to a value given under the field's key in the extra body (spec
	 * integers given as text). Only for converters that take their own output back unchanged.
	 */
	convertsExtraBody?: boolean;
	/** Why the value cannot be left out; not set: optional. */
	required?: RuleSource;
	rules?: Rule[];
	/**
	 * For `options` and `multiOptions` properties: on whose authority the option values are the
	 * only ones. A `spec` list refuses other values; a `guess` list only suggests them, and any other
	 * value (typed in an expression) is sent with a hint.
	 */
	values?: RuleSource;
	/** A value the API never returns and no output may carry (spec section 2: a user's password, "write only"). */
	writeOnly?: boolean;
	/** For a `file` field: the input names several binary fields, comma-separated, each sent as a part under the key. */
	manyFiles?: boolean;
	/**
	 * A field sent as one criterion of the site (`in: 'criteria'`): version 1's Price, Rooms, Status…,
	 * which production keeps as criteria (catalogue/criteria.ts).
	 */
	criterion?: CriterionShortcut;
	/**
	 * For a `fixedCollection` that gives one object (a recurrence rule, a point): its parts, each read,
	 * converted and judged as a field of its own, under its key in the object. Their order is the
	 * order problems are reported in; the editor shows them sorted by name.
	 */
	parts?: FieldSpec[];
}

/** What a request carries besides its endpoint: what the request builder (catalogue/requests.ts) takes. */
export interface RequestParts {
	/** Values of the path's `{placeholders}`, by placeholder name, not yet encoded. */
	pathParams?: IDataObject;
	qs?: IDataObject;
	body?: IDataObject;
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
	/**
	 * The criteria typed (rows, and fields sent as criteria), not yet in the body: resolved against the
	 * site's referential, then placed as `Endpoint.criteria` says (actions/criteria.ts).
	 */
	criteria?: CriterionRow[];
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

/**
 * How a body with `file` fields travels: as parts of a `multipart/form-data` body whose other parts
 * are the body fields as text. `multipart` on an endpoint: its body is always a form, files or not
 * (the consent, as production takes it).
 */
export type UploadEncoding = 'multipart';

/**
 * How a successful answer becomes output items when it is not the default (the `data` record, or
 * one item per record of a `data` array, or `{success: true}` for a 204).
 */
export type OutputShape =
	/** A deletion: `{deleted: true}`. */
	| 'deleted'
	/** An image when the API returns one (output as binary), otherwise the JSON record. */
	| 'imageOrRecord';

/**
 * Whether a request may be sent again after a failure that leaves unknown whether the API processed
 * it (a connection reset, a 502 or a 504), and why. A request that may not is resent only after a
 * 429 or a 503, which say it was not processed.
 */
export interface ResendPolicy {
	/**
	 * `true` when sending it twice changes nothing more than once; `false` otherwise; or a test of the
	 * prepared request, for creates the spec makes idempotent by their content (`condition` says when).
	 */
	resend: boolean | { when: (request: { body: IDataObject }) => boolean; condition: string };
	/** Why, quoting the spec (docs/reliability.md shows it). */
	reason: string;
}

/** The keys of the operations that are more than one request (actions/operations). */
export type CustomOperationKey = 'createCustomer' | 'upsertCustomer';

/**
 * The record a write returns, for the answers that carry none (a 204, a 201 with a `Location`, a
 * bare `{success: true}`, which the spec does not rule out): the key of its identifier, and the
 * catalogue entry (`resource:operation`) that reads it back by that identifier, when there is one.
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
	/**
	 * What the read-back shows that does not confirm the write (`shows no consent`), or undefined when
	 * it does: then the output says `confirmed: true`; otherwise the item fails saying what it showed.
	 */
	confirm?: (readBack: IDataObject, request: PreparedRequest) => string | undefined;
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
	/**
	 * Groups of `{critere_name, critere_value}` items (a property's `criteres_*`): Simplified turns them
	 * into one `criteria` object of `name: value` pairs; Raw and Selected Fields keep them as they are.
	 */
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
	/** The criteria of the site this endpoint writes or filters by, and how they travel (catalogue/criteria.ts). */
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
	/** Values that follow from others (e.g. `product_id` from the path), filled before the checks. */
	derive?: (request: PreparedRequest) => PreparedRequest;
	/** Rules across fields. */
	checks?: Check[];
	output?: OutputShape;
	/** Offers the Output option (Simplified, Raw, Selected Fields) where records are large. */
	outputKeys?: OutputKeys;
	/** See ResendPolicy; by default by method (catalogue/resend.ts): GET, PUT, PATCH, DELETE yes, POST no. */
	resend?: ResendPolicy;
	/** See UploadEncoding; not set: a form only when the request carries files, JSON otherwise. */
	upload?: UploadEncoding;
	/**
	 * A create whose 409 says the record is already there (a follow-up, spec section 4): the item
	 * succeeds with `outcome: existing`, and a create that went through says `outcome: created`.
	 */
	conflictMeansExisting?: boolean;
	/** Statuses with a business meaning here, never retried (e.g. 502 on consent). */
	noRetryStatuses?: number[];
	/** Runs an operation that is more than one request, registered under this key. */
	custom?: CustomOperationKey;
	/**
	 * How the operation finds a record that already exists (a create that returns the contact with the
	 * same email, an upsert): the property names of its keys, in the order they are tried, and what the
	 * form's notice says. From node version 2 the keys come first in the form, each a parameter of its own.
	 */
	match?: { keys: string[]; notice: string };
	/** See WrittenRecord; by default, for a write with `outputKeys`: its id, read back by `resource:get`. */
	record?: WrittenRecord;
	/**
	 * What an item of this operation writes, as keys: two items of one run that share a key run one
	 * after another, in input order (actions/writeOrder.ts). By default a PUT, PATCH or DELETE
	 * writes its path; other requests write nothing another item could overwrite.
	 */
	writes?: (request: PreparedRequest) => string[];
}
